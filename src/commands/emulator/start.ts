import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {usageError} from '../../client/till-error.js'
import {DEFAULT_URLS, LOCAL_PROFILE, readConfig} from '../../cli/config/profiles.js'

function fraction(value: string, flag: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new Error(`${flag} must be a number from 0 to 1, got "${value}"`)
  return n
}
import {dataFlag, duration, emulatorDataDir} from '../../cli/emulator-flags.js'
import {printable} from '../../client/ids.js'
import {API_VERSION, API_VERSIONS, isKnownApiVersion} from '../../client/version.js'

/** `--api-versions`: versions the service knows, the default one among them. */
function versionsFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const versions = value.split(',').map((v) => v.trim())
  const unknown = versions.find((v) => !isKnownApiVersion(v))
  const known = API_VERSIONS.join(', ')
  if (unknown !== undefined) throw usageError(`--api-versions: "${printable(unknown)}" is not a version the service knows, ${known}`)
  if (!versions.includes(API_VERSION)) throw usageError(`--api-versions must include ${API_VERSION}, served when none is asked`)
  return versions
}

export default class EmulatorStart extends BaseCommand {
  static override summary = 'Run the local emulator of the API: production and sandbox on loopback.'

  static override description =
    `Serves production at http://127.0.0.1:PORT/v1 and sandbox at PORT+1, each with its own data, organization and token (a token of one environment gets 401 on the other). A new data folder is seeded with deterministic demo data; state is kept there across restarts. Request logs go to stderr. Stop with Ctrl-C (SIGINT) or SIGTERM.`

  static override examples = [
    {description: 'Start on the default ports 4010 (production) and 4011 (sandbox)', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'Pick free ports and print the addresses and tokens as one JSON line', command: '<%= config.bin %> <%= command.id %> --port 0 --json'},
    {
      description: 'A large store for benchmarks, in its own folder',
      command: '<%= config.bin %> <%= command.id %> --data /tmp/till-bench --orders 100000 --customers 5000',
    },
    {
      description: "Check every request and answer against the service's published OpenAPI document",
      command: '<%= config.bin %> <%= command.id %> --contract contract/2026-10.openapi.json',
    },
    {
      description: 'Rehearse the removal of 2026-04: a request pinned to it answers 404, as the service will',
      command: '<%= config.bin %> <%= command.id %> --api-versions 2026-10,2027-01',
    },
  ]

