import {Flags} from '@oclif/core'

import {listSubscriptions, SUBSCRIPTION_STATUSES} from '../../client/resources/subscriptions.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class SubscriptionsList extends BaseCommand {
  static override summary = 'List subscriptions, most recently started first.'
  static override description =
    'Filters combine; repeat --status, --customer or --product for several values. --active keeps active and trialing subscriptions; --no-active keeps the ended ones (canceled, unpaid, incomplete_expired).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --active',
    {
      description: 'Subscriptions set to end at the period end, with their customers',
      command: '<%= config.bin %> <%= command.id %> --cancel-at-period-end --columns id,customer,product,ends_at',
    },
    {
      description: 'Every past-due or unpaid subscription as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --status past_due --status unpaid --all -o jsonl',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    status: Flags.option({options: SUBSCRIPTION_STATUSES, description: 'Only subscriptions in this status (repeatable).', multiple: true})(),
    active: Flags.boolean({description: 'Only active or trialing subscriptions (--no-active: only ended ones).', allowNo: true}),
    customer: Flags.string({description: 'Only subscriptions of this customer id (repeatable).', multiple: true}),
    'external-customer': Flags.string({description: 'Only subscriptions of the customer with this external id (repeatable).', multiple: true}),
    product: Flags.string({description: 'Only subscriptions to this product id (repeatable).', multiple: true}),
    'cancel-at-period-end': Flags.boolean({
      description: 'Only subscriptions set to end at the period end (--no-cancel-at-period-end: only those that renew).',
      allowNo: true,
    }),
    sort: Flags.string({
      description:
        'Sort keys, comma-separated; a leading - sorts descending (customer, status, started_at, current_period_end, ended_at, ends_at, amount, product).',
    }),
    metadata: Flags.string({description: 'Only subscriptions with this metadata, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(SubscriptionsList)
    const client = await this.ctx.client()
    const items = listSubscriptions(
      client,
      {
        status: flags.status,
        active: flags.active,
        customerId: flags.customer,
        externalCustomerId: flags['external-customer'],
        productId: flags.product,
        cancelAtPeriodEnd: flags['cancel-at-period-end'],
        sorting: flags.sort?.split(','),
        metadata: flags.metadata,
      },
      this.pageOptions(flags),
    )
    await this.writeList('subscriptions', items, flags)
  }
}
