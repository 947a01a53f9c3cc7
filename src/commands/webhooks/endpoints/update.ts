import {Args, Flags} from '@oclif/core'

import {updateEndpoint, WEBHOOK_FORMATS, type EndpointUpdate} from '../../../client/resources/webhooks.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../../areas/command.js'
import {usageError} from '../../../client/till-error.js'
import {API_VERSIONS} from '../../../client/version.js'
import {ALL_WEBHOOK_EVENTS, chosenEvents, emulatorKeepsDeliveries, withMaskedSecret} from '../../../areas/webhooks/endpoints.js'

const UPDATE_FLAGS = '--url, --event, --all-events, --format, --name, --api-version or --enabled/--no-enabled'

export default class WebhooksEndpointsUpdate extends BaseCommand {
  static override summary = "Change a webhook endpoint's URL, events, format, name or API version, or turn it off and on."
  static override description =
    '--event replaces the whole list of events. --api-version sets the version of the payloads of events made from then on (a redelivery sends an event as it was first made). --no-enabled stops deliveries to the endpoint until --enabled turns them back on (the service also turns off an endpoint after 10 events failed in a row); it asks for confirmation on a terminal, and without one --yes is required. Give - as ID to change every endpoint whose id is read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --event order.paid --event order.refunded',
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --enabled',
    {
      description: 'Payloads of the next API version',
      command: '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --api-version 2027-01',
    },
    {
      description: 'Turn it off, without a question',
      command: '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --no-enabled --yes',
    },
  ]

  static override args = {id: Args.string({description: 'Webhook endpoint id, or - to read ids from stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    url: Flags.string({description: 'New URL (https).'}),
    event: Flags.option({options: ALL_WEBHOOK_EVENTS, description: 'An event to send (repeatable; replaces the list).', multiple: true})(),
    'all-events': Flags.boolean({description: 'Send every event of the API version in use.'}),
    format: Flags.option({options: WEBHOOK_FORMATS, description: 'Body format: raw JSON, or a Discord or Slack message.'})(),
    name: Flags.string({description: 'New name.'}),
    'api-version': Flags.option({options: API_VERSIONS, description: 'The API version of the payloads sent to it.'})(),
    enabled: Flags.boolean({
      description: 'Turn deliveries on (--no-enabled: off, after a confirmation).',
      allowNo: true,
    }),
    yes: Flags.boolean({
      char: 'y',
      description: 'Do not ask before turning deliveries off (needed without a terminal).',
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(WebhooksEndpointsUpdate)
    const body: EndpointUpdate = {
      url: flags.url,
      format: flags.format,
      name: flags.name,
      api_version: flags['api-version'],
      enabled: flags.enabled,
      events: await chosenEvents(flags, this.prompter, this.ctx.profile.apiVersion, true),
    }
    if (Object.values(body).every((v) => v === undefined)) throw usageError('nothing to update', `pass ${UPDATE_FLAGS}`)
    // the service's own CLI asks before this one (x-polar-cli-confirm on WebhookEndpointUpdate.enabled)
    if (flags.enabled === false) {
      const what = args.id === '-' ? 'every webhook endpoint read from stdin' : `webhook endpoint ${args.id}`
      await this.confirmAction(`turn off deliveries to ${what} (no events are sent to it until --enabled)`, flags.yes)
    }
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => withMaskedSecret(await updateEndpoint(client, id, body)),
      (endpoint) => this.writeChanged('webhook-endpoints', endpoint, flags),
    )
    const kept = emulatorKeepsDeliveries(this.ctx.profile.environment, flags.url)
    if (kept) this.ctx.note(kept)
  }
}
