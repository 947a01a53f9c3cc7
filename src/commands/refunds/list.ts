import {Flags} from '@oclif/core'

import {listRefunds} from '../../client/resources/refunds.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class RefundsList extends BaseCommand {
  static override summary = 'List refunds, newest first.'
  static override description =
    'Filters combine; repeat --order, --customer or --subscription for several values. Amounts are net of tax (the tax share is in tax_amount).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The refunds of one order', command: '<%= config.bin %> <%= command.id %> --order 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d'},
    {description: 'Every refund as CSV, largest first', command: '<%= config.bin %> <%= command.id %> --all --sort -amount -o csv > refunds.csv'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    order: Flags.string({description: 'Only refunds of this order id (repeatable).', multiple: true}),
    customer: Flags.string({description: 'Only refunds of this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only refunds of the customer with this external id (repeatable).', multiple: true}),
    subscription: Flags.string({description: 'Only refunds of this subscription id (repeatable).', multiple: true}),
    succeeded: Flags.boolean({description: 'Only succeeded refunds (--no-succeeded: only pending, failed or canceled ones).', allowNo: true}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, amount).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(RefundsList)
    const client = await this.ctx.client()
    const items = listRefunds(
      client,
      {
        orderId: flags.order,
        customerId: flags.customer,
        externalCustomerId: flags['external-customer'],
        subscriptionId: flags.subscription,
        succeeded: flags.succeeded,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('refunds', items, flags)
  }
}
