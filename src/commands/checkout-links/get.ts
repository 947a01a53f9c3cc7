import {Args} from '@oclif/core'

import {getCheckoutLink} from '../../client/resources/checkout-links.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class CheckoutLinksGet extends BaseCommand {
  static override summary = 'Show one checkout link with its URL and products.'
  static override description = 'Give - as ID to show every link id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4c3b2a19-8d7e-4f6a-9b5c-3d2e1f0a9b8c',
    '<%= config.bin %> <%= command.id %> 4c3b2a19-8d7e-4f6a-9b5c-3d2e1f0a9b8c --json | jq -r .url',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Checkout link id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutLinksGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getCheckoutLink(client, id),
      (link) => this.writeOne('checkout-links', link, flags),
    )
  }
}