  static override flags = {
    port: Flags.integer({description: 'Port of production; sandbox uses the next one. 0 picks free ports.', default: 4010, min: 0, max: 65534}),
    data: dataFlag,
    json: Flags.boolean({description: 'Print one JSON line with both environments (url, organization_id, organization_token) once listening.'}),
    quiet: Flags.boolean({char: 'q', description: 'Do not log requests to stderr.'}),
    detach: Flags.boolean({
      description:
        'Run in the background (its log in emulator.log of the data folder): print its URLs once it answers, and return. till emulator stop ends it.',
    }),
    'payment-delay': duration({
      description: 'How long a new order stays pending before it is paid (e.g. 2s, 500ms).',
      default: 2000,
      defaultHelp: async () => '2s',
    }),
    'invoice-delay': duration({description: 'How long after POST /invoice the invoice document exists.', default: 1000, defaultHelp: async () => '1s'}),
    'session-ttl': duration({description: 'Lifetime of customer session tokens.', default: 3_600_000, defaultHelp: async () => '1h'}),
    products: Flags.integer({description: 'Products to seed a new data folder with.', min: 1, default: 12}),
    customers: Flags.integer({description: 'Customers to seed a new data folder with.', min: 1, default: 25}),
    orders: Flags.integer({description: 'Orders to seed a new data folder with.', min: 0, default: 60}),
    'rate-limit': Flags.string({
      description: 'Replace the per-minute limit (500/min production, 100/min sandbox): N/WINDOW such as 20/2s or 500/60s, or off.',
      helpGroup: 'LIMITS AND FAULTS',
    }),
    'ip-rate-limit': Flags.string({description: 'Replace the per-IP limit (100/s): N/WINDOW, or off.', helpGroup: 'LIMITS AND FAULTS'}),
    latency: duration({description: 'Delay added to every response (e.g. 25ms).', default: 0, helpGroup: 'LIMITS AND FAULTS'}),
    'fail-rate': Flags.custom<number>({parse: async (v) => fraction(v, '--fail-rate')})({
      description: 'Fraction of requests answered 500, 502 or 503 before any state change (0-1).',
      default: 0,
      helpGroup: 'LIMITS AND FAULTS',
    }),
    'reset-rate': Flags.custom<number>({parse: async (v) => fraction(v, '--reset-rate')})({
      description: 'Fraction of connections dropped mid-response, after the state change (0-1).',
      default: 0,
      helpGroup: 'LIMITS AND FAULTS',
    }),
    'fault-seed': Flags.integer({
      description: 'Seed of the fault generator; the same seed repeats the same faults.',
      default: 1,
      helpGroup: 'LIMITS AND FAULTS',
    }),
    'forward-to': Flags.url({description: 'Also post every webhook event, signed, to this URL (the secret is printed).', helpGroup: 'EVENTS'}),
    'allow-remote-webhooks': Flags.boolean({
      description:
        'Deliver webhook events to endpoints on other hosts too; by default only loopback URLs (127.0.0.1, localhost) are sent to, and a delivery elsewhere is recorded as not sent.',
      helpGroup: 'EVENTS',
    }),
    contract: Flags.file({
      description:
        "Check every API request and answer against the service's OpenAPI document (a JSON file): a request it refuses is answered 422, and each departure is logged.",
      env: 'TILL_CONTRACT',
      exists: true,
      helpGroup: 'CONTRACT',
    }),
    'contract-log': Flags.string({
      description: 'Also append each contract violation as a JSON line to this file.',
      env: 'TILL_CONTRACT_LOG',
      dependsOn: ['contract'],
      helpGroup: 'CONTRACT',
    }),
    'api-versions': Flags.string({
      description: [
        `The API versions served (Polar-Version), comma-separated, ${API_VERSION} among them; by default every one`,
        `the service knows (${API_VERSIONS.join(', ')}). Another answers 404 on every route, as the service answers one it removed.`,
      ].join(' '),
      helpGroup: 'CONTRACT',
    }),
    'webhook-faults': Flags.string({
      description: [
        'Deliveries that misbehave on purpose, e.g. duplicate=0.2,reorder=0.1,delay=2s,fail-first=0.3,drop=0.05:',
        'fractions of events sent twice with the same webhook-id, sent after the next one, failed at first and',
        'retried, or never delivered; and a delay before each. One endpoint: POST /_emulator/webhooks/endpoints/ID/faults.',
      ].join(' '),
      helpGroup: 'EVENTS',
    }),
    'webhook-fault-seed': Flags.integer({
      description: 'Seed of the webhook faults; the same seed and the same events repeat the same faults.',
      default: 1,
      helpGroup: 'EVENTS',
    }),
    'webhook-backoff': duration({
      description: 'First webhook retry delay; later ones double (up to 10 attempts).',
      default: 2000,
      defaultHelp: async () => '2s',
      helpGroup: 'EVENTS',
    }),
  }

  protected override exitOnInterrupt = false

  /**
   * Whether the `local` profile already talks to this emulator: its URL is production's here, it keeps no
   * token of its own, and the data folder is the default one, whose token it reads. Then there is nothing
   * to paste.
   */
  private localProfileUses(url: string, dataDir: string, dataFlag: string | undefined): boolean {
    try {
      const local = readConfig(this.ctx.configDir).profiles[LOCAL_PROFILE]
      if (local?.environment !== 'local' || local.token || local.oauth) return false
      return (local.base_url ?? DEFAULT_URLS.local).replace(/\/+$/, '') === url && (dataFlag === undefined || dataDir === this.ctx.emulatorDataDir)
    } catch {
      return false
    }
  }

