import {Flags} from '@oclif/core'

import {createCheckoutLink} from '../../client/resources/checkout-links.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag} from '../../areas/catalog/flags.js'
import {productChoices} from '../../areas/catalog/input.js'
import {metadataFrom} from '../../cli/input/fields.js'

export default class CheckoutLinksCreate extends BaseCommand {
  static override summary = 'Create a checkout link and print its URL.'
  static override description =
    'Prints the reusable URL (each visit opens a new checkout); with --json or -o, the whole link. On a terminal a missing --product is picked from a list of the products still sold.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --label "Newsletter"',
    {
      description: 'Two plans to choose from, no discount codes',
      command:
        '<%= config.bin %> <%= command.id %> --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --product 7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b --no-discount-codes',
    },
  ]

  static override flags = {
    ...outputFlags,
    product: Flags.string({description: 'Product id the link sells (repeatable: the customer can switch between them).', multiple: true}),
    label: Flags.string({char: 'l', description: 'A name for the link, for you (customers do not see it).'}),
    'success-url': Flags.string({description: 'Where to send the customer after payment; {CHECKOUT_ID} is replaced.'}),
    'return-url': Flags.string({description: "Where the checkout's back button goes."}),
    'discount-codes': Flags.boolean({description: 'Let customers enter discount codes (default; --no-discount-codes to refuse).', allowNo: true}),
    'require-billing-address': Flags.boolean({description: 'Ask for the full billing address.'}),
    ...metadataFlag('Metadata key=value, copied to every checkout the link opens (repeatable).'),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CheckoutLinksCreate)
    const metadata = metadataFrom(flags.metadata)
    const products = flags.product ?? [await this.prompter.select('--product', 'Product the link sells', async () => productChoices(await this.ctx.client()))]
    const link = await createCheckoutLink(await this.ctx.client(), {
      payment_processor: 'stripe',
      products,
      metadata,
      label: flags.label,
      success_url: flags['success-url'],
      return_url: flags['return-url'],
      allow_discount_codes: flags['discount-codes'],
      require_billing_address: flags['require-billing-address'] || undefined,
    })
    await this.writeCreated('checkout-links', link, flags, {key: 'url', keyOnTerminal: true})
  }
}
