import {Flags} from '@oclif/core'

import {listCheckoutLinks} from '../../client/resources/checkout-links.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class CheckoutLinksList extends BaseCommand {
  static override summary = 'List checkout links, oldest first.'
  static override description = 'A checkout link is a reusable URL: each visit opens a new checkout for its products.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {
      description: 'Links that sell a product, with their URLs',
      command: '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --columns label,url',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    product: Flags.string({description: 'Only links that include this product id (repeatable).', multiple: true}),
    sort: Flags.string({
      description:
        'Sort keys, comma-separated; a leading - sorts descending (default -created_at: newest first; created_at, label, success_url, allow_discount_codes).',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CheckoutLinksList)
    const client = await this.ctx.client()
    const items = listCheckoutLinks(client, {productId: flags.product, sorting: flags.sort?.split(',') ?? ['-created_at']}, this.pageOptions(flags))
    await this.writeList('checkout-links', items, flags)
  }
}
