// `till migrate paddle` against a fake Paddle (test/helpers/fake-paddle.ts, fixtures typed with the
// official SDK) and the emulator as the target: migrate, catalog apply and customers import create what
// the precheck counts, a second run changes nothing, a change at the source updates only what changed,
// and the key shows nowhere.
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {type Emulator, type Json, listAll} from '../helpers/emulator.js'
import {fakePaddle, type PaddleFixtures, paddleFixtures} from '../helpers/fake-paddle.js'
import type {FakeSource} from '../helpers/fake-source.js'
import {runInProcess} from '../helpers/in-process.js'
import {emptyTarget} from '../helpers/migration.js'
import {scaled} from '../helpers/machine.js'

const KEY = `pdl_sdbx_apikey_${'Pq4'.repeat(14)}`

describe('till migrate paddle', () => {
  let emulator: Emulator
  let box: Sandbox
  let fixtures: PaddleFixtures
  let paddle: FakeSource

  const till = (args: string[], extra: Record<string, string | undefined> = {}) => runInProcess(args, {env: box.env({PADDLE_API_KEY: KEY, ...extra})})
  const migrate = (out: string, ...extra: string[]) =>
    till(['migrate', 'paddle', '--out', join(box.root, out), '--api-base', paddle.url, '-p', 'prod', '--tax-ids', ...extra])

  beforeAll(async () => {
    ;({emulator, box} = await emptyTarget())
    fixtures = paddleFixtures({products: 18, customers: 40})
    paddle = fakePaddle(fixtures, KEY)
    await paddle.start()
  })
  afterAll(async () => {
    await paddle?.close()
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    'migrate + catalog apply + customers import create what the precheck counts; a second run changes nothing',
    async () => {
      const first = await migrate('run1', '--json')
      expect(first.code, first.stderr).toBe(0)
      const report = JSON.parse(first.stdout)
      expect(report.counts.products.read).toBe(18)
      // the archived products and those sold only in quantities of 5 do not move
      expect(report.counts.products.not_moved).toBe(4)
      expect(report.counts.customers).toMatchObject({read: 40, not_moved: 0})
      const text = JSON.stringify(report)
      expect(text).toContain('a minimum quantity of 5 has no equal in Polar')
      expect(text).toContain('a custom (non-catalog) price, made for one transaction or subscription, has no equal in Polar')
      expect(text).toContain('its country prices (IN, BR) are not moved')
      expect(text).toContain('Paddle takes its amount off each unit; Polar takes it off the order once')
      expect(report.cannot_move).toEqual(
        expect.arrayContaining([
          expect.objectContaining({what: 'active subscriptions', count: 20, why: expect.stringContaining('Polar has no assisted migration from Paddle')}),
        ]),
      )
      // every customer with an address sent for it; with --tax-ids, each business's
      expect(paddle.requests.filter((r) => r.path.endsWith('/addresses'))).toHaveLength(40)
      expect(paddle.requests.filter((r) => r.path.endsWith('/businesses'))).toHaveLength(40)

      const dir = join(box.root, 'run1')
      const apply = await till(['catalog', 'apply', join(dir, 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(apply.code, apply.stderr).toBe(0)
      const imported = await till(['customers', 'import', join(dir, 'customers.jsonl'), '-p', 'prod'])
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stderr).toContain(`${report.written.customers} customers: ${report.written.customers} created, 0 updated, 0 unchanged, 0 failed.`)

      const products = await listAll(emulator.production, '/products/')
      expect(products).toHaveLength(report.written.products)
      expect(await listAll(emulator.production, '/discounts/')).toHaveLength(report.written.discounts)
      // the second interval of a split product is migrated from `<id>@<interval>`
      const bySource = (id: string) => products.filter((p: Json) => String(p.metadata.migrated_from).replace(/@.*/, '') === `paddle:${id}`)
      // a product with a monthly and a yearly price: one Polar product per interval
      expect(
        bySource(fixtures.products[0]!.id)
          .map((p: Json) => [p.recurring_interval, p.prices[0].price_amount])
          .sort(),
      ).toEqual([
        ['month', 1500],
        ['year', 15000],
      ])
      // a discount limited to the yearly price: the yearly product only, never the monthly one
      const yearly = bySource(fixtures.products[0]!.id).find((p: Json) => p.recurring_interval === 'year')
      const limited = (await listAll(emulator.production, '/discounts/')).find((d: Json) => d.code === 'YEARLY20')
      expect(limited.products.map((p: Json) => p.id)).toEqual([yearly.id])
      expect(bySource(fixtures.products[8]!.id)[0]).toMatchObject({recurring_interval: 'week', prices: [{price_currency: 'eur', price_amount: 800}]})
      const customers = await listAll(emulator.production, '/customers/')
      const first0 = customers.find((c: Json) => c.email === 'customer0@example.com')
      expect(first0).toMatchObject({external_id: fixtures.customers[0]!.id, billing_address: {country: 'DE', city: 'Berlin', postal_code: '10115'}})
      expect(first0.tax_id).toEqual(['DE100000000', 'eu_vat'])

      const second = await migrate('run2')
      expect(second.code, second.stderr).toBe(0)
      expect(readFileSync(join(box.root, 'run2', 'catalog.yaml'), 'utf8')).toBe(readFileSync(join(dir, 'catalog.yaml'), 'utf8'))
      const plan = await till(['catalog', 'plan', join(box.root, 'run2', 'catalog.yaml'), '-p', 'prod'])
      expect(plan.code, plan.stdout).toBe(0)
      const again = await till(['customers', 'import', join(box.root, 'run2', 'customers.jsonl'), '-p', 'prod'])
      expect(again.stderr).toContain(`${report.written.customers} customers: 0 created, 0 updated, ${report.written.customers} unchanged, 0 failed.`)
    },
    scaled(120_000),
  )

  it(
    'after a change at the source, updates exactly what changed',
    async () => {
      fixtures.products[1]!.name = 'Renamed at Paddle'
      fixtures.customers[5]!.name = 'Renamed customer'
      const r = await migrate('run3')
      expect(r.code, r.stderr).toBe(0)
      const plan = await till(['catalog', 'plan', join(box.root, 'run3', 'catalog.yaml'), '-p', 'prod', '--json'])
      expect(plan.code).toBe(10)
      const steps = JSON.parse(plan.stdout).steps.filter((s: Json) => s.action !== 'extra')
      expect(steps.map((s: Json) => [s.action, s.changes.map((c: Json) => c.field)])).toEqual([['update', ['name']]])
      const applied = await till(['catalog', 'apply', join(box.root, 'run3', 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(applied.code, applied.stderr).toBe(0)
      const imported = await till(['customers', 'import', join(box.root, 'run3', 'customers.jsonl'), '-p', 'prod'])
      expect(imported.stderr).toMatch(/customers: 0 created, 1 updated, \d+ unchanged, 0 failed\./)
    },
    scaled(60_000),
  )

  it(
    '--no-addresses reads no address; the key shows nowhere, and a refused one is exit 4',
    async () => {
      const before = paddle.requests.length
      const r = await till(['migrate', 'paddle', '--out', join(box.root, 'bare'), '--api-base', paddle.url, '--no-addresses', '--no-target', '--debug'])
      expect(r.code, r.stderr).toBe(0)
      expect(paddle.requests.slice(before).filter((q) => q.path.startsWith('/customers/'))).toEqual([])
      const files = readdirSync(join(box.root, 'bare')).map((f) => readFileSync(join(box.root, 'bare', f), 'utf8'))
      for (const text of [r.stdout, r.stderr, ...files]) expect(text).not.toContain(KEY.slice(16))
      allowRefusals()
      const wrong = `pdl_live_apikey_${'V'.repeat(40)}`
      const refused = await till(['migrate', 'paddle', '--out', join(box.root, 'refused'), '--api-base', paddle.url, '--no-target'], {PADDLE_API_KEY: wrong})
      expect(refused.code).toBe(4)
      expect(refused.stderr).toContain('Paddle refused the API key (HTTP 401 to GET /products?')
      expect(refused.stderr).toContain('check PADDLE_API_KEY')
      expect(refused.stderr + refused.stdout).not.toContain('V'.repeat(40))
    },
    scaled(60_000),
  )
})
