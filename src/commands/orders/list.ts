import {Flags} from '@oclif/core'

import {listOrders, ORDER_STATUSES} from '../../client/resources/orders.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'
import {nowFor, whenIso, WHEN_HELP} from '../../cli/input/when.js'

export default class OrdersList extends BaseCommand {
  static override summary = 'List orders, newest first.'
  static override description =
    'Filters combine; repeat --status, --customer or --product for several values. With --all every page is read, within the rate budget, and streamed in order.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --status paid',
    {description: 'Export every order as JSON lines', command: '<%= config.bin %> <%= command.id %> --all -o jsonl > orders.jsonl'},
    {
      description: "One customer's refunded orders, largest first",
      command:
        '<%= config.bin %> <%= command.id %> --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --status refunded --status partially_refunded --sort -net_amount',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    status: Flags.option({options: ORDER_STATUSES, description: 'Only orders in this status (repeatable).', multiple: true})(),
    customer: Flags.string({description: 'Only orders of this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only orders of the customer with this external id (repeatable).', multiple: true}),
    product: Flags.string({description: 'Only orders of this product id (repeatable).', multiple: true}),
    subscription: Flags.string({description: 'Only orders of this subscription id.'}),
    'billing-type': Flags.option({options: ['one_time', 'recurring'] as const, description: 'Only one-time or only recurring orders.'})(),
    // one spelling for a time window across lists (--since/--until, as events and deliveries); the old ones stay as aliases
    since: Flags.string({description: `Only orders created from this time: ${WHEN_HELP} (also --created-after).`, aliases: ['created-after']}),
    until: Flags.string({description: 'Only orders created up to this time (a date: to its end; also --created-before).', aliases: ['created-before']}),
    sort: Flags.string({
      description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, status, invoice_number, net_amount, customer, product).',
    }),
    metadata: Flags.string({description: 'Only orders with this metadata, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OrdersList)
    const client = await this.ctx.client()
    const now = await nowFor(this.ctx.clock.now, {'--since': flags.since, '--until': flags.until})
    const items = listOrders(
      client,
      {
        status: flags.status,
        customerId: flags.customer,
        externalCustomerId: flags['external-customer'],
        productId: flags.product,
        subscriptionId: flags.subscription,
        billingType: flags['billing-type'],
        createdAfter: flags.since === undefined ? undefined : whenIso(flags.since, '--since', {now}),
        createdBefore: flags.until === undefined ? undefined : whenIso(flags.until, '--until', {end: true, now}),
        sorting: flags.sort?.split(','),
        metadata: flags.metadata,
      },
      this.pageOptions(flags),
    )
    await this.writeList('orders', items, flags)
  }
}
