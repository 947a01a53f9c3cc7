import {Args} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {getPortalBenefitGrant} from '../../../client/resources/portal.js'

export default class PortalBenefitGrantsGet extends PortalCommand {
  static override summary = 'Show one benefit granted to the signed-in customer, with what its holder may know of the benefit.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
    '<%= config.bin %> <%= command.id %> 5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170 --as-customer usr_00003 --json',
  ]

  static override args = {id: Args.string({description: 'Benefit grant id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalBenefitGrantsGet)
    await this.writeOne('benefit-grants', await getPortalBenefitGrant(await this.portalClient(flags), args.id), flags)
  }
}
