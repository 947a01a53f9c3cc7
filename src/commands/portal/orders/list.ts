import {Flags} from '@oclif/core'

import {listPortalOrders} from '../../../client/resources/portal.js'
import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalOrdersList extends PortalCommand {
  static override summary = "List the signed-in customer's orders, newest first."
  static override description = "Only this customer's orders exist on the portal. With --all every page is read, within the rate budget, and streamed in order."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --billing-type recurring --all -o jsonl',
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    product: Flags.string({description: 'Only orders of this product id (repeatable).', multiple: true}),
    'billing-type': Flags.option({options: ['one_time', 'recurring'] as const, description: 'Only one-time or only recurring orders.'})(),
    subscription: Flags.string({description: 'Only orders of this subscription id.'}),
    query: Flags.string({description: 'Only orders whose product name or invoice number contains this text.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, amount).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalOrdersList)
    const items = listPortalOrders(
      await this.portalClient(flags),
      {
        productId: flags.product,
        billingType: flags['billing-type'],
        subscriptionId: flags.subscription,
        query: flags.query,
        sorting: flags.sort?.split(','),
      },
      this.pageOptions(flags),
    )
    await this.writeList('orders', items, flags)
  }
}
