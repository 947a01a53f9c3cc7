import {Flags} from '@oclif/core'

import {listPortalSubscriptions} from '../../../client/resources/portal.js'
import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSubscriptionsList extends PortalCommand {
  static override summary = "List the signed-in customer's subscriptions, most recently started first."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> --active', '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --all -o jsonl']

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    active: Flags.boolean({description: 'Only active (or trialing) subscriptions; --no-active: only ended ones.', allowNo: true}),
    product: Flags.string({description: 'Only subscriptions of this product id (repeatable).', multiple: true}),
    query: Flags.string({description: 'Only subscriptions whose product name contains this text.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (started_at, amount, status, product).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalSubscriptionsList)
    const items = listPortalSubscriptions(
      await this.portalClient(flags),
      {
        productId: flags.product,
        active: flags.active,
        query: flags.query,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('subscriptions', items, flags)
  }
}
