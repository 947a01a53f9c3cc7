// `till migrate stripe` against a fake Stripe (test/helpers/fake-stripe.ts, fixtures typed with the
// `stripe` package) and the emulator as the target: the whole sequence (migrate, catalog apply, customers
// import) and a second run that changes nothing; a changed source that updates only what changed; a
// source answering 429 and 5xx; mapping onto products the target has; the key kept out of every output.
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {KEY as KEYS, linesOf, runAnswering, sh, TILL, type Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {api, listAll, type Emulator, type Json} from '../helpers/emulator.js'
import {generatedStripe, monthly, startFakeStripe, stripePrice, stripeProduct, type FakeStripe} from '../helpers/fake-stripe.js'
import {runInProcess} from '../helpers/in-process.js'
import {emptyTarget} from '../helpers/migration.js'
import {scaled} from '../helpers/machine.js'

const KEY = `rk_test_${'Zq9'.repeat(12)}`

describe('till migrate stripe', () => {
  let emulator: Emulator
  let box: Sandbox
  let stripe: FakeStripe

  // the client's own rate budget raised: the emulator runs without limits, and the default budget would pace the second import
  const till = (args: string[], extra: Record<string, string | undefined> = {}) =>
    runInProcess(args, {env: box.env({STRIPE_API_KEY: KEY, TILL_RATE_LIMIT: '100000/60s', ...extra})})
  const migrate = (out: string, ...extra: string[]) =>
    till(['migrate', 'stripe', '--out', join(box.root, out), '--api-base', stripe.url, '-p', 'prod', ...extra])
  /** The emulator's request log lines since `from` (a length of its stderr) that match `method`. */
  const logged = (from: number, method: RegExp) =>
    emulator
      .stderr()
      .slice(from)
      .split('\n')
      .filter((l) => method.test(l))

  beforeAll(async () => {
    // its request log on: a migration only reads the target
    ;({emulator, box} = await emptyTarget({quiet: false}))
    stripe = await startFakeStripe(generatedStripe(60, 150), KEY)
  })
  afterAll(async () => {
    await stripe?.stop()
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    'pages the source, and migrate + catalog apply + customers import create what the precheck counts; a second run changes nothing',
    async () => {
      const mark = emulator.stderr().length
      const first = await migrate('run1', '--json')
      expect(first.code, first.stderr).toBe(0)
      expect(logged(mark, /\] GET \/v1\/products\//)).not.toEqual([])
      expect(logged(mark, /\] (POST|PATCH|PUT|DELETE) /)).toEqual([])
      expect(first.stderr).not.toContain('so far')
      const report = JSON.parse(first.stdout)
      // every page read with starting_after
      expect(stripe.requests.filter((r) => r.startsWith('/v1/customers')).length).toBe(2)
      expect(stripe.requests.some((r) => r.includes('starting_after=cus_Gen000099'))).toBe(true)
      expect(report.counts.products).toEqual({read: 60, as_is: 60, changed: 0, not_moved: 0})
      expect(report.counts.customers).toEqual({read: 150, as_is: 150, changed: 0, not_moved: 0})
      expect(report.written).toEqual({meters: 0, benefits: 0, products: 60, discounts: 2, customers: 150})
      expect(report.cannot_move).toEqual([
        expect.objectContaining({what: 'active subscriptions', count: 1}),
        expect.objectContaining({what: 'saved payment methods', count: 15}),
      ])
      expect(readdirSync(join(box.root, 'run1')).sort()).toEqual(['catalog.yaml', 'customers.jsonl', 'precheck.json'])
      expect(JSON.parse(readFileSync(join(box.root, 'run1', 'precheck.json'), 'utf8'))).toEqual(report)

      const catalog = join(box.root, 'run1', 'catalog.yaml')
      const apply = await till(['catalog', 'apply', catalog, '-p', 'prod', '--yes'])
      expect(apply.code, apply.stderr).toBe(0)
      const customersFile = join(box.root, 'run1', 'customers.jsonl')
      const imported = await till(['customers', 'import', customersFile, '-p', 'prod'])
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stderr).toContain('150 customers: 150 created, 0 updated, 0 unchanged, 0 failed.')
      const customers = await listAll(emulator.production, '/customers/')
      expect(customers).toHaveLength(report.written.customers)
      expect(customers.find((c: Json) => c.external_id === 'cus_Gen000008')).toMatchObject({
        tax_id: ['FR12000000008', 'eu_vat'],
        billing_address: {country: 'FR'},
      })
      const products = await listAll(emulator.production, '/products/')
      expect(products).toHaveLength(report.written.products)
      expect(await listAll(emulator.production, '/discounts/')).toHaveLength(report.written.discounts)
      expect(products.find((p: Json) => p.metadata.migrated_from === 'stripe:prod_Gen00004')?.prices[0]).toMatchObject({
        amount_type: 'custom',
        minimum_amount: 500,
      })
      const spring = (await listAll(emulator.production, '/discounts/')).find((d: Json) => d.code === 'SPRING2026')
      expect(spring).toMatchObject({basis_points: 2000, duration: 'repeating', duration_in_months: 3})

      // the second run: the same files, nothing to do
      const second = await migrate('run2')
      expect(second.code, second.stderr).toBe(0)
      expect(readFileSync(join(box.root, 'run2', 'catalog.yaml'), 'utf8')).toBe(readFileSync(catalog, 'utf8'))
      const plan = await till(['catalog', 'plan', join(box.root, 'run2', 'catalog.yaml'), '-p', 'prod'])
      expect(plan.code, plan.stdout).toBe(0)
      const again = await till(['customers', 'import', join(box.root, 'run2', 'customers.jsonl'), '-p', 'prod'])
      expect(again.stderr).toContain('150 customers: 0 created, 0 updated, 150 unchanged, 0 failed.')
    },
    scaled(120_000),
  )

  it(
    'after a change at the source, updates exactly what changed',
    async () => {
      stripe.data.products[7]!.name = 'Renamed at Stripe'
      stripe.data.customers[3]!.name = 'Renamed customer'
      const r = await migrate('run3')
      expect(r.code, r.stderr).toBe(0)
      const plan = await till(['catalog', 'plan', join(box.root, 'run3', 'catalog.yaml'), '-p', 'prod', '--json'])
      expect(plan.code).toBe(10)
      const steps = JSON.parse(plan.stdout).steps.filter((s: Json) => s.action !== 'extra')
      expect(steps.map((s: Json) => [s.action, s.key, s.changes.map((c: Json) => c.field)])).toEqual([['update', 'prod_gen00007-dae6', ['name']]])
      const applied = await till(['catalog', 'apply', join(box.root, 'run3', 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(applied.code, applied.stderr).toBe(0)
      const imported = await till(['customers', 'import', join(box.root, 'run3', 'customers.jsonl'), '-p', 'prod'])
      expect(imported.stderr).toContain('150 customers: 0 created, 1 updated, 149 unchanged, 0 failed.')
    },
    scaled(60_000),
  )

  it(
    'waits out 429 (Retry-After) and retries 5xx, then finishes',
    async () => {
      const before = stripe.requests.length
      stripe.fail(1, 429)
      stripe.fail(2, 503)
      const r = await migrate('retried', '--no-target', '--debug')
      expect(r.code, r.stderr).toBe(0)
      // the client's one retry loop, traced by --debug
      expect(r.stderr).toMatch(
        /→ GET http:\/\/127\.0\.0\.1:\d+\/v1\/prices\?active=true&limit=100 \[Stripe\]\n.*429.*\n.*rate limited: waiting \d+ms \(Retry-After\)/,
      )
      expect(r.stderr).toMatch(/retrying in \d+ms \(HTTP 503\)/)
      expect(stripe.requests.slice(before, before + 4).every((q) => q.startsWith('/v1/prices'))).toBe(true)
      expect(JSON.parse(readFileSync(join(box.root, 'retried', 'precheck.json'), 'utf8')).written.products).toBe(60)
    },
    scaled(30_000),
  )

  it(
    'never shows the key: not in output, --debug, the files, or an error; a refused key is exit 4 and writes nothing',
    async () => {
      const r = await migrate('keyless', '--debug', '--no-target')
      expect(r.code, r.stderr).toBe(0)
      for (const text of [r.stdout, r.stderr, ...readdirSync(join(box.root, 'keyless')).map((f) => readFileSync(join(box.root, 'keyless', f), 'utf8'))])
        expect(text).not.toContain(KEY.slice(8))
      expect([...stripe.authorizations]).toContain(`Bearer ${KEY}`)
      allowRefusals()
      const wrong = `rk_test_${'X'.repeat(30)}`
      const refused = await till(['migrate', 'stripe', '--out', join(box.root, 'refused'), '--api-base', stripe.url, '--no-target', '--debug'], {
        STRIPE_API_KEY: wrong,
      })
      expect(refused.code).toBe(4)
      expect(refused.stderr).toContain('Stripe refused the API key (HTTP 401 to GET /v1/prices?active=true&limit=100)')
      expect(refused.stderr + refused.stdout).not.toContain('X'.repeat(30))
      expect(existsSync(join(box.root, 'refused', 'catalog.yaml'))).toBe(false)
      // from a file; and without one, no variable and no terminal: exit 2 naming both ways
      const file = join(box.root, 'key.txt')
      writeFileSync(file, `${KEY}\n`)
      const fromFile = await till(
        ['migrate', 'stripe', '--out', join(box.root, 'from-file'), '--api-base', stripe.url, '--no-target', '--api-key-file', file],
        {
          STRIPE_API_KEY: undefined,
        },
      )
      expect(fromFile.code, fromFile.stderr).toBe(0)
      const none = await till(['migrate', 'stripe', '--out', join(box.root, 'none'), '--api-base', stripe.url, '--no-target'], {STRIPE_API_KEY: undefined})
      expect(none.code).toBe(2)
      expect(none.stderr).toContain('set STRIPE_API_KEY, or give --api-key-file FILE')
    },
    scaled(30_000),
  )

  it('writes the three files together or not at all: a run that fails leaves the folder as it was', async () => {
    const out = join(box.root, 'atomic')
    const first = await migrate('atomic', '--no-target')
    expect(first.code, first.stderr).toBe(0)
    const before = readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'))
    stripe.data.products[0]!.name = 'Changed before a failed run'
    allowRefusals()
    stripe.failOn('/v1/customers', 400)
    const failed = await migrate('atomic', '--no-target')
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('Stripe answered HTTP 400 to GET /v1/customers?expand%5B%5D=data.tax_ids&limit=100: Refused on purpose')
    expect(readdirSync(out).sort()).toEqual(['catalog.yaml', 'customers.jsonl', 'precheck.json'])
    expect(readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'))).toEqual(before)
  })

  it(
    'on a terminal without $STRIPE_API_KEY, asks for the key with a hidden prompt',
    async () => {
      const out = join(box.root, 'prompted')
      const command = `${TILL} ${['migrate', 'stripe', '--out', out, '--api-base', stripe.url, '--no-target'].map(sh).join(' ')}`
      const r = await runAnswering(command, box.env({STRIPE_API_KEY: undefined}), [{when: /Stripe API key/, send: `${KEY}${KEYS.enter}`}])
      expect(r.code, r.stdout).toBe(0)
      expect(r.unanswered).toBe(0)
      expect(r.stdout).not.toContain(KEY.slice(8))
      expect(r.stdout).toContain('Precheck of the stripe migration')
      // the progress line, on the terminal only (the piped runs above show none)
      expect(r.stdout).toMatch(/Reading (the source|products|discounts|customers|subscriptions): \d+ so far/)
      expect(existsSync(join(out, 'catalog.yaml'))).toBe(true)
    },
    scaled(30_000),
  )

  it(
    'maps onto a product the target has (same name, interval, currency, amount); a name clash without a match stops until --map decides',
    async () => {
      const made = await api(emulator.production, 'POST', '/products/', {
        body: {name: 'Handmade Pro', recurring_interval: 'month', prices: [{amount_type: 'fixed', price_amount: 2900, price_currency: 'usd'}]},
      })
      expect(made.status, made.text).toBe(201)
      const other = await api(emulator.production, 'POST', '/products/', {
        body: {name: 'Handmade Team', recurring_interval: 'month', prices: [{amount_type: 'fixed', price_amount: 9900, price_currency: 'usd'}]},
      })
      expect(other.status, other.text).toBe(201)
      stripe.data.products.push(stripeProduct('prod_Pro', 'Handmade Pro'), stripeProduct('prod_Team', 'Handmade Team'))
      stripe.data.prices.push(
        stripePrice('price_Pro', 'prod_Pro', {type: 'recurring', unit_amount: 2900, recurring: monthly()}),
        stripePrice('price_Team', 'prod_Team', {type: 'recurring', unit_amount: 4900, recurring: monthly()}),
      )
      allowRefusals()
      const clash = await migrate('clash')
      expect(clash.code).toBe(2)
      expect(clash.stderr).toContain('prod_Team "Handmade Team" (month 1, fixed 4900 usd): same name, other price')
      expect(clash.stderr).toContain(`${other.body.id} (month 1, fixed 9900 usd)`)
      expect(clash.stderr).toContain('--map SOURCE_ID=POLAR_ID')
      expect(existsSync(join(box.root, 'clash', 'catalog.yaml'))).toBe(false)

      const mark = emulator.stderr().length
      const r = await migrate('mapped', '--map', `prod_Team=${other.body.id}`, '--json')
      expect(r.code, r.stderr).toBe(0)
      expect(logged(mark, /\] (POST|PATCH|PUT|DELETE) /)).toEqual([])
      const report = JSON.parse(r.stdout)
      expect(report.adopted).toEqual([{sourceId: 'prod_Pro', id: made.body.id, key: 'handmade-pro'}])
      const text = readFileSync(join(box.root, 'mapped', 'catalog.yaml'), 'utf8')
      expect(text).toContain('\n  handmade-pro:\n')
      expect(text).toContain('\n  handmade-team:\n')
      const apply = await till(['catalog', 'apply', join(box.root, 'mapped', 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(apply.code, apply.stderr).toBe(0)
      const products = await listAll(emulator.production, '/products/')
      expect(products.filter((p: Json) => p.name === 'Handmade Pro')).toHaveLength(1)
      expect(products.find((p: Json) => p.id === made.body.id)?.metadata.migrated_from).toBe('stripe:prod_Pro')
      // a run after that finds both by migrated_from: nothing to do
      const again = await migrate('mapped-again')
      expect(again.code, again.stderr).toBe(0)
      const plan = await till(['catalog', 'plan', join(box.root, 'mapped-again', 'catalog.yaml'), '-p', 'prod'])
      expect(plan.code, plan.stdout).toBe(0)
      expect(linesOf(again.stdout)[0]).toBe('Precheck of the stripe migration')
    },
    scaled(60_000),
  )
})
