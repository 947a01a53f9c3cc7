import {Args} from '@oclif/core'

import {getEndpoint} from '../../../client/resources/webhooks.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {withMaskedSecret} from '../../../areas/webhooks/endpoints.js'

export default class WebhooksEndpointsGet extends BaseCommand {
  static override summary = 'Show one webhook endpoint: its URL, format, events and whether it is enabled.'
  static override description =
    'The signing secret is masked, as in the list; reset-secret makes a new one and shows it once. An unknown id exits 3. Give - as ID to show every endpoint id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    {description: 'The events it receives', command: "<%= config.bin %> <%= command.id %> 1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d --json | jq -r '.events[]'"},
  ]

  static override args = {id: Args.string({description: 'Webhook endpoint id, or - to read ids from stdin.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(WebhooksEndpointsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => withMaskedSecret(await getEndpoint(client, id)),
      (item) => this.writeOne('webhook-endpoints', item, flags),
    )
  }
}
