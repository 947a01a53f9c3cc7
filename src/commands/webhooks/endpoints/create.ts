import {Flags} from '@oclif/core'

import {createEndpoint, WEBHOOK_FORMATS} from '../../../client/resources/webhooks.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {ALL_WEBHOOK_EVENTS, chosenEvents, emulatorKeepsDeliveries, WEBHOOK_EVENTS} from '../../../areas/webhooks/endpoints.js'
import {receiverHint} from '../../../areas/webhooks/signing.js'
import {API_VERSIONS} from '../../../client/version.js'

export default class WebhooksEndpointsCreate extends BaseCommand {
  static override summary = 'Create a webhook endpoint; prints its signing secret, once.'
  static override description =
    `The service sends the chosen events to the URL (https; the local emulator also takes http://127.0.0.1). The answer holds the endpoint's signing secret (whsec_...): store it now, till does not show it again (check deliveries with it: till webhooks verify). A new endpoint signs the Standard Webhooks way: a stock Standard Webhooks library verifies its deliveries given the secret as it is. --api-version sets the version of its payloads (the service's current one by default). Piped, stdout is the id and the secret, tab-separated; with -o csv or tsv the secret is the last column. On a terminal, a missing --url or --event is asked for.
Events (API version 2026-10; --all-events takes those of the version in use): ${WEBHOOK_EVENTS.join(', ')}.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --url https://example.com/hooks/polar --event order.paid --event subscription.canceled --name billing',
    {
      description: 'Every event, as Slack messages',
      command: '<%= config.bin %> <%= command.id %> --url https://hooks.slack.com/services/T000/B000/XXXX --all-events --format slack',
    },
  ]

  static override flags = {
    ...outputFlags,
    url: Flags.string({description: 'Where to send the events (https).'}),
    event: Flags.option({options: ALL_WEBHOOK_EVENTS, description: 'An event to send (repeatable).', multiple: true})(),
    'all-events': Flags.boolean({description: 'Send every event of the API version in use.'}),
    format: Flags.option({options: WEBHOOK_FORMATS, description: 'Body format: raw JSON, or a Discord or Slack message.', default: 'raw' as const})(),
    name: Flags.string({description: 'A name to tell endpoints apart.'}),
    'api-version': Flags.option({
      options: API_VERSIONS,
      description: "The API version of the payloads sent to it (default: the service's current one).",
    })(),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(WebhooksEndpointsCreate)
    const url = flags.url ?? (await this.prompter.text('--url', 'URL to send the events to (https://...)'))
    const events = (await chosenEvents(flags, this.prompter, this.ctx.profile.apiVersion))!
    const client = await this.ctx.client()
    const body = {url, format: flags.format, events, name: flags.name, api_version: flags['api-version']}
    const endpoint = await createEndpoint(client, body)
    await this.writeCreated('webhook-endpoints', endpoint, flags, {secret: 'secret'})
    this.ctx.note(
      `Created webhook endpoint ${endpoint.id} (API version ${endpoint.api_version}). Store its signing secret now; it is not shown again. Check a delivery with it: TILL_WEBHOOK_SECRET=<secret> till webhooks verify --body FILE --headers FILE`,
    )
    this.ctx.note(receiverHint(endpoint))
    const kept = emulatorKeepsDeliveries(this.ctx.profile.environment, url)
    if (kept) this.ctx.note(kept)
  }
}
