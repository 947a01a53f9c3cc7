import {Flags} from '@oclif/core'

import {MigrateCommand, migrateFlags, type SourceSpec} from '../../areas/migrate/command.js'
import {paddleSource} from '../../areas/migrate/paddle.js'

const PADDLE: Omit<SourceSpec, 'make'> = {
  label: 'Paddle',
  keyEnv: 'PADDLE_API_KEY',
  keyKind: 'a Paddle Billing API key with read permission on products, prices, discounts, customers, addresses, businesses and subscriptions',
}

export default class MigratePaddle extends MigrateCommand {
  static override summary = 'Convert a Paddle Billing account into a catalog file, a customers file and a precheck report, touching nothing.'
  static override description =
    "Reads Paddle Billing with an API key ($PADDLE_API_KEY, --api-key-file, or a hidden prompt on a terminal; a sandbox key reads the sandbox; only GET requests are sent) and the target profile's catalog (read-only, to map onto products it has), and writes into --out: catalog.yaml (products, prices, discounts, each with migrated_from in its metadata), customers.jsonl (with each customer's address, for till customers import) and precheck.json (what converts as is, with a change, or not at all, and what only the service's own migration can move). Paddle lists addresses per customer: within its 240 requests a minute, about 4 minutes per 1,000 customers (--no-addresses skips them). Nothing is written to Polar: review the files, then run till catalog plan, till catalog apply and till customers import. See docs/migrate.md."
  static override examples = [
    {description: 'Convert, then preview and apply', command: 'PADDLE_API_KEY=pdl_live_apikey_... <%= config.bin %> <%= command.id %> --out paddle-move'},
    {description: 'With the tax ids of business customers', command: '<%= config.bin %> <%= command.id %> --out paddle-move --tax-ids'},
  ]

  static override flags = {
    ...migrateFlags(PADDLE),
    addresses: Flags.boolean({
      description: "Read each customer's address for its billing address (one request per customer).",
      default: true,
      allowNo: true,
    }),
    'tax-ids': Flags.boolean({description: "Read each customer's businesses for a tax id (one more request per customer)."}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MigratePaddle)
    const make: SourceSpec['make'] = ({key, keyName, base, debug, deadlineMs}) =>
      paddleSource({
        key,
        keyName,
        apiBase: base,
        addresses: flags.addresses,
        businesses: flags['tax-ids'],
        debug,
        deadlineMs,
      })
    await this.migrate({...PADDLE, make}, flags)
  }
}
