import {Args} from '@oclif/core'

import {getActivation} from '../../client/resources/license-keys.js'
import {checkUuid} from '../../client/ids.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class LicenseKeysActivation extends BaseCommand {
  static override summary = 'Show one activation of a license key: its label, meta and the key it belongs to.'
  static override description = 'The activations of a key are listed by till license-keys get ID.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d 2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d 2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e --json',
  ]

  static override args = {
    keyId: Args.string({description: 'License key id (not the key itself).', required: true, ignoreStdin: true}),
    activationId: Args.string({description: 'Activation id.', required: true, ignoreStdin: true}),
  }

  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysActivation)
    checkUuid(args.keyId, 'license key id')
    checkUuid(args.activationId, 'activation id')
    await this.writeOne('license-key-activations', await getActivation(await this.ctx.client(), args.keyId, args.activationId), flags)
  }
}
