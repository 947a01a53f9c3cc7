import {Args, Flags} from '@oclif/core'

import {dryRunFlag, outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {rotatePortalLicenseKey} from '../../../client/resources/portal.js'

export default class PortalLicenseKeysRotate extends PortalCommand {
  static override summary = "Give one of the signed-in customer's license keys a new key string; the old one stops validating at once."
  static override description =
    'Status, usage, limits, expiry and activations stay as they are. Only granted or disabled keys can be rotated; a revoked one cannot. The new key is printed (piped: the key string alone). Confirmed on a terminal; --yes is needed otherwise. Newer than the 2026-10 API document: the service and the SDK 1.0.1 have it.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
    {description: 'Keep the new key in a file', command: '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --yes > key.txt'},
  ]

  static override args = {id: Args.string({description: 'License key id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalLicenseKeysRotate)
    await this.confirmAction(`rotate license key ${args.id} (its current key string stops working)`, flags.yes)
    const key = await rotatePortalLicenseKey(await this.portalClient(flags), args.id)
    await this.writeCreated('license-keys', key, flags, {key: 'key'})
  }
}
