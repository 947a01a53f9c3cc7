import {Args, Flags} from '@oclif/core'

import type {Address, BillingUpdate} from '../../../client/resources/orders.js'
import {getPortalOrder, updatePortalOrder} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {addressFlags, addressFlagsGiven, addressFrom} from '../../../cli/input/address.js'
import {usageError} from '../../../client/till-error.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalOrdersUpdate extends PortalCommand {
  static override summary = "Set the billing name and address of one of the signed-in customer's orders (until its invoice is generated)."
  static override description =
    'Address flags are merged into the address the order already has. The service refuses changes once the invoice exists, and a change of country or state of an existing address.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --billing-name "Acme GmbH" --country DE --line1 "Unter den Linden 5" --postal-code 10117 --city Berlin',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --as-customer usr_00003 --line2 "Floor 3"',
  ]

  static override args = {id: Args.string({description: 'Order id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    'billing-name': Flags.string({description: 'Name printed on the invoice.'}),
    ...addressFlags,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrdersUpdate)
    const address = addressFlagsGiven(flags)
    if (flags['billing-name'] === undefined && !address) {
      throw usageError('nothing to update', 'pass --billing-name and/or address flags (--country, --line1, --line2, --city, --postal-code, --state)')
    }
    const client = await this.portalClient(flags)
    const body: BillingUpdate = {}
    if (flags['billing-name'] !== undefined) body.billing_name = flags['billing-name']
    if (address) body.billing_address = addressFrom(flags, (await getPortalOrder(client, args.id)).billing_address as Address | null)
    await this.writeChanged('orders', await updatePortalOrder(client, args.id, body), flags)
  }
}
