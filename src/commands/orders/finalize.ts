import {Args, Flags} from '@oclif/core'

import {finalizeOrder, getOrder} from '../../client/resources/orders.js'
import {BaseCommand, dryRunFlag, outputFlags} from '../../areas/command.js'
import {formatMoney} from '../../cli/input/money.js'

export default class OrdersFinalize extends BaseCommand {
  static override summary = "Charge a draft order now, off-session, to the customer's saved payment method (asks for confirmation)."
  static override description =
    `The charge is made at once: on success the order is paid, gets its invoice number and grants its product's benefits (order.updated and order.paid are sent). On failure the order stays a draft, and can be finalized again once the cause is fixed: a customer without a saved payment method (PaymentFailed), a card that needs the customer to authenticate (PaymentActionRequired), off-session charges not enabled for the organization. An order that is no longer a draft is refused (OrderNotDraft).

Confirmed on a terminal, stating the total; --yes is needed otherwise. A finalize whose answer was lost is settled by reading the order: paid, it was done; still a draft, nothing was charged and it is sent again (the service charges a draft once); being charged, the outcome is unknown (exit 7) and till orders get ID shows it.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    {
      description: 'Charge a given saved card of the customer, without a question',
      command: '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --payment-method 0f3c2b1a-9e8d-4c7b-a6f5-4e3d2c1b0a99 --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Id of the draft order.', required: true})}
  static override flags = {
    ...outputFlags,
    'payment-method': Flags.string({
      description: "Id of the customer's saved payment method to charge (default: their default one); see till customers payment-methods.",
    }),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersFinalize)
    const client = await this.ctx.client()
    let summary = `charge draft order ${args.id} to the customer's saved payment method`
    if ((this.prompter.interactive && !flags.yes) || flags['dry-run']) {
      const order = await getOrder(client, args.id)
      summary = `charge ${formatMoney(order.total_amount, order.currency)} (order ${order.id}, ${order.customer.email}) to the customer's saved payment method`
    }
    await this.confirmAction(summary, flags.yes)
    const order = await finalizeOrder(client, args.id, flags['payment-method'] ? {payment_method_id: flags['payment-method']} : {})
    await this.writeOne('orders', order, flags)
  }
}
