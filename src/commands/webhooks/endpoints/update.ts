import {Args, Flags} from '@oclif/core'

import {updateEndpoint, WEBHOOK_FORMATS, type EndpointUpdate} from '../../../client/resources/webhooks.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../../areas/command.js'
import {usageError} from '../../../client/till-error.js'
import {ALL_WEBHOOK_EVENTS, chosenEvents, withMaskedSecret} from '../../../areas/webhooks/endpoints.js'

export default class WebhooksEndpointsUpdate extends BaseCommand {
  static override summary = "Change a webhook endpoint's URL, events, format or name, or turn it off and on."
  static override description =
    '--event replaces the whole list of events. --no-enabled stops deliveries to the endpoint until --enabled turns them back on (the service also turns off an endpoint after 10 events failed in a row). Give - as ID to change every endpoint whose id is read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --event order.paid --event order.refunded',
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --enabled',
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
    enabled: Flags.boolean({description: 'Turn deliveries on (--no-enabled: off).', allowNo: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(WebhooksEndpointsUpdate)
    const body: EndpointUpdate = {
      url: flags.url,
      format: flags.format,
      name: flags.name,
      enabled: flags.enabled,
      events: await chosenEvents(flags, this.prompter, this.ctx.profile.apiVersion, true),
    }
    if (Object.values(body).every((v) => v === undefined))
      throw usageError('nothing to update', 'pass --url, --event, --all-events, --format, --name or --enabled/--no-enabled')
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => withMaskedSecret(await updateEndpoint(client, id, body)),
      (endpoint) => this.writeChanged('webhook-endpoints', endpoint, flags),
    )
  }
}
