import {Args} from '@oclif/core'

import {updateProduct} from '../../client/resources/products.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'

export default class ProductsUnarchive extends BaseCommand {
  static override summary = 'Restore an archived product so it can be bought again.'
  static override description = 'Give - as ID to restore every product id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21',
    {
      description: 'Restore every archived product',
      command: '<%= config.bin %> products list --archived --all -o jsonl | <%= config.bin %> <%= command.id %> -',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Product id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProductsUnarchive)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => updateProduct(client, id, {is_archived: false}),
      (product) => this.writeChanged('products', product, flags),
    )
  }
}
