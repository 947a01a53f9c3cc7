import {Args} from '@oclif/core'

import {getProduct, updateProduct} from '../../client/resources/products.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {confirmTarget} from '../../areas/catalog/input.js'

export default class ProductsArchive extends BaseCommand {
  static override summary = 'Archive a product: it can no longer be bought (asks for confirmation).'
  static override description =
    'Existing orders and subscriptions keep the product; new checkouts and links cannot use it. Undo with: till products unarchive ID. Without a terminal, --yes is required. Give - as ID to archive every product id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21',
    {
      description: 'Archive every private product, without asking',
      command:
        '<%= config.bin %> products list --all -o jsonl | jq -r \'select(.visibility == "private") | .id\' | <%= config.bin %> <%= command.id %> - --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Product id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProductsArchive)
    const ask = this.prompter.interactive && !flags.yes
    const name = async () => (await getProduct(await this.ctx.client(), args.id)).name
    await this.confirmAction(`archive ${await confirmTarget('product', args.id, ask, name)}`, flags.yes)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => updateProduct(client, id, {is_archived: true}),
      (product) => this.writeChanged('products', product, flags),
    )
  }
}
