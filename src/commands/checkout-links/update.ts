import {Args, Flags} from '@oclif/core'

import {updateCheckoutLink, type CheckoutLinkUpdate} from '../../client/resources/checkout-links.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {usageError} from '../../client/till-error.js'
import {metadataFrom} from '../../cli/input/fields.js'

export default class CheckoutLinksUpdate extends BaseCommand {
  static override summary = "Change a checkout link's products, label, discount, URLs or settings; its URL stays the same."
  static override description =
    '--product replaces the products (repeatable). --discount applies a discount to checkouts opened from the link (it must apply to each product); --no-discount removes it. --label "" clears the label. --metadata replaces the metadata. Give - as ID to apply the same change to every link id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 4c3b2a19-8d7e-4f6a-9b5c-3d2e1f0a9b8c --label "Spring sale" --discount 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d',
    '<%= config.bin %> <%= command.id %> 4c3b2a19-8d7e-4f6a-9b5c-3d2e1f0a9b8c --no-discount-codes --require-billing-address',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Checkout link id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    product: Flags.string({description: 'Product id the link sells (repeatable; replaces the list).', multiple: true}),
    label: Flags.string({description: 'Internal label ("" clears it).'}),
    discount: Flags.string({description: 'Apply this discount id.'}),
    'no-discount': Flags.boolean({description: 'Remove the discount.', exclusive: ['discount']}),
    'discount-codes': Flags.boolean({description: 'Let customers type a discount code (--no-discount-codes: do not).', allowNo: true}),
    'require-billing-address': Flags.boolean({description: 'Ask for the full billing address (--no-require-billing-address: do not).', allowNo: true}),
    'success-url': Flags.string({description: 'Where to send the customer after payment.'}),
    'return-url': Flags.string({description: "Where the checkout's back button goes."}),
    ...metadataFlag('Metadata key=value, replacing the current metadata (repeatable).'),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CheckoutLinksUpdate)
    const body: CheckoutLinkUpdate = Object.fromEntries(
      Object.entries({
        products: flags.product,
        label: flags.label === '' ? null : flags.label,
        discount_id: flags['no-discount'] ? null : flags.discount,
        allow_discount_codes: flags['discount-codes'],
        require_billing_address: flags['require-billing-address'],
        success_url: flags['success-url'],
        return_url: flags['return-url'],
        metadata: metadataFrom(flags.metadata),
      }).filter(([, v]) => v !== undefined),
    )
    if (Object.keys(body).length === 0)
      throw usageError(
        'nothing to update',
        'pass --product, --label, --discount or --no-discount, --discount-codes, --require-billing-address, --success-url, --return-url or --metadata',
      )
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => updateCheckoutLink(client, id, body),
      (link) => this.writeChanged('checkout-links', link, flags),
    )
  }
}
