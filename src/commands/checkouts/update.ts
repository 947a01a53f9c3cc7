import {Args, Flags} from '@oclif/core'

import {updateCheckout, type CheckoutUpdate} from '../../client/resources/checkouts.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {usageError} from '../../client/till-error.js'
import {customFieldDataFrom, metadataFrom} from '../../cli/input/fields.js'

export default class CheckoutsUpdate extends BaseCommand {
  static override summary = 'Change an open checkout: its product, discount, customer details, custom fields, URLs or metadata.'
  static override description =
    "Only open checkouts can change; the service refuses the others. --product must be one of the products the checkout offers. --discount applies a discount (it must be redeemable for the product and currency); --no-discount removes it. --metadata replaces the metadata. --field values replace the custom field data (fields not given are emptied); the service checks each value against the product's field."
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'Apply a discount',
      command: '<%= config.bin %> <%= command.id %> 9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d --discount 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d',
    },
    '<%= config.bin %> <%= command.id %> 9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d --customer-email ada@example.com --success-url https://example.com/thanks',
    {
      description: 'Set the custom fields',
      command: '<%= config.bin %> <%= command.id %> 9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d --field company=Acme --field size=m',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Checkout id.', required: true})}
  static override flags = {
    ...outputFlags,
    product: Flags.string({description: 'Switch to this product (one the checkout offers).'}),
    discount: Flags.string({description: 'Apply this discount id.'}),
    'no-discount': Flags.boolean({description: 'Remove the applied discount.', exclusive: ['discount']}),
    'customer-email': Flags.string({description: 'Prefill the customer email.'}),
    'customer-name': Flags.string({description: 'Prefill the customer name.'}),
    'success-url': Flags.string({description: 'Where to send the customer after payment.'}),
    'return-url': Flags.string({description: "Where the checkout's back button goes."}),
    ...metadataFlag('Metadata key=value, replacing the current metadata (repeatable).'),
    field: Flags.string({
      description:
        "A value of one of the product's custom fields, SLUG=VALUE (repeatable). Numbers, true, false and null are typed; quote text that looks like one as JSON: zip='\"01234\"'.",
      multiple: true,
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutsUpdate)
    const body: CheckoutUpdate = Object.fromEntries(
      Object.entries({
        product_id: flags.product,
        discount_id: flags['no-discount'] ? null : flags.discount,
        customer_email: flags['customer-email'],
        customer_name: flags['customer-name'],
        success_url: flags['success-url'],
        return_url: flags['return-url'],
        metadata: metadataFrom(flags.metadata),
        custom_field_data: customFieldDataFrom(flags.field),
      }).filter(([, v]) => v !== undefined),
    )
    if (Object.keys(body).length === 0)
      throw usageError(
        'nothing to update',
        'pass --product, --discount or --no-discount, --customer-email, --customer-name, --success-url, --return-url, --metadata or --field',
      )
    await this.writeChanged('checkouts', await updateCheckout(await this.ctx.client(), args.id, body), flags)
  }
}
