import {Args} from '@oclif/core'

import {uncancelSubscription, getSubscription} from '../../client/resources/subscriptions.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {unlessAlready} from '../../areas/billing/subscriptions.js'

export default class SubscriptionsUncancel extends BaseCommand {
  static override summary = 'Undo a cancellation at period end: the subscription renews again.'
  static override description =
    'Only for subscriptions cancelled at the period end that have not ended yet; a revoked subscription cannot be brought back. A subscription that is not set to cancel is left as it is (a note says so, exit 0). Give - as ID to read subscription ids from stdin (one per line or JSON lines with an id): one result per id.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    {
      description: 'Renew again every subscription set to end',
      command: '<%= config.bin %> subscriptions list --cancel-at-period-end --active --all -o jsonl | <%= config.bin %> <%= command.id %> -',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Subscription id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkWriteFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SubscriptionsUncancel)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) =>
        unlessAlready(
          () => getSubscription(client, id),
          'uncancel',
          () => uncancelSubscription(client, id),
          (l) => this.ctx.note(l),
        ),
      (s) => this.writeChanged('subscriptions', s, flags),
    )
  }
}
