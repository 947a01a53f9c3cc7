import {Flags} from '@oclif/core'

import {listProducts} from '../../client/resources/products.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class ProductsList extends BaseCommand {
  static override summary = 'List products with their prices.'
  static override description = "Lists the organization's products, newest first. Streams every page with --all; pipe it as json, jsonl, csv or tsv."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {
      description: 'Every recurring product that is still sold, as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --all --recurring --no-archived -o jsonl',
    },
    {description: 'Search by name and pick columns', command: '<%= config.bin %> <%= command.id %> --query pro --columns id,name,price'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    query: Flags.string({char: 'q', description: 'Only products whose name contains this text.'}),
    archived: Flags.boolean({description: 'Only archived products (--no-archived: only those still sold).', allowNo: true}),
    recurring: Flags.boolean({description: 'Only subscription products (--no-recurring: only one-time ones).', allowNo: true}),
    benefit: Flags.string({description: 'Only products granting this benefit id.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, name, price_amount_type, price_amount).'}),
    metadata: Flags.string({description: 'Only products with this metadata, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(ProductsList)
    const client = await this.ctx.client()
    const items = listProducts(
      client,
      {
        query: flags.query,
        archived: flags.archived,
        recurring: flags.recurring,
        benefitId: flags.benefit,
        sorting: flags.sort?.split(','),
        metadata: flags.metadata,
      },
      this.pageOptions(flags),
    )
    await this.writeList('products', items, flags)
  }
}
