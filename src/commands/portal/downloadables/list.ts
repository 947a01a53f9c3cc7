import {Flags} from '@oclif/core'

import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {listPortalDownloadables} from '../../../client/resources/portal-account.js'

export default class PortalDownloadablesList extends PortalCommand {
  static override summary = "The files the signed-in customer's downloadables benefits give, each with a temporary download link."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The download links alone', command: '<%= config.bin %> <%= command.id %> --all --columns url'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    benefit: Flags.string({description: 'Only the files of this benefit id (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalDownloadablesList)
    const items = listPortalDownloadables(await this.portalClient(flags), {benefitId: flags.benefit}, this.pageOptions(flags))
    await this.writeList('portal-downloadables', items, flags)
  }
}
