// Every shell example of README.md and docs/*.md, run as written against an emulator:
// placeholders (ORDER_ID, PRODUCT_ID...) are filled from its seed, single till commands run in this
// process, pipelines and redirections through sh with `till` on the PATH, all in one scratch folder (so
// that a file one example writes is there for the next). Each must exit 0, or the code its text names.
// What the text assumes the reader has is made first: the profiles sandbox and production (as `till auth
// login` makes them), the files it names (usage.jsonl, customers.jsonl, handbook.pdf) and a webhook endpoint that has had
// a delivery. An example that needs what the test cannot give (a program of your own, a terminal, a
// browser, a process that runs until stopped) is skipped, with its reason in SKIPPED below.
import {chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {KEY, runAnswering, runShell, sandbox, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, ROOT, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {tool} from '../helpers/tools.js'
import {scaled, waitUntil} from '../helpers/machine.js'

interface Example {
  /** `README.md:34`. */
  where: string
  /** The line as written. */
  text: string
  /** The command, without its trailing comment. */
  command: string
}

/** The shell lines of the fenced sh/bash blocks of one Markdown file. */
function shellExamples(file: string, markdown: string): Example[] {
  const found: Example[] = []
  const lines = markdown.split('\n')
  let fence: string | undefined
  lines.forEach((line, i) => {
    const open = /^```(\w*)\s*$/.exec(line)
    if (open) {
      fence = fence === undefined ? open[1]! : undefined
      return
    }
    if (!fence || !['sh', 'bash', 'shell', 'console'].includes(fence)) return
    const command = withoutComment(line).trim()
    if (command) found.push({where: `${file}:${i + 1}`, text: line, command})
  })
  return found
}

/** A line without its `# comment` (a # at a word's start, outside quotes). */
function withoutComment(line: string): string {
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = undefined
    } else if (c === "'" || c === '"') quote = c
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i)
  }
  return line
}

/** Shell words of a plain command line (quotes removed), or undefined when it needs a shell. */
function plainWords(command: string): string[] | undefined {
  if (/[|&;<>`$()\\*?~]/.test(command.replace(/'[^']*'|"[^"$`\\]*"/g, ''))) return undefined
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)
}

/** Examples the test cannot run as they are, and why. */
const SKIPPED: Array<[RegExp, string]> = [
  // --demo reads till's built-in example account on 127.0.0.1: it runs, and writes the files the lines after it use
  [/^([A-Z_]+=\S+ )?till migrate (?!.*--demo\b)/, 'reads a Stripe, Lemon Squeezy or Paddle account: test/commands/migrate-*.test.ts run it against fake ones'],
  [/ move\/(catalog\.yaml|customers\.jsonl)\b/, 'the files a migration wrote (the migrate tests apply and import them)'],
  [/^npm (ci|test)\b/, 'installs and builds till, or runs the whole test suite'],
  [
    /^npm pack && npm install -g \.\/till-cli-[\d.]+\.tgz\b/,
    'installs the package: npm run check-install (run by .ci/run) installs its tarball the same way and runs till',
  ],
  [/^npm link$/, 'links the clone into the global prefix: npm run check-install installs the package the same way'],
  [/^till emulator start\b/, 'starts an emulator that runs until stopped (this test runs its own)'],
  [/^till auth login --environment sandbox$/, "signs in to the service's sandbox: needs its network and an account (the emulator form below it runs offline)"],
  [
    /^till auth login\b.*--url http:\/\/127\.0\.0\.1:4011\/v1/,
    'the token is typed at a hidden prompt: run on a terminal by "README tasks 6 and 7 run offline on a fresh install"',
  ],
  [/^till auth login\b/, 'needs a terminal: the token is typed at a hidden prompt'],
  [/^till listen(?!.*--print-secret)/, 'runs until Ctrl-C, waiting for events'],
  [/^till trigger (?!.*(--json|--list))/, 'sends to the till listen of another terminal (test/commands/trigger.test.ts runs one)'],
  [/--follow\b/, 'runs until Ctrl-C, waiting for new events'],
  [/--open\b/, 'opens a browser'],
  [/^my-exporter\b/, 'reads from a program of your own (my-exporter)'],
  [/> ~\/\.config\/fish\//, 'writes into your fish configuration (~/.config/fish must exist)'],
  [/^till catalog apply catalog\.yaml -p production$/, 'confirmed on a terminal (the text: --yes otherwise)'],
  [/^till refunds create --order ORDER_ID --amount 12\.00$/, 'asks before refunding, on a terminal'],
  [/^till disputes accept DISPUTE_ID$/, 'asks before conceding the money, on a terminal (the text: or --yes)'],
  [/^till subscriptions update SUBSCRIPTION_ID --discount DISCOUNT_ID$/, 'asks before changing the subscription, on a terminal (the text: or --yes)'],
  [/--resume < ids\.txt/, 'resumes the job of the line above once it was killed half-way'],
  [/^till webhooks endpoints reset-secret ENDPOINT_ID$/, 'asks before replacing the secret, on a terminal (the text: or --yes)'],
  [/^till portal payment-methods confirm SETUP_INTENT_ID\b/, 'needs the setup intent id that add prints for a card that needs 3-D Secure'],
  [/^till portal email verify - < token\.txt$/, 'reads the token of the verification e-mail, which the reader receives'],
  [
    /^till portal (payment-methods delete|orders retry-payment|subscriptions cancel|benefit-grants update|license-keys rotate) [A-Z_]+_ID\b/,
    "asks first, on a terminal (the text: or --yes); the ids are another customer's in the seed",
  ],
  [/^till orders finalize DRAFT_ORDER_ID$/, 'asks before charging the card, on a terminal (the text: or --yes)'],
  [/^till license-keys rotate KEY_ID$/, 'asks before the old key stops working, on a terminal (the text: or --yes)'],
  [/^till products delete PRODUCT_ID$/, 'asks before deleting, on a terminal (the text: or --yes)'],
  [/^till emulator reset$/, 'asks before wiping the data folder, on a terminal (the text: or --yes)'],
]

/** Exit codes other than 0 that the text gives for an example. */
const EXPECTED: Array<[RegExp, number[], string]> = [
  [/^till catalog plan catalog\.yaml -p production$/, [0, 10], 'the text: exit 0 nothing to do, 10 changes pending'],
  [/^till catalog plan demo-move\/catalog\.yaml$/, [10], 'the text: exit 10, changes pending (the demo catalog is not in the emulator yet)'],
  [/^till emulator clock reset$/, [0, 1], 'the text: refused (exit 1) once the clock settled past the wall clock'],
]

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const EXAMPLES = DOCS.flatMap((file) => shellExamples(file, readFileSync(join(ROOT, file), 'utf8')))

const jq = tool('jq', ['jq'], 'install it (e.g. apt-get install jq) to run the README examples that use it')

let emulator: Emulator
let box: Sandbox
let work: string

/** Placeholders of the examples and where the seed has one. */
function placeholders(env: EnvHandle): Record<string, () => Promise<string>> {
  const first = async (path: string, match: (item: Json) => boolean = () => true): Promise<string> => {
    for (let page = 1; ; page++) {
      const res = await api(env, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`)
      expect(res.status, `GET ${path}: ${res.text}`).toBe(200)
      const item = (res.body.items as Json[]).find(match)
      if (item) return String(item.id)
      if (page >= res.body.pagination.max_page) throw new Error(`the seed has no item of ${path} for this example`)
    }
  }
  const fixed = (p: Json) => !p.is_archived && !p.is_recurring && p.prices.some((x: Json) => x.amount_type === 'fixed' && !x.is_archived)
  return {
    ORDER_ID: () => first('/orders/?status=paid', (o) => o.refundable_amount > 0),
    PRODUCT_ID: () => first('/products/?is_archived=false', fixed),
    FREE_PRODUCT_ID: () =>
      first(
        '/products/?is_archived=false&sorting=-created_at',
        (p) => p.is_recurring && p.prices.some((x: Json) => x.amount_type === 'free' || (x.amount_type === 'fixed' && x.price_amount === 0)),
      ),
    DISCOUNT_ID: () => first('/discounts/', (d) => (d.products ?? []).length === 0),
    LINK_ID: () => first('/checkout-links/'),
    SUBSCRIPTION_ID: () => first('/subscriptions/?active=true'),
    SEAT_SUBSCRIPTION_ID: () => first('/subscriptions/?active=true', (s) => s.seats !== null),
    // a pending seat of the seeded seat-based subscription (one an example before has assigned), else a held one
    SEAT_ID: async () => {
      const seats = (await api(env, 'GET', `/customer-seats?subscription_id=${await first('/subscriptions/?active=true', (s) => s.seats !== null)}`)).body
        .seats as Json[]
      const seat = seats.find((s) => s.status === 'pending') ?? seats.find((s) => s.status === 'claimed')
      expect(seat, 'a seat of the seat-based subscription').toBeDefined()
      return String(seat!.id)
    },
    DISPUTE_ID: () => first('/disputes/'),
    FIELD_ID: () => first('/custom-fields/', (f) => f.slug === 'team-size'),
    FILE_ID: () => first('/files/'),
    EVENT_ID: async () => {
      const res = await api(env, 'GET', '/webhooks/deliveries?limit=1')
      expect(res.body.items.length, 'a webhook delivery in the seed').toBeGreaterThan(0)
      return String(res.body.items[0].webhook_event.id)
    },
    ENDPOINT_ID: () => first('/webhooks/endpoints'),
    KEY_ID: () => first('/license-keys/'),
    // a paid order of the customer usr_00001, whom the portal examples act as
    PORTAL_ORDER_ID: async () => {
      const customer = await api(env, 'GET', '/customers/external/usr_00001')
      expect(customer.status, customer.text).toBe(200)
      return first(`/orders/?customer_id=${customer.body.id}`, (o) => o.paid === true)
    },
    CUSTOMER_ID: () => first('/customers/'),
    METER_ID: () => first('/meters/'),
    // a user event's type: a system event's (member.created...) has no id
    TYPE_ID: () => first('/event-types/?source=user'),
    // a customer who paid (so has a saved card) and has a billing address (a draft order's tax needs it)
    PAYER_ID: async () => {
      for (let page = 1; ; page++) {
        const res = await api(env, 'GET', `/customers/?limit=100&page=${page}`)
        for (const c of res.body.items as Json[]) {
          if (c.billing_address && (await api(env, 'GET', `/customers/${c.id}/payment-methods`)).body.items.length > 0) return String(c.id)
        }
        if (page >= res.body.pagination.max_page) throw new Error('the seed has no paying customer with a billing address')
      }
    },
    DRAFT_ORDER_ID: () => first('/orders/?status=draft'),
    DOWNLOADS_BENEFIT_ID: () => first('/benefits/', (b) => b.type === 'downloadables'),
    DASHBOARD_ID: async () => {
      const res = await api(env, 'GET', '/metrics/dashboards')
      expect(res.body.length, 'a metrics dashboard in the seed').toBeGreaterThan(0)
      return String(res.body[0].id)
    },
  }
}

async function filled(command: string): Promise<string> {
  const fill = placeholders(emulator.production)
  let out = command
  for (const name of [...new Set(command.match(/\b[A-Z][A-Z_]+_ID\b/g) ?? [])]) {
    const resolve = fill[name]
    expect(resolve, `a value for ${name}`).toBeDefined()
    out = out.replaceAll(name, await resolve!())
  }
  return out
}

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  work = join(box.root, 'work')
  mkdirSync(work)
  // `till` on the PATH, as installed
  mkdirSync(join(box.root, 'bin'))
  writeFileSync(join(box.root, 'bin', 'till'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'run.js'))} "$@"\n`)
  chmodSync(join(box.root, 'bin', 'till'), 0o755)
  mkdirSync(box.configDir, {recursive: true})
  writeConfig()
  // the files the examples name
  const events = [1, 2, 3].map((n) => JSON.stringify({name: 'api.call', external_customer_id: 'usr_00001', metadata: {tokens: 100 * n}}))
  writeFileSync(join(work, 'usage.jsonl'), `${events.join('\n')}\n`)
  const people = [1, 2].map((n) => JSON.stringify({email: `reader-${n}@example.com`, name: `Reader ${n}`, external_id: `reader_${n}`}))
  writeFileSync(join(work, 'customers.jsonl'), `${people.join('\n')}\n`)
  writeFileSync(join(work, 'handbook.pdf'), `%PDF-1.4\n% a handbook\n${'x'.repeat(4096)}\n%%EOF\n`)
  // a webhook endpoint that has had a delivery (to a port nothing listens on: it failed)
  const endpoint = await api(emulator.production, 'POST', '/webhooks/endpoints', {
    body: {url: 'http://127.0.0.1:9/webhooks', format: 'raw', events: ['customer.created']},
  })
  expect(endpoint.status, endpoint.text).toBe(201)
  const customer = await api(emulator.production, 'POST', '/customers/', {body: {email: `hooked-${Date.now()}@example.com`}})
  expect(customer.status, customer.text).toBe(201)
  await waitUntil(async () => (await api(emulator.production, 'GET', '/webhooks/deliveries?limit=1')).body.items.length > 0, 10_000, 100)
}, scaled(60_000))

/** The profiles a reader has by then; every example starts with `local` active (`till profiles use sandbox` changes it). */
function writeConfig(): void {
  const {production, sandbox: sbx} = emulator
  // local (the emulator), and sandbox and production as `till auth login --environment ...` makes them.
  // The test's emulator limits no rate, so local and production (on it too) say so: after the clock examples
  // the seed has ~370 paid orders, and at the service's 500 requests a minute `orders invoice generate -`
  // (a read and a write per order) would pace itself past the example's minute.
  const budget = {rate_limit: '10000/60s'}
  const config = {
    active: 'local',
    profiles: {
      local: {environment: 'local', base_url: production.url, token: production.token, ...budget},
      sandbox: {environment: 'sandbox', base_url: sbx.url, token: sbx.token, organization_id: sbx.organizationId},
      production: {environment: 'production', base_url: production.url, token: production.token, organization_id: production.organizationId, ...budget},
    },
  }
  writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(config), {mode: 0o600})
}

afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

const env = () => box.env({PATH: `${join(box.root, 'bin')}:${process.env.PATH}`})

async function run(command: string): Promise<CliResult> {
  writeConfig()
  const words = plainWords(command)
  if (words?.[0] === 'till') return runInProcess(words.slice(1), {env: env(), cwd: work, timeoutMs: scaled(60_000)})
  return runShell(`cd ${JSON.stringify(work)} && ${command}`, {env: env(), timeoutMs: scaled(60_000)})
}

describe('the shell examples of README.md and docs/*.md', () => {
  it('finds them', () => {
    expect(EXAMPLES.length).toBeGreaterThan(80)
    expect(EXAMPLES.map((e) => e.command)).toContain('till profiles list')
  })

  const seen = new Map<string, string>()
  for (const example of EXAMPLES) {
    const skipped = SKIPPED.find(([pattern]) => pattern.test(example.command))
    const same = seen.get(example.command)
    seen.set(example.command, seen.get(example.command) ?? example.where)
    const title = `${example.where}: ${example.command}`
    if (skipped) {
      it.skip(`${title} (skipped: ${skipped[1]})`, () => {})
      continue
    }
    if (same) {
      it.skip(`${title} (run once, at ${same})`, () => {})
      continue
    }
    const needsJq = /\bjq\b/.test(example.command)
    it.skipIf(needsJq && jq.missing)(
      `${title}${needsJq ? jq.skipped : ''}`,
      async () => {
        const expected = EXPECTED.find(([pattern]) => pattern.test(example.command))
        const r = await run(await filled(example.command))
        expect(expected?.[1] ?? [0], `exit ${r.code}\n--- stdout ---\n${r.stdout.slice(0, 2000)}\n--- stderr ---\n${r.stderr.slice(0, 2000)}`).toContain(r.code)
      },
      60_000,
    )
  }
})

describe('README tasks 6 and 7 run offline on a fresh install', () => {
  const tasks = EXAMPLES.filter((e) => e.where.startsWith('README.md:'))
  const login = tasks.find((e) => /^till auth login --environment sandbox --url http:\/\/127\.0\.0\.1:4011\/v1\b/.test(e.command))
  const list = tasks.find((e) => e.command === 'till -p sandbox subscriptions list --active')

  it(
    "signs in to the emulator's sandbox with the token it printed (on a terminal), then lists its subscriptions",
    async () => {
      expect(login, 'the emulator form of task 6 in the README').toBeDefined()
      expect(list, 'task 7 in the README').toBeDefined()
      const fresh = sandbox() // no config at all: the profile local alone
      try {
        // the test's emulator serves sandbox on a port of its own instead of 4011
        const line = login!.command.replace('http://127.0.0.1:4011/v1', emulator.sandbox.url).replace(/^till /, `${TILL} `)
        const signIn = await runAnswering(line, fresh.env(), [{when: /Organization access token \(sandbox\)/, send: `${emulator.sandbox.token}${KEY.enter}`}])
        expect(signIn.code, signIn.stdout).toBe(0)
        // a fresh install's active profile is local, which the sign-in replaces (and says how to go back)
        expect(signIn.stdout).toMatch(
          /Signed in to sandbox as organization .*Profile "sandbox" is now the active one, in place of "local" \(go back with: till profiles use local\)\./s,
        )
        // with no keyring here (no D-Bus session), the token goes to the config file, said once; never shown
        expect(signIn.stdout).toMatch(/The OS keyring could not be used: .*the token of profile "sandbox" is kept in .*config\.json \(mode 0600\)\./)
        expect(signIn.stdout).not.toContain(emulator.sandbox.token)
        const r = await runInProcess(plainWords(list!.command)!.slice(1), {env: fresh.env()})
        expect(r.code, r.stderr).toBe(0)
        const subscriptions = await api(emulator.sandbox, 'GET', '/subscriptions/?active=true&limit=1')
        if (subscriptions.body.items.length > 0) expect(r.stdout).toContain(subscriptions.body.items[0].id)
      } finally {
        fresh.cleanup()
      }
    },
    scaled(60_000),
  )
})

describe('reading the examples', () => {
  it('takes the lines of sh blocks only, without their comments', () => {
    const md = ['text', '```sh', 'till a --x "b # c"   # note', '', '# a comment line', '```', '```ts', 'till no', '```'].join('\n')
    expect(shellExamples('x.md', md)).toEqual([{where: 'x.md:3', text: 'till a --x "b # c"   # note', command: 'till a --x "b # c"'}])
  })

  it('runs single commands in this process and the rest through sh', () => {
    expect(plainWords('till discounts create --name "Launch" --percent 25')).toEqual(['till', 'discounts', 'create', '--name', 'Launch', '--percent', '25'])
    expect(plainWords('till benefits create --properties \'{"files": ["x"]}\'')).toEqual(['till', 'benefits', 'create', '--properties', '{"files": ["x"]}'])
    expect(plainWords('till orders list | jq -r .id')).toBeUndefined()
    expect(plainWords('id=$(till customers create)')).toBeUndefined()
    expect(plainWords('till metrics -o csv > orders.csv')).toBeUndefined()
  })
})
