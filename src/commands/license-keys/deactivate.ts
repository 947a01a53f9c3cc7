import {Args, Flags} from '@oclif/core'

import {deactivateLicenseKey} from '../../client/resources/license-keys.js'
import {BaseCommand, dryRunFlag} from '../../areas/command.js'
import {keyOrganization, maskKey} from '../../areas/customers/license-keys.js'

export default class LicenseKeysDeactivate extends BaseCommand {
  static override summary = 'Remove an activation of a license key, freeing its slot.'
  static override description =
    'Validations that name the activation fail from then on. Asks for confirmation on a terminal; without one, --yes is required. A terminal asks for --activation when it is missing.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --activation 3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f',
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --activation 3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f --yes',
  ]

  static override args = {key: Args.string({description: 'The license key.', required: true, ignoreStdin: true})}
  static override flags = {
    activation: Flags.string({description: 'Id of the activation to remove (asked for on a terminal when missing).'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysDeactivate)
    const activation = flags.activation ?? (await this.prompter.text('--activation', 'Id of the activation to remove'))
    await this.confirmAction(`deactivate activation ${activation} of license key ${maskKey(args.key)}`, flags.yes)
    const client = await this.ctx.client()
    await deactivateLicenseKey(client, {key: args.key, organization_id: await keyOrganization(client, this.ctx.profile), activation_id: activation})
    this.ctx.note(`Deactivated activation ${activation} of ${maskKey(args.key)}.`)
    if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify({activation_id: activation, deactivated: true})}\n`)
  }
}
