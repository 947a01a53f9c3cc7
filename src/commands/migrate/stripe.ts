import {Flags} from '@oclif/core'

import {MigrateCommand, migrateFlags, type SourceSpec} from '../../areas/migrate/command.js'
import {DEMO_KEY, DEMO_SOURCE, startStripeDemo} from '../../areas/migrate/demo.js'
import {stripeSource} from '../../areas/migrate/stripe.js'

const STRIPE: SourceSpec = {
  label: 'Stripe',
  keyEnv: 'STRIPE_API_KEY',
  keyKind: 'a restricted key with read access to products, prices, coupons, promotion codes, customers, subscriptions and billing meters',
  make: ({key, keyName, base, debug, deadlineMs}) => stripeSource({key, keyName, base, debug, deadlineMs}),
}

export default class MigrateStripe extends MigrateCommand {
  static override summary = 'Convert a Stripe account into a catalog file, a customers file and a precheck report, touching nothing.'
  static override description =
    "Reads Stripe with a read-only key ($STRIPE_API_KEY, --api-key-file, or a hidden prompt on a terminal) and the target profile's catalog (read-only, to map onto products it has), and writes into --out: catalog.yaml (products, prices, meters, discounts, each with migrated_from in its metadata), customers.jsonl (for till customers import) and precheck.json (what converts as is, with a change, or not at all, and what only the service's own migration can move). Nothing is written to Polar: review the files, then run till catalog plan, till catalog apply and till customers import. Running it again after a change at the source gives files that update exactly what changed. See docs/migrate.md."
  static override examples = [
    {description: 'Convert, then preview and apply', command: 'STRIPE_API_KEY=rk_live_... <%= config.bin %> <%= command.id %> --out stripe-move'},
    {
      description: "Try it offline on till's example Stripe account (and the local emulator)",
      command: '<%= config.bin %> <%= command.id %> --demo --out demo-move',
    },
    {
      description: 'Say which Polar product a clashing Stripe product is',
      command: '<%= config.bin %> <%= command.id %> --out stripe-move --map prod_Nx1=9b4e6f0c-...',
    },
  ]

  static override flags = {
    ...migrateFlags(STRIPE),
    demo: Flags.boolean({
      description:
        "Read till's built-in example Stripe account instead of yours, served on 127.0.0.1: no key, no network. Its objects are migrated from stripe-demo, and the report says it is demo data.",
      exclusive: ['api-key-file', 'api-base'],
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(MigrateStripe)
    if (!flags.demo) return this.migrate(STRIPE, flags)
    const demo = await startStripeDemo()
    try {
      const spec: SourceSpec = {
        ...STRIPE,
        make: ({key, keyName, debug, deadlineMs}) => stripeSource({key, keyName, base: demo.url, debug, deadlineMs, name: DEMO_SOURCE}),
      }
      await this.migrate(spec, flags, DEMO_KEY)
    } finally {
      await demo.close()
    }
  }
}
