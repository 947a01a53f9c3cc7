import {Args} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {getPortalWallet} from '../../../client/resources/portal-account.js'

export default class PortalWalletsGet extends PortalCommand {
  static override summary = "Show one of the signed-in customer's wallets."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0']

  static override args = {id: Args.string({description: 'Wallet id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalWalletsGet)
    await this.writeOne('portal-wallets', await getPortalWallet(await this.portalClient(flags), args.id), flags)
  }
}
