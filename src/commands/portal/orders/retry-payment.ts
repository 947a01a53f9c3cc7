import {Args, Flags} from '@oclif/core'

import {dryRunFlag, outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {getPortalOrder, retryPortalOrderPayment} from '../../../client/resources/portal.js'
import {formatMoney} from '../../../cli/output/format.js'
import {ExitCode, TillError} from '../../../client/till-error.js'

export default class PortalOrdersRetryPayment extends PortalCommand {
  static override summary = "Retry the failed payment of one of the signed-in customer's renewal orders, with a saved payment method or a new card."
  static override description =
    "Charges the order's due amount now. Only a pending renewal whose payment failed can be retried, at most 5 times by the customer. The outcome is printed; a declined card exits 1 with the processor's reason, and a card that needs the customer's action (3-D Secure) prints its client secret. Confirmed on a terminal; --yes is needed otherwise."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --payment-method 3c2b1a09-8f7e-4d6c-b5a4-938271605f4e',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --confirmation-token ctoken_1Q2w3E4r5T6y --as-customer usr_00003 --yes',
  ]

  static override args = {id: Args.string({description: 'Order id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    'payment-method': Flags.string({
      description: 'Pay with this saved payment method (till portal payment-methods list).',
      exactlyOne: ['payment-method', 'confirmation-token'],
    }),
    'confirmation-token': Flags.string({
      description: "Pay with a new card: the processor's confirmation token id.",
      exactlyOne: ['payment-method', 'confirmation-token'],
    }),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrdersRetryPayment)
    const client = await this.portalClient(flags)
    const order = await getPortalOrder(client, args.id)
    const by = flags['payment-method'] ? `payment method ${flags['payment-method']}` : 'the new card'
    await this.confirmAction(`charge ${formatMoney(order.due_amount, order.currency)} for order ${args.id} with ${by}`, flags.yes)
    const pay = flags['payment-method'] ? {paymentMethodId: flags['payment-method']} : {confirmationTokenId: flags['confirmation-token']!}
    const outcome = await retryPortalOrderPayment(client, args.id, pay)
    if (outcome.status === 'failed') {
      throw new TillError(
        `the payment of order ${args.id} failed: ${outcome.error ?? 'the payment was declined'}`,
        ExitCode.error,
        `try another card: till portal orders retry-payment ${args.id} --confirmation-token TOKEN`,
      )
    }
    if (outcome.status === 'requires_action') this.ctx.note("The payment needs the customer's action (3-D Secure): complete it with the client secret.")
    await this.writeOne('portal-payment-status', {order_id: args.id, ...outcome}, flags)
  }
}
