import {Flags} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'
import {listenError, ListenPrinter} from '../areas/webhooks/listen.js'
import {listen} from '../client/listen.js'
import {organizationId} from '../client/resources/organizations.js'
import {usageError} from '../client/till-error.js'
import {WEBHOOK_EVENTS} from '../client/webhook-events.js'

export default class Listen extends BaseCommand {
  static override summary = "Receive the organization's webhook events on this machine, and forward them to a local URL."
  static override description =
    `Connects to the service's listen stream (as the service's own CLI does) with the profile's token and prints one line per event on stdout: time, type, event id, the object's id and, with --forward-to, the local server's answer and how long it took. Every event of the organization arrives while till listens, whether or not webhook endpoints are registered.

--forward-to POSTs each event to a local URL with the exact signed bytes and the headers the stream gave it, as they are (webhook-id, webhook-timestamp, webhook-signature and webhook-api-version, and x-polar-triggered: true on an event till trigger sent), one at a time in the order they came: an event is sent once the one before has its answer, and one that gets no answer within 10 seconds of being sent is reported as timed out; verify them with the secret --print-secret prints (the organization id without dashes, used as a Standard Webhooks secret the way the service's SDKs use theirs). A local server that is down is reported on stderr and listening goes on.

When the service asks the stream to reconnect (every 10 minutes) till connects again at once, unnoticed; a dropped connection is reopened at once, then with a growing pause if opening keeps failing. Ctrl-C stops it (exit 130).

With the local profile the emulator must be running (till emulator start): one run inside this command would get no event from any other till command.`
  static override examples = [
    {description: 'Watch events as they happen', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'Forward them to a local server', command: '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/api/webhooks'},
    {description: 'Only order events, as JSON lines', command: '<%= config.bin %> <%= command.id %> --events order.created,order.paid --json | jq .data.id'},
    {
      description: 'The secret for POLAR_WEBHOOK_SECRET in your app',
      command: 'export POLAR_WEBHOOK_SECRET=$(<%= config.bin %> <%= command.id %> --print-secret)',
    },
  ]

  static override flags = {
    'forward-to': Flags.url({description: 'Local URL to POST each event to, signed.'}),
    events: Flags.string({description: 'Comma-separated event types to show and forward (default: all).'}),
    json: Flags.boolean({description: 'Print each event as one JSON line (the webhook body) instead of a summary line.'}),
    'print-secret': Flags.boolean({description: 'Print the signing secret of the stream and exit.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(Listen)
    const events = (flags.events ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
    const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e))
    if (unknown.length > 0) throw usageError(`--events: unknown event type ${unknown.join(', ')}`, `event types are: ${WEBHOOK_EVENTS.join(', ')}`)
    const target = flags['forward-to']
    if (target && !['http:', 'https:'].includes(target.protocol)) {
      throw usageError(
        `--forward-to must be an http or https URL, not ${target.protocol.replace(/:$/, '')}`,
        'e.g. --forward-to http://localhost:3000/api/webhooks',
      )
    }
    // The secret alone is the same from an emulator run inside this command; events are not.
    if (!flags['print-secret'])
      this.ctx.needsSharedEmulator = 'till listen needs a running emulator, since one run inside this command would get no event from any other till command'
    const client = await this.ctx.client()
    const profile = this.ctx.profile
    let orgId = profile.organizationId ?? "the token's own"
    const io = this.ctx.io
    const printer = new ListenPrinter({
      forwardTo: flags['forward-to']?.toString(),
      events,
      json: flags.json,
      out: (line) => io.stdout.write(`${line}\n`),
      width: io.stdoutIsTTY ? io.stdout.columns : undefined,
      note: (line) => (flags['print-secret'] ? this.ctx.debug(line) : this.ctx.note(line)),
      debug: (line) => this.ctx.debug(line),
    })
    try {
      orgId = await organizationId(client, profile.organizationId)
      await listen({
        baseUrl: client.options.baseUrl,
        token: client.options.token!,
        credentials: client.options.credentials,
        organizationId: orgId,
        userAgent: `till/${this.config.version}`,
        onEvent: printer.onEvent,
        onState: printer.onState,
        stopWhen: (state) => {
          if (!flags['print-secret']) return false
          if (state.state === 'connected') io.stdout.write(`${state.secret}\n`)
          return true
        },
      })
    } catch (error) {
      throw listenError(error, profile, orgId)
    } finally {
      // the answers of forwards still on their way, before the command ends
      await printer.settled()
    }
  }
}