  private async detached(dataDir: string, json: boolean, dataArgs: string[]): Promise<void> {
    const {startDetached} = await import('../../areas/emulator/detach.js')
    const {running, log} = await startDetached([...this.argv, ...dataArgs], dataDir, process.argv[1]!)
    if (json) return void process.stdout.write(`${JSON.stringify(running)}\n`)
    const urls = Object.entries(running.environments).map(([name, env]) => `  ${name.padEnd(10)} ${env.url}`)
    process.stdout.write(`${[`till emulator is running in the background (pid ${running.pid}, data: ${dataDir})`, ...urls].join('\n')}\n`)
    process.stderr.write(
      `Its log: ${log}. Stop it with: till emulator stop${dataDir === emulatorDataDir(undefined, this.config.dataDir) ? '' : ` --data ${dataDir}`}\n`,
    )
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(EmulatorStart)
    const dataDir = emulatorDataDir(flags.data, this.config.dataDir)
    if (flags.detach) return this.detached(dataDir, flags.json, flags.data === undefined ? ['--data', dataDir] : [])
    const {startEmulator, parseRateLimit, parseWebhookFaults} = await import('../../emulator/index.js')
    const limitFlag = (name: 'rate-limit' | 'ip-rate-limit') => {
      try {
        return flags[name] === undefined ? undefined : parseRateLimit(flags[name])
      } catch (error) {
        throw usageError(`--${name}: ${(error as Error).message}`)
      }
    }
    const log = (line: string) => process.stderr.write(`${line}\n`)
    let webhookFaults
    try {
      webhookFaults = flags['webhook-faults'] === undefined ? undefined : parseWebhookFaults(flags['webhook-faults'])
    } catch (error) {
      throw usageError(`--webhook-faults: ${(error as Error).message}`, 'e.g. --webhook-faults duplicate=0.2,delay=2s')
    }
    let emulator
    try {
      emulator = await startEmulator({
        port: flags.port,
        dataDir,
        paymentDelayMs: flags['payment-delay'],
        invoiceDelayMs: flags['invoice-delay'],
        sessionTtlMs: flags['session-ttl'],
        seed: {products: flags.products, customers: flags.customers, orders: flags.orders},
        log: flags.quiet ? () => {} : log,
        rateLimit: limitFlag('rate-limit'),
        ipRateLimit: limitFlag('ip-rate-limit'),
        latencyMs: flags.latency,
        failRate: flags['fail-rate'],
        resetRate: flags['reset-rate'],
        faultSeed: flags['fault-seed'],
        forwardTo: flags['forward-to']?.toString(),
        webhookBackoffMs: flags['webhook-backoff'],
        webhookFaults,
        webhookFaultSeed: flags['webhook-fault-seed'],
        allowRemoteWebhooks: flags['allow-remote-webhooks'],
        contract: flags.contract,
        contractLog: flags['contract-log'],
        apiVersions: versionsFlag(flags['api-versions']),
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        const {emulatorAnswersOn} = await import('../../areas/emulator/control.js')
        if ((await emulatorAnswersOn(flags.port)) || (await emulatorAnswersOn(flags.port + 1)))
          throw usageError(
            `an emulator is already running on port ${flags.port} (production) and ${flags.port + 1} (sandbox)`,
            `use it as it is (the local profile talks to it: till products list), stop it with till emulator stop (or Ctrl-C where it runs), or start another on other ports with --port N (--port 0: free ones)`,
          )
        throw usageError(`port ${flags.port} or ${flags.port + 1} is already in use`, 'pick other ports with --port N, or --port 0 for free ones')
      }
      throw error
    }
    const {environments, forwardSecret} = emulator
    // found by till emulator status and stop, from any shell
    const {writeRunning, removeRunning} = await import('../../areas/emulator/running.js')
    writeRunning(dataDir, environments)
    const forward = forwardSecret ? {forward_to: {url: flags['forward-to']!.toString(), secret: forwardSecret}} : {}
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({environments, ...forward})}\n`)
    } else {
      const lines = [
        `till emulator is running (data: ${dataDir})`,
        '',
        ...Object.entries(environments).flatMap(([name, env]) => [
          `  ${name.padEnd(10)} ${env.url}`,
          `  ${''.padEnd(10)} organization ${env.organization_id}`,
          `  ${''.padEnd(10)} token        ${env.organization_token}`,
        ]),
        ...(forwardSecret ? ['', `  forwarding every event to ${flags['forward-to']}`, `  verify with the secret  ${forwardSecret}`] : []),
        '',
        ...(this.localProfileUses(environments.production.url, dataDir, flags.data)
          ? ['The local profile uses it (its URL, and the token in this data folder): till products list, from any shell.']
          : [
              'To use it from another shell, paste (sandbox: use its url and token):',
              `  export TILL_API_URL=${environments.production.url} TILL_TOKEN=${environments.production.organization_token} TILL_ENV=local`,
              'or keep it as a profile:',
              `  echo ${environments.production.organization_token} | till profiles add emulator --environment local --url ${environments.production.url} --token-stdin`,
            ]),
        '',
        'Press Ctrl-C to stop.',
      ]
      process.stdout.write(`${lines.join('\n')}\n`)
    }
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        log(`received ${signal}, shutting down`)
        void emulator.close().then(() => {
          removeRunning(dataDir)
          resolve()
        })
      }
      process.once('SIGINT', () => stop('SIGINT'))
      process.once('SIGTERM', () => stop('SIGTERM'))
    })
  }
}
