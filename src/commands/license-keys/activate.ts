import {Args, Flags} from '@oclif/core'

import {activateLicenseKey} from '../../client/resources/license-keys.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {parsePairs} from '../../cli/input/fields.js'
import {keyCheck, keyOrganization, maskKey} from '../../areas/customers/license-keys.js'

export default class LicenseKeysActivate extends BaseCommand {
  static override summary = 'Activate a license key on a device or installation (uses one of its activation slots).'
  static override description =
    'Prints the new activation; keep its id to validate with --activation or to deactivate later. Exits 1 with the reason when the key cannot take another activation (limit reached, activations not enabled, revoked or expired). A terminal asks for --label when it is missing.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --label "Ada\'s laptop"',
    {
      description: 'With metadata and conditions that later validations must repeat',
      command: '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --label build-server --metadata os=linux --condition machine=ab12cd --json',
    },
  ]

  static override args = {key: Args.string({description: 'The license key.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    label: Flags.string({description: 'A name for this activation, e.g. the device (asked for on a terminal when missing).'}),
    metadata: Flags.string({description: 'Metadata of the activation, key=value (repeatable).', multiple: true, aliases: ['meta'], deprecateAliases: true}),
    condition: Flags.string({description: 'Conditions later validations of this activation must match, key=value (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysActivate)
    const meta = parsePairs(flags.metadata, '--metadata')
    const conditions = parsePairs(flags.condition, '--condition')
    const label = flags.label ?? (await this.prompter.text('--label', 'Label of the activation (e.g. the device name)'))
    const client = await this.ctx.client()
    const organization = await keyOrganization(client, this.ctx.profile)
    const activation = await keyCheck(() => activateLicenseKey(client, {key: args.key, organization_id: organization, label, meta, conditions}))
    this.ctx.note(`Activated ${maskKey(args.key)} as "${label}": activation ${activation.id}.`)
    await this.writeCreated('license-key-activations', activation, flags)
  }
}
