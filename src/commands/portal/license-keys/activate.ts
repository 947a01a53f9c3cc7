import {Args, Flags} from '@oclif/core'

import {activatePortalLicenseKey} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {parsePairs} from '../../../cli/input/fields.js'
import {keyCheck, maskKey} from '../../../areas/customers/license-keys.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalLicenseKeysActivate extends PortalCommand {
  static override summary = 'Activate a license key on a device, as an installed app does: no token, paced to 3 requests per second.'
  static override description =
    "Uses one of the key's activation slots and prints the new activation; keep its id to validate with --activation or to deactivate later. The organization id comes from --organization-id, else the customer's (TILL_CUSTOMER_TOKEN, --as-customer), else the organization token's. Exits 1 with the reason when the key cannot take another activation."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --organization-id 1dbfc517-0bbf-4301-9ba8-555ca42b9737 --label "Ada\'s laptop"',
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --as-customer usr_00003 --label build-server --metadata os=linux --condition machine=ab12cd --json',
  ]

  static override args = {key: Args.string({description: 'The license key.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    'organization-id': Flags.string({description: 'The organization the key belongs to (else looked up, see above).'}),
    label: Flags.string({description: 'A name for this activation, e.g. the device (asked for on a terminal when missing).'}),
    metadata: Flags.string({description: 'Metadata of the activation, key=value (repeatable).', multiple: true, aliases: ['meta'], deprecateAliases: true}),
    condition: Flags.string({description: 'Conditions later validations of this activation must match, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalLicenseKeysActivate)
    const meta = parsePairs(flags.metadata, '--metadata')
    const conditions = parsePairs(flags.condition, '--condition')
    const label = flags.label ?? (await this.prompter.text('--label', 'Label of the activation (e.g. the device name)'))
    const organization = await this.keyCheckOrganization(flags)
    const client = await this.ctx.anonymousClient()
    const activation = await keyCheck(() => activatePortalLicenseKey(client, {key: args.key, organization_id: organization, label, meta, conditions}))
    this.ctx.note(`Activated ${maskKey(args.key)} as "${label}": activation ${activation.id}.`)
    await this.writeCreated('license-key-activations', activation, flags)
  }
}
