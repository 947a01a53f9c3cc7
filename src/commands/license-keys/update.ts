import {Args, Flags} from '@oclif/core'

import {LICENSE_KEY_STATUSES, updateLicenseKey, type LicenseKeyUpdate} from '../../client/resources/license-keys.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {timeFlag} from '../../areas/sales/input.js'
import {nowFor} from '../../cli/input/when.js'
import {usageError} from '../../client/till-error.js'

export default class LicenseKeysUpdate extends BaseCommand {
  static override summary = "Change a license key's status, usage, limits or expiry."
  static override description =
    '--status disabled stops the key from validating (granted turns it back on). --no-limit-activations, --no-limit-usage and --no-expiry remove a limit. Give - as ID to apply the same change to every key id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    {description: 'Disable a key', command: '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --status disabled'},
    {
      description: 'Allow 5 machines and reset the usage counter',
      command: '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --limit-activations 5 --usage 0',
    },
    '<%= config.bin %> <%= command.id %> 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d --expires-at 2027-12-31T23:59:59Z',
  ]

  static override args = {
    id: Args.string({description: 'License key id (not the key itself), or - to read ids from stdin.', required: true, ignoreStdin: true}),
  }
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    status: Flags.option({options: LICENSE_KEY_STATUSES, description: 'New status.'})(),
    usage: Flags.integer({description: 'Set the usage counter.', min: 0}),
    'limit-activations': Flags.integer({description: 'Most activations at once (1-50).', min: 1, max: 50}),
    'no-limit-activations': Flags.boolean({description: 'No activation limit.', exclusive: ['limit-activations']}),
    'limit-usage': Flags.integer({description: 'Most uses in all.', min: 1}),
    'no-limit-usage': Flags.boolean({description: 'No usage limit.', exclusive: ['limit-usage']}),
    'expires-at': Flags.string({description: 'Expiry time (ISO 8601).'}),
    'no-expiry': Flags.boolean({description: 'Never expires.', exclusive: ['expires-at']}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(LicenseKeysUpdate)
    const now = await nowFor(this.ctx.clock.now, {'--expires-at': flags['expires-at']})
    const pick = <T>(value: T | undefined, none: boolean | undefined): T | null | undefined => (none ? null : value)
    const body: LicenseKeyUpdate = Object.fromEntries(
      Object.entries({
        status: flags.status,
        usage: flags.usage,
        limit_activations: pick(flags['limit-activations'], flags['no-limit-activations']),
        limit_usage: pick(flags['limit-usage'], flags['no-limit-usage']),
        expires_at: pick(flags['expires-at'] ? timeFlag(flags['expires-at'], '--expires-at', false, now) : undefined, flags['no-expiry']),
      }).filter(([, v]) => v !== undefined),
    )
    if (Object.keys(body).length === 0)
      throw usageError('nothing to update', 'pass --status, --usage, --limit-activations, --limit-usage, --expires-at or one of the --no-... flags')
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => updateLicenseKey(client, id, body),
      (key) => this.writeChanged('license-keys', key, flags),
    )
  }
}
