import {Args, Flags} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {customFieldDataFrom} from '../../../cli/input/fields.js'
import {updateClientCheckout} from '../../../client/resources/checkouts.js'
import {usageError} from '../../../client/till-error.js'
import type {Schema} from '../../../client/wire/index.js'

export default class CheckoutsClientUpdate extends BaseCommand {
  static override summary = 'Change an open checkout as its buyer would, by its client secret (no token): product, discount code, buyer details.'
  static override description =
    "What the checkout page sends while the buyer fills it in. --product must be one the checkout offers; --discount-code must be redeemable for it. The service refuses changes to a checkout that is no longer open. Prints the checkout's public fields."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> polar_c_7Xq2Lm9Nd4Rb8Ks1Vt6Wy3Zp0Ha5Jc2Ef8Gi4Ko1 --customer-email ada@example.com --customer-name "Ada Lovelace"',
    '<%= config.bin %> <%= command.id %> polar_c_7Xq2Lm9Nd4Rb8Ks1Vt6Wy3Zp0Ha5Jc2Ef8Gi4Ko1 --discount-code LAUNCH20',
  ]

  static override args = {'client-secret': Args.string({description: "The checkout's client secret.", required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    product: Flags.string({description: 'Switch to this product (one the checkout offers).'}),
    'discount-code': Flags.string({description: 'Apply the discount with this code.'}),
    'customer-email': Flags.string({description: "The buyer's e-mail."}),
    'customer-name': Flags.string({description: "The buyer's name."}),
    'billing-name': Flags.string({description: "The buyer's billing name."}),
    field: Flags.string({description: "A value of one of the product's custom fields, SLUG=VALUE (repeatable).", multiple: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutsClientUpdate)
    const body: Schema<'CheckoutUpdatePublic'> = Object.fromEntries(
      Object.entries({
        product_id: flags.product,
        discount_code: flags['discount-code'],
        customer_email: flags['customer-email'],
        customer_name: flags['customer-name'],
        customer_billing_name: flags['billing-name'],
        custom_field_data: customFieldDataFrom(flags.field),
      }).filter(([, v]) => v !== undefined),
    )
    if (Object.keys(body).length === 0) {
      throw usageError('nothing to update', 'pass --product, --discount-code, --customer-email, --customer-name, --billing-name or --field')
    }
    await this.writeChanged('checkouts', await updateClientCheckout(await this.ctx.anonymousClient(), args['client-secret'], body), flags)
  }
}
