import {Flags} from '@oclif/core'

import {listPayments, PAYMENT_STATUSES} from '../../client/resources/payments.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class PaymentsList extends BaseCommand {
  static override summary = 'List payments, newest first.'
  static override description =
    'One payment per charge: an order paid by card has one, a failed attempt has its own with the decline reason. Filters combine; repeat a filter for several values.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The payments of one order', command: '<%= config.bin %> <%= command.id %> --order 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d'},
    {description: 'Every failed payment as JSON lines', command: '<%= config.bin %> <%= command.id %> --status failed --all -o jsonl'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    order: Flags.string({description: 'Only payments of this order id (repeatable).', multiple: true}),
    checkout: Flags.string({description: 'Only payments of this checkout id (repeatable).', multiple: true}),
    customer: Flags.string({description: 'Only payments of this customer id (repeatable).', multiple: true}),
    'customer-email': Flags.string({description: 'Only payments of the customer with this email (repeatable).', multiple: true}),
    status: Flags.option({options: PAYMENT_STATUSES, description: 'Only payments with this status (repeatable).', multiple: true})(),
    method: Flags.string({description: 'Only payments by this method, e.g. card (repeatable).', multiple: true}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, status, amount, method).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PaymentsList)
    const client = await this.ctx.client()
    const items = listPayments(
      client,
      {
        orderId: flags.order,
        checkoutId: flags.checkout,
        customerId: flags.customer,
        customerEmail: flags['customer-email'],
        status: flags.status,
        method: flags.method,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('payments', items, flags)
  }
}
