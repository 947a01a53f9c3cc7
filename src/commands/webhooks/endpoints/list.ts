import {listEndpoints} from '../../../client/resources/webhooks.js'
import {BaseCommand, outputFlags, pageFlags} from '../../../areas/command.js'
import {withMaskedSecret} from '../../../areas/webhooks/endpoints.js'

export default class WebhooksEndpointsList extends BaseCommand {
  static override summary = 'List webhook endpoints, newest first.'
  static override description = 'Signing secrets are masked here; the full secret is shown once, by webhooks endpoints create.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The URLs of the disabled endpoints', command: "<%= config.bin %> <%= command.id %> --all -o jsonl | jq -r 'select(.enabled | not) | .url'"},
  ]

  static override flags = {...outputFlags, ...pageFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(WebhooksEndpointsList)
    const client = await this.ctx.client()
    const masked = async function* (items: AsyncIterable<Record<string, unknown> & {id: string}>) {
      for await (const item of items) yield withMaskedSecret(item)
    }
    await this.writeList('webhook-endpoints', masked(listEndpoints(client, this.pageOptions(flags))), flags)
  }
}
