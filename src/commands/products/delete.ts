import {Args} from '@oclif/core'

import {deleteProduct, getProduct} from '../../client/resources/products.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {confirmTarget} from '../../areas/catalog/input.js'

export default class ProductsDelete extends BaseCommand {
  static override summary = 'Delete a product that nothing uses (asks for confirmation); archive one that is in use.'
  static override description =
    'The service deletes only a product without orders, subscriptions, trials or discounts (its is_deletable says so); any other is refused (ProductNotDeletable) and can be archived instead: till products archive ID. A deleted product cannot be brought back. Without a terminal, --yes is required. Give - as ID to delete every product id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    {
      description: 'Delete every product that can be deleted, without a question',
      command: "<%= config.bin %> products list --all -o json | jq -r '.[] | select(.is_deletable) | .id' | <%= config.bin %> <%= command.id %> - --yes",
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Product id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProductsDelete)
    const client = await this.ctx.client()
    const what = await confirmTarget('product', args.id, this.prompter.interactive && !flags.yes, async () => (await getProduct(client, args.id)).name)
    await this.confirmAction(`delete ${what} for good`, flags.yes)
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        await deleteProduct(client, id)
        return {id, deleted: true}
      },
      async (result) => {
        if (this.jsonEnabled() || flags.output) await this.writeOne('deleted', result, flags)
        else this.ctx.note(`Deleted product ${result.id}.`)
      },
    )
  }
}
