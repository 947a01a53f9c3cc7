import {Args} from '@oclif/core'

import {getProduct} from '../../client/resources/products.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class ProductsGet extends BaseCommand {
  static override summary = 'Show one product with its prices and benefits.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21',
    '<%= config.bin %> <%= command.id %> 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --json',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Product id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProductsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getProduct(client, id),
      (item) => this.writeOne('products', item, flags),
    )
  }
}
