import {Args, Flags} from '@oclif/core'

import {validateLicenseKey} from '../../client/resources/license-keys.js'
import {BaseCommand, bulkFlags, outputFlags} from '../../areas/command.js'
import {parsePairs} from '../../cli/input/fields.js'
import {keyCheck, keyOrganization, maskKey} from '../../areas/customers/license-keys.js'

export default class LicenseKeysValidate extends BaseCommand {
  static override summary = 'Check that a license key is valid (optionally for a benefit, customer or activation).'
  static override description =
    `Counts as a validation on the key (and adds --increment-usage to its usage). Exits 0 with the key when it is valid. When it is not (revoked, disabled, expired, another benefit or customer, unknown key, or not enough usage left) it prints "license key is not valid: <reason>" and exits 3, the code for "not found" since the API answers 404.
Give - as KEY to validate keys read from stdin, one per line.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ',
    {
      description: 'For a given customer and benefit, counting one use',
      command:
        '<%= config.bin %> <%= command.id %> TILL-7K2M-9QXP-3HWD-A4TZ --customer 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --benefit 0c8d6a3e-8f1b-4c2a-9e7d-5b4a3c2d1e0f --increment-usage 1',
    },
    {description: 'In a script', command: '<%= config.bin %> <%= command.id %> "$KEY" --activation "$ACTIVATION_ID" --json > /dev/null && echo licensed'},
  ]

  static override args = {key: Args.string({description: 'The license key, or - to read keys from stdin.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    ...bulkFlags,
    benefit: Flags.string({description: 'Valid only if the key belongs to this benefit id.'}),
    customer: Flags.string({description: 'Valid only if the key belongs to this customer id.'}),
    activation: Flags.string({description: 'Valid only with this activation id of the key.'}),
    condition: Flags.string({description: "The activation's conditions, key=value (repeatable; must match those given at activation).", multiple: true}),
    'increment-usage': Flags.integer({description: "Add this much to the key's usage.", min: 1}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysValidate)
    const conditions = parsePairs(flags.condition, '--condition')
    const client = await this.ctx.client()
    const organization = await keyOrganization(client, this.ctx.profile)
    await this.eachId(
      args.key,
      flags,
      (key) =>
        keyCheck(() =>
          validateLicenseKey(client, {
            key,
            organization_id: organization,
            benefit_id: flags.benefit,
            customer_id: flags.customer,
            activation_id: flags.activation,
            increment_usage: flags['increment-usage'],
            conditions,
          }),
        ),
      async (validated) => {
        const usage = `${String(validated.usage)}${validated.limit_usage ? ` of ${String(validated.limit_usage)}` : ''}`
        this.ctx.note(
          `valid: ${args.key === '-' ? String(validated.display_key) : maskKey(args.key)} (${String(validated.status)}; usage ${usage}; validations ${String(validated.validations)})`,
        )
        await this.writeOne('license-keys', validated, flags)
      },
    )
  }
}
