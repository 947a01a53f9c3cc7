import {Args} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {getPortalOrderPaymentStatus} from '../../../client/resources/portal.js'

export default class PortalOrdersPaymentStatus extends PortalCommand {
  static override summary = "The payment status of one of the signed-in customer's orders: succeeded, pending, failed (with why) or no_payment."
  static override description = 'A failed renewal payment can be retried with till portal orders retry-payment.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --as-customer usr_00003 --json',
  ]

  static override args = {id: Args.string({description: 'Order id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrdersPaymentStatus)
    const status = await getPortalOrderPaymentStatus(await this.portalClient(flags), args.id)
    await this.writeOne('portal-payment-status', {order_id: args.id, ...status}, flags)
  }
}
