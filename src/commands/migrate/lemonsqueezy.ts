import {Flags} from '@oclif/core'

import {MigrateCommand, migrateFlags, type SourceSpec} from '../../areas/migrate/command.js'
import {lemonSqueezySource} from '../../areas/migrate/lemonsqueezy.js'

const LEMONSQUEEZY: Omit<SourceSpec, 'make'> = {
  label: 'Lemon Squeezy',
  keyEnv: 'LEMONSQUEEZY_API_KEY',
  keyKind: 'an API key of the store owner (Settings > API); till only reads with it',
}

export default class MigrateLemonSqueezy extends MigrateCommand {
  static override summary = 'Convert a Lemon Squeezy store into a catalog file, a customers file and a precheck report, touching nothing.'
  static override description =
    "Reads Lemon Squeezy with an API key ($LEMONSQUEEZY_API_KEY, --api-key-file, or a hidden prompt on a terminal; only GET requests are sent) and the target profile's catalog (read-only, to map onto products it has), and writes into --out: catalog.yaml (a product per variant sold, its price, license-key benefits, discounts, each with migrated_from in its metadata), customers.jsonl (for till customers import) and precheck.json (what converts as is, with a change, or not at all, and what only the service's own migration can move). Nothing is written to Polar: review the files, then run till catalog plan, till catalog apply and till customers import. See docs/migrate.md."
  static override examples = [
    {description: 'Convert, then preview and apply', command: 'LEMONSQUEEZY_API_KEY=... <%= config.bin %> <%= command.id %> --out lemon-move'},
    {description: 'Only one of the stores the key sees', command: '<%= config.bin %> <%= command.id %> --out lemon-move --store 12345'},
  ]

  static override flags = {
    ...migrateFlags(LEMONSQUEEZY),
    store: Flags.string({description: 'Read only this store (its id): the key sees every store of its user.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MigrateLemonSqueezy)
    const make: SourceSpec['make'] = ({key, keyName, base, debug, deadlineMs}) =>
      lemonSqueezySource({
        key,
        keyName,
        apiBase: base,
        store: flags.store,
        debug,
        deadlineMs,
      })
    await this.migrate({...LEMONSQUEEZY, make}, flags)
  }
}
