import {Flags} from '@oclif/core'

import {BaseCommand} from '../areas/command.js'
import {SECRET_VARIABLE, writeSecret} from '../areas/webhooks/dotenv.js'
import {forwarding} from '../areas/webhooks/forward-targets.js'
import {listenError, ListenPrinter} from '../areas/webhooks/listen.js'
import {checkWritableTarget, fsError} from '../client/fs-problem.js'
import {listen} from '../client/listen.js'
import {organizationId} from '../client/resources/organizations.js'

export default class Listen extends BaseCommand {
  static override summary = "Receive the organization's webhook events on this machine, and forward them to a local URL."
  static override description =
    `Connects to the service's listen stream (as the service's own CLI does) with the profile's token and prints one line per event on stdout: time, type, event id, the object's id and, with --forward-to, the local server's answer and how long it took. Every event of the organization arrives while till listens, whether or not webhook endpoints are registered.

--forward-to POSTs each event to a local URL with the exact signed bytes and the headers the stream gave it, as they are (webhook-id, webhook-timestamp, webhook-signature and webhook-api-version, and x-polar-triggered: true on an event till trigger sent), one at a time in the order they came: an event is sent once the one before has its answer, and one that gets no answer within 10 seconds of being sent is reported as timed out; verify them with the secret --print-secret prints (the organization id without dashes, used as a Standard Webhooks secret the way the service's SDKs use theirs), or that --write-env puts in a dotenv file as ${SECRET_VARIABLE} (the line added or replaced, the file written atomically with mode 0600, the secret not printed). A local server that is down is reported on stderr and listening goes on.

--forward-to may be given several times, each followed by its own --events: each target gets its events, in order, one at a time, and each event line names the target with its answer's status and time. An --events before every --forward-to filters what is shown and what goes to a target without its own.

When the service asks the stream to reconnect (every 10 minutes) till connects again at once, unnoticed; a dropped connection is reopened at once, then with a growing pause if opening keeps failing. Ctrl-C stops it (exit 130).

With the local profile the emulator must be running (till emulator start): one run inside this command would get no event from any other till command.`
  static override examples = [
    {description: 'Watch events as they happen', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'Forward them to a local server', command: '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/api/webhooks'},
    {
      description: 'Orders to one server, customers to another',
      command:
        '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/orders --events order.created,order.paid --forward-to http://localhost:4000/hook --events customer.created',
    },
    {
      description: 'Keep the signing secret in .env for your app, without showing it',
      command: '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/api/webhooks --write-env .env',
    },
    {description: 'Only order events, as JSON lines', command: '<%= config.bin %> <%= command.id %> --events order.created,order.paid --json | jq .data.id'},
    {
      description: 'The secret for POLAR_WEBHOOK_SECRET in your app',
      command: 'export POLAR_WEBHOOK_SECRET=$(<%= config.bin %> <%= command.id %> --print-secret)',
    },
  ]

  static override flags = {
    'forward-to': Flags.string({description: 'Local URL to POST each event to, signed; repeatable, each with its own --events.', multiple: true}),
    events: Flags.string({
      description: 'Comma-separated event types: of the --forward-to before it, or (first) to show and forward (default: all).',
      multiple: true,
    }),
    'write-env': Flags.string({description: `Write the signing secret into this dotenv file as ${SECRET_VARIABLE}=... (mode 0600), not printing it.`}),
    json: Flags.boolean({description: 'Print each event as one JSON line (the webhook body) instead of a summary line.'}),
    'print-secret': Flags.boolean({description: 'Print the signing secret of the stream and exit.'}),
  }

  async run(): Promise<void> {
    const {flags, raw} = await this.parseWithGlobals(Listen)
    const {events, targets} = forwarding(raw as Array<{type: string; flag?: string; input: string}>)
    const envFile = flags['write-env']
    if (envFile !== undefined) checkWritableTarget(envFile, '--write-env')
    // The secret alone is the same from an emulator run inside this command; events are not.
    if (!flags['print-secret'])
      this.ctx.needsSharedEmulator = 'till listen needs a running emulator, since one run inside this command would get no event from any other till command'
    const client = await this.ctx.client()
    const profile = this.ctx.profile
    let orgId = profile.organizationId ?? "the token's own"
    const io = this.ctx.io
    const printer = new ListenPrinter({
      targets,
      events,
      ...(envFile === undefined
        ? {}
        : {
            onSecret: (secret: string) => {
              try {
                writeSecret(envFile, secret)
              } catch (error) {
                throw fsError(error, 'write', envFile)
              }
            },
            secretNote: `Signing secret of forwarded events written to ${envFile} as ${SECRET_VARIABLE}.`,
          }),
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
