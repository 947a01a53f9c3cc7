import {Args} from '@oclif/core'

import {getPortalLicenseKey} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalLicenseKeysGet extends PortalCommand {
  static override summary = "Show one of the signed-in customer's license keys with its activations."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
    {description: 'The activations of a key', command: "<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --json | jq '.activations'"},
  ]

  static override args = {id: Args.string({description: 'License key id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalLicenseKeysGet)
    await this.writeOne('license-keys', await getPortalLicenseKey(await this.portalClient(flags), args.id), flags)
  }
}
