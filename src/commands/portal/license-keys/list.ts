import {Flags} from '@oclif/core'

import {listPortalLicenseKeys} from '../../../client/resources/portal.js'
import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalLicenseKeysList extends PortalCommand {
  static override summary = "List the signed-in customer's license keys, newest first."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --as-customer usr_00003 -o jsonl']
  static override flags = {
    ...outputFlags,
    ...pageFlags,
    benefit: Flags.string({description: 'Only keys of this benefit id.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalLicenseKeysList)
    const items = listPortalLicenseKeys(await this.portalClient(flags), {benefitId: flags.benefit}, this.pageOptions(flags))
    await this.writeList('license-keys', items, flags)
  }
}
