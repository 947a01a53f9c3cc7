import {Args} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {getPortalMeter} from '../../../client/resources/meters.js'

export default class PortalMetersGet extends PortalCommand {
  static override summary = "Show one of the signed-in customer's meters."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d',
    '<%= config.bin %> <%= command.id %> 8a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d --as-customer usr_00001 --json',
  ]

  static override args = {id: Args.string({description: 'Customer meter id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalMetersGet)
    await this.writeOne('portal-meters', await getPortalMeter(await this.portalClient(flags), args.id), flags)
  }
}
