import {Flags} from '@oclif/core'

import {createCheckout, type CheckoutCreate} from '../../client/resources/checkouts.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {productChoices} from '../../areas/catalog/input.js'
import {customFieldDataFrom, metadataFrom} from '../../cli/input/fields.js'
import {checkFieldSlugs} from '../../areas/sales/custom-fields.js'

export default class CheckoutsCreate extends BaseCommand {
  static override summary = 'Create a checkout session and print its URL.'
  static override description =
    'Prints the URL to send the customer to (open for 24 hours); with --json or -o, the whole checkout. Several --product flags let the customer choose; the first is selected. --field prefills the custom fields of the product (a slug the product does not have is refused, exit 2; the service checks each value against the field; a required field is only required when the customer pays). On a terminal a missing --product is picked from a list of the products still sold.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21',
    {
      description: 'Prefill the customer and link it to your user id',
      command:
        '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --customer-email ada@example.com --external-customer usr_00001',
    },
    {
      description: "Prefill the product's custom fields",
      command: '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --field company=Acme --field seats=12 --field terms=true',
    },
    {
      description: 'Come back to your site after payment',
      command:
        '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --success-url "https://example.com/thanks?checkout={CHECKOUT_ID}" --metadata campaign=spring',
    },
  ]

  static override flags = {
    ...outputFlags,
    product: Flags.string({description: 'Product id to sell (repeatable: the customer can switch between them).', multiple: true}),
    'customer-email': Flags.string({description: 'Prefill the customer email.'}),
    'customer-name': Flags.string({description: 'Prefill the customer name.'}),
    customer: Flags.string({description: 'Id of an existing customer to check out as.'}),
    'external-customer': Flags.string({
      description: 'Your id for the customer; the customer created on payment gets it.',
      aliases: ['external-customer-id', 'customer-external-id'],
      deprecateAliases: true,
    }),
    'success-url': Flags.string({description: 'Where to send the customer after payment; {CHECKOUT_ID} is replaced.'}),
    'return-url': Flags.string({description: "Where the checkout's back button goes."}),
    discount: Flags.string({description: 'Apply this discount id (it must be redeemable for the product and currency).'}),
    'no-discount-codes': Flags.boolean({description: 'Do not let the customer type a discount code.'}),
    ...metadataFlag('Metadata key=value, copied to the order and subscription (repeatable).'),
    field: Flags.string({
      description:
        "A value of one of the product's custom fields, SLUG=VALUE (repeatable). Numbers, true, false and null are typed; quote text that looks like one as JSON: zip='\"01234\"'.",
      multiple: true,
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CheckoutsCreate)
    const metadata = metadataFrom(flags.metadata)
    const customFieldData = customFieldDataFrom(flags.field)
    const products = flags.product ?? [await this.prompter.select('--product', 'Product to sell', async () => productChoices(await this.ctx.client()))]
    // the fields are the selected (first) product's: a value for any other slug would be dropped silently
    await checkFieldSlugs(await this.ctx.client(), products[0]!, customFieldData)
    const checkout = await createCheckout(await this.ctx.client(), {
      products,
      metadata,
      customer_id: flags.customer,
      customer_email: flags['customer-email'],
      customer_name: flags['customer-name'],
      external_customer_id: flags['external-customer'],
      success_url: flags['success-url'],
      return_url: flags['return-url'],
      discount_id: flags.discount,
      allow_discount_codes: flags['no-discount-codes'] ? false : undefined,
      custom_field_data: customFieldData as CheckoutCreate['custom_field_data'],
    })
    await this.writeCreated('checkouts', checkout, flags, {key: 'url', keyOnTerminal: true})
  }
}
