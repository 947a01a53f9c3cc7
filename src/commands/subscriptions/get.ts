import {Args} from '@oclif/core'

import {getSubscription} from '../../client/resources/subscriptions.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'

export default class SubscriptionsGet extends BaseCommand {
  // `get` as for every other resource; `show` still works.
  static override hiddenAliases = ['subscriptions:show']
  static override summary = 'Show one subscription: status, customer, product, prices and period.'
  static override description = 'Give - as ID to read subscription ids from stdin (one per line or JSON lines with an id): one result per id.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    {description: 'The prices of a subscription', command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --json | jq .prices'},
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Subscription id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags, ...bulkFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SubscriptionsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getSubscription(client, id),
      (s) => this.writeOne('subscriptions', s, flags),
    )
  }
}
