import {Flags} from '@oclif/core'

import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {listPortalWallets} from '../../../client/resources/portal-account.js'

export default class PortalWalletsList extends PortalCommand {
  static override summary = "The signed-in customer's wallets: its balance with the organization, per currency."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --sort -balance --as-customer usr_00003 --json']

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, balance). Default: -created_at.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalWalletsList)
    const items = listPortalWallets(await this.portalClient(flags), {sorting: flags.sort?.split(',')}, this.pageOptions(flags))
    await this.writeList('portal-wallets', items, flags)
  }
}
