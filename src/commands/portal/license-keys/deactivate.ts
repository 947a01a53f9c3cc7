import {Args, Flags} from '@oclif/core'

import {deactivatePortalLicenseKey} from '../../../client/resources/portal.js'
import {maskKey} from '../../../areas/customers/license-keys.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {dryRunFlag} from '../../../areas/command.js'

export default class PortalLicenseKeysDeactivate extends PortalCommand {
  static override summary = 'Remove an activation of a license key, as an installed app does: no token, paced to 3 requests per second.'
  static override description =
    "Frees the activation's slot; validations that name it fail from then on. The organization id comes from --organization-id, else the customer's (TILL_CUSTOMER_TOKEN, --as-customer), else the organization token's. Asks for confirmation on a terminal; without one, --yes is required."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --activation 3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f --organization-id 1dbfc517-0bbf-4301-9ba8-555ca42b9737',
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --activation 3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f --as-customer usr_00003 --yes',
  ]

  static override args = {key: Args.string({description: 'The license key.', required: true, ignoreStdin: true})}
  static override flags = {
    'organization-id': Flags.string({description: 'The organization the key belongs to (else looked up, see above).'}),
    activation: Flags.string({description: 'Id of the activation to remove (asked for on a terminal when missing).'}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalLicenseKeysDeactivate)
    const activation = flags.activation ?? (await this.prompter.text('--activation', 'Id of the activation to remove'))
    await this.confirmAction(`deactivate activation ${activation} of license key ${maskKey(args.key)}`, flags.yes)
    const organization = await this.keyCheckOrganization(flags)
    await deactivatePortalLicenseKey(await this.ctx.anonymousClient(), {key: args.key, organization_id: organization, activation_id: activation})
    this.ctx.note(`Deactivated activation ${activation} of ${maskKey(args.key)}.`)
    if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify({activation_id: activation, deactivated: true})}\n`)
  }
}
