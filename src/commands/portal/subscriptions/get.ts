import {Args} from '@oclif/core'

import {getPortalSubscription} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSubscriptionsGet extends PortalCommand {
  static override summary = "Show one of the signed-in customer's subscriptions."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --json',
  ]
  static override args = {id: Args.string({description: 'Subscription id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalSubscriptionsGet)
    await this.writeOne('subscriptions', await getPortalSubscription(await this.portalClient(flags), args.id), flags)
  }
}
