import {Args, Flags} from '@oclif/core'

import {addressFlags, addressFlagsGiven, addressFrom} from '../../cli/input/address.js'
import {getOrder, updateOrder, type Address, type BillingUpdate} from '../../client/resources/orders.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {usageError} from '../../client/till-error.js'

export default class OrdersUpdate extends BaseCommand {
  static override summary = "Set an order's billing name and address (only until its invoice is generated)."
  static override description =
    'Address flags are merged into the address the order already has. The service refuses changes once the invoice exists, and a change of country or state of an existing address.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --billing-name "Acme GmbH" --country DE --line1 "Unter den Linden 5" --postal-code 10117 --city Berlin',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --line2 "Floor 3"',
  ]

  static override args = {
    id: Args.string({ignoreStdin: true, description: 'Order id, or - to read ids from stdin (each gets the same change).', required: true}),
  }
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    'billing-name': Flags.string({description: 'Name printed on the invoice.'}),
    ...addressFlags,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersUpdate)
    const address = addressFlagsGiven(flags)
    if (flags['billing-name'] === undefined && !address) {
      throw usageError('nothing to update', 'pass --billing-name and/or address flags (--country, --line1, --line2, --city, --postal-code, --state)')
    }
    const client = await this.ctx.client()
    const update = async (id: string) => {
      const body: BillingUpdate = {}
      if (flags['billing-name'] !== undefined) body.billing_name = flags['billing-name']
      if (address) body.billing_address = addressFrom(flags, (await getOrder(client, id)).billing_address as Address | null)
      return updateOrder(client, id, body)
    }
    await this.eachId(args.id, flags, update, (order) => this.writeChanged('orders', order, flags))
  }
}
