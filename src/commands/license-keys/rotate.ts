import {Args, Flags} from '@oclif/core'

import {getLicenseKey, rotateLicenseKey} from '../../client/resources/license-keys.js'
import {BaseCommand, dryRunFlag, outputFlags} from '../../areas/command.js'

export default class LicenseKeysRotate extends BaseCommand {
  static override summary = 'Give a license key a new key string: the old one stops working at once (asks for confirmation).'
  static override description =
    "The record stays the same: its id, status, usage, limits, expiry and activations are kept; only the key string changes (with the benefit's prefix), and the customer needs the new one. For a key that leaked. A revoked key cannot be rotated (RotateNotPermitted). Confirmed on a terminal; --yes is needed otherwise. The new key is printed: piped without a format, the key alone."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
    {
      description: 'Rotate and keep the new key in a variable',
      command: 'NEW_KEY=$(<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --yes)',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'License key id (not the key itself).', required: true})}
  static override flags = {
    ...outputFlags,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysRotate)
    const client = await this.ctx.client()
    let what = `license key ${args.id}`
    if ((this.prompter.interactive && !flags.yes) || flags['dry-run']) {
      const key = await getLicenseKey(client, args.id)
      what = `license key ${key.display_key} of ${key.customer.email}`
    }
    await this.confirmAction(`rotate ${what}: the current key stops working at once`, flags.yes)
    const key = await rotateLicenseKey(client, args.id)
    const machine = this.jsonEnabled() || flags.output !== undefined || this.ctx.io.stdoutIsTTY
    if (machine) await this.writeOne('license-keys', key, flags)
    else this.ctx.io.stdout.write(`${key.key}\n`)
  }
}
