import {Args} from '@oclif/core'

import {getPortalOrder} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalOrdersGet extends PortalCommand {
  static override summary = "Show one of the signed-in customer's orders."
  static override description = "Another customer's order is not found (exit 3), like an unknown one."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --as-customer usr_00003 --json',
  ]
  static override args = {id: Args.string({description: 'Order id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrdersGet)
    await this.writeOne('orders', await getPortalOrder(await this.portalClient(flags), args.id), flags)
  }
}
