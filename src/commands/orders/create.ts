import {Flags} from '@oclif/core'

import {createOrder, type OrderCreate} from '../../client/resources/orders.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {amountFrom} from '../../cli/input/money.js'
import {parsePairs} from '../../cli/input/fields.js'

export default class OrdersCreate extends BaseCommand {
  static override summary = 'Create a draft order, to charge a customer off-session with: till orders finalize ID.'
  static override description =
    `A draft charges nothing: it holds the customer, a one-time product with a fixed price (or a free one), the amount (the product's price unless --amount gives another) and its tax, computed from the customer's billing address, which it needs. It has no invoice number until it is finalized, which charges the customer's saved payment method at once.

The organization needs off-session charges enabled (Polar support turns them on); without them the service refuses with OffSessionChargesNotEnabled. Subscription, seat-based and pay-what-you-want products are refused. Piped without a format, the new order's id alone is printed.`
  static override enableJsonFlag = true
  static override examples = [
    {
      description: 'A draft of a one-time product at its price, then the charge',
      command:
        '<%= config.bin %> <%= command.id %> --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --product 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d | xargs <%= config.bin %> orders finalize --yes',
    },
    {
      description: 'A top-up of 5,000 tokens for $25, with its own line on the invoice',
      command:
        '<%= config.bin %> <%= command.id %> --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --product 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --amount 25.00 --description "5,000 tokens" --metadata topup=5000',
    },
  ]

  static override flags = {
    ...outputFlags,
    customer: Flags.string({description: 'Id of the customer to charge (they need a saved payment method to finalize).', required: true}),
    product: Flags.string({description: 'Id of a one-time product with a fixed price, or a free one.', required: true}),
    amount: Flags.string({description: "Amount to charge instead of the product's price, in the currency's major unit (e.g. 25.00)."}),
    'amount-minor': Flags.integer({description: 'The same in minor units (cents), e.g. 2500.'}),
    currency: Flags.string({description: "Currency to charge in (default: the organization's), e.g. eur; the product needs a price in it."}),
    description: Flags.string({description: "The line's label on the invoice and receipt (default: the product's name)."}),
    metadata: Flags.string({description: 'Metadata, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OrdersCreate)
    const currency = flags.currency?.toLowerCase()
    const body: OrderCreate = {
      customer_id: flags.customer,
      product_id: flags.product,
      amount: amountFrom({major: flags.amount, minor: flags['amount-minor']}, currency ?? 'usd'),
      currency,
      description: flags.description,
      metadata: parsePairs(flags.metadata, '--metadata'),
    }
    const order = await createOrder(await this.ctx.client(), body)
    await this.writeCreated('orders', order, flags)
  }
}
