import {Args} from '@oclif/core'

import {getOrder} from '../../client/resources/orders.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class OrdersGet extends BaseCommand {
  static override summary = 'Show one order: status, amounts, items, billing details and invoice state.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --json | jq .net_amount',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Order id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getOrder(client, id),
      (item) => this.writeOne('orders', item, flags),
    )
  }
}
