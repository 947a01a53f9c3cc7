import {Args, Flags} from '@oclif/core'

import {validatePortalLicenseKey} from '../../../client/resources/portal.js'
import {bulkFlags, outputFlags} from '../../../areas/command.js'
import {parsePairs} from '../../../cli/input/fields.js'
import {keyCheck, maskKey} from '../../../areas/customers/license-keys.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalLicenseKeysValidate extends PortalCommand {
  static override summary = 'Check that a license key is valid, as an installed app does: no token, paced to 3 requests per second.'
  static override description =
    `Uses the portal's unauthenticated route (the one shipped software calls), which allows 3 requests per second; till paces to that across processes of one profile. It needs the organization id: --organization-id, else the customer's organization (TILL_CUSTOMER_TOKEN, --as-customer), else the organization token's. Exits 0 with the key when it is valid; otherwise prints "license key is not valid: <reason>" and exits 3.
Give - as KEY to validate keys read from stdin, one per line.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --organization-id 1dbfc517-0bbf-4301-9ba8-555ca42b9737',
    {
      description: 'With an activation and its conditions',
      command:
        '<%= config.bin %> <%= command.id %> "$KEY" --organization-id "$ORG" --activation "$ACTIVATION_ID" --condition machine=ab12cd --json > /dev/null && echo licensed',
    },
    {
      description: 'Many keys, paced',
      command: 'cut -f1 keys.tsv | <%= config.bin %> <%= command.id %> - --organization-id 1dbfc517-0bbf-4301-9ba8-555ca42b9737 -o jsonl',
    },
  ]

  static override args = {key: Args.string({description: 'The license key, or - to read keys from stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    ...bulkFlags,
    'organization-id': Flags.string({description: 'The organization the key belongs to (else looked up, see above).'}),
    benefit: Flags.string({description: 'Valid only if the key belongs to this benefit id.'}),
    customer: Flags.string({description: 'Valid only if the key belongs to this customer id.'}),
    activation: Flags.string({description: 'Valid only with this activation id of the key.'}),
    condition: Flags.string({description: "The activation's conditions, key=value (repeatable; must match those given at activation).", multiple: true}),
    'increment-usage': Flags.integer({description: "Add this much to the key's usage.", min: 1}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalLicenseKeysValidate)
    const conditions = parsePairs(flags.condition, '--condition')
    const organization = await this.keyCheckOrganization(flags)
    const client = await this.ctx.anonymousClient()
    const body = {
      organization_id: organization,
      benefit_id: flags.benefit,
      customer_id: flags.customer,
      activation_id: flags.activation,
      increment_usage: flags['increment-usage'],
      conditions,
    }
    await this.eachId(
      args.key,
      flags,
      (key) => keyCheck(() => validatePortalLicenseKey(client, {key, ...body})),
      async (validated) => {
        this.ctx.note(
          `valid: ${args.key === '-' ? String(validated.display_key) : maskKey(args.key)} (${String(validated.status)}), ${String(validated.validations)} validations, usage ${String(validated.usage)}${validated.limit_usage ? ` of ${String(validated.limit_usage)}` : ''}`,
        )
        await this.writeOne('license-keys', validated, flags)
      },
    )
  }
}
