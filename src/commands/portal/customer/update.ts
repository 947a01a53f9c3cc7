import {Flags} from '@oclif/core'

import type {Address} from '../../../client/resources/orders.js'
import type {PortalCustomerUpdate as CustomerChanges} from '../../../client/wire/index.js'
import {getPortalCustomer, updatePortalCustomer} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {addressFlags, addressFlagsGiven, addressFrom} from '../../../cli/input/address.js'
import {usageError} from '../../../client/till-error.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalCustomerUpdate extends PortalCommand {
  static override summary = "Set the signed-in customer's billing name and address, or its default payment method."
  static override description =
    "Address flags are merged into the address the customer already has. Orders keep their own billing details: change those with till portal orders update. --default-payment-method takes one of the customer's saved methods (till portal payment-methods list); a past-due order is then retried with it."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --billing-name "Acme GmbH" --country DE --line1 "Unter den Linden 5" --postal-code 10117 --city Berlin',
    '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --line2 "Floor 3"',
    '<%= config.bin %> <%= command.id %> --default-payment-method 3c2b1a09-8f7e-4d6c-b5a4-938271605f4e',
  ]

  static override flags = {
    ...outputFlags,
    'billing-name': Flags.string({description: 'Name printed on invoices.'}),
    'default-payment-method': Flags.string({description: 'Make this saved payment method the default.'}),
    ...addressFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalCustomerUpdate)
    const address = addressFlagsGiven(flags)
    if (flags['billing-name'] === undefined && flags['default-payment-method'] === undefined && !address) {
      throw usageError(
        'nothing to update',
        'pass --billing-name, --default-payment-method and/or address flags (--country, --line1, --line2, --city, --postal-code, --state)',
      )
    }
    const client = await this.portalClient(flags)
    const body: CustomerChanges = {}
    if (flags['billing-name'] !== undefined) body.billing_name = flags['billing-name']
    if (flags['default-payment-method'] !== undefined) body.default_payment_method_id = flags['default-payment-method']
    if (address) body.billing_address = addressFrom(flags, (await getPortalCustomer(client)).billing_address as Address | null)
    await this.writeChanged('portal-customer', await updatePortalCustomer(client, body), flags)
  }
}
