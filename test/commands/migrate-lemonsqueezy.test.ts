// `till migrate lemonsqueezy` against a fake Lemon Squeezy (test/helpers/fake-lemonsqueezy.ts, fixtures
// typed with the official SDK) and the emulator as the target: migrate, catalog apply and customers import
// create what the precheck counts, a second run changes nothing, a change at the source updates only
// what changed, and the key shows nowhere.
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {type Emulator, type Json, listAll} from '../helpers/emulator.js'
import {fakeLemonSqueezy, type LsFixtures, lsFixtures} from '../helpers/fake-lemonsqueezy.js'
import type {FakeSource} from '../helpers/fake-source.js'
import {runInProcess} from '../helpers/in-process.js'
import {emptyTarget} from '../helpers/migration.js'
import {scaled} from '../helpers/machine.js'

const KEY = `lsq_${'Kx7'.repeat(14)}`

describe('till migrate lemonsqueezy', () => {
  let emulator: Emulator
  let box: Sandbox
  let fixtures: LsFixtures
  let lemon: FakeSource

  const till = (args: string[], extra: Record<string, string | undefined> = {}) => runInProcess(args, {env: box.env({LEMONSQUEEZY_API_KEY: KEY, ...extra})})
  const migrate = (out: string, ...extra: string[]) =>
    till(['migrate', 'lemonsqueezy', '--out', join(box.root, out), '--api-base', `${lemon.url}/v1`, '-p', 'prod', ...extra])

  beforeAll(async () => {
    ;({emulator, box} = await emptyTarget())
    fixtures = lsFixtures({products: 24, customers: 60})
    lemon = fakeLemonSqueezy(fixtures, KEY)
    await lemon.start()
  })
  afterAll(async () => {
    await lemon?.close()
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    'migrate + catalog apply + customers import create what the precheck counts; a second run changes nothing',
    async () => {
      const first = await migrate('run1', '--json')
      expect(first.code, first.stderr).toBe(0)
      const report = JSON.parse(first.stdout)
      // 24 products, 2 of them with two variants sold: 26 read
      expect(report.counts.products.read).toBe(26)
      expect(report.counts.customers).toEqual({read: 60, as_is: 60, changed: 0, not_moved: 0})
      const notMoved = JSON.stringify(report)
      for (const reason of [
        'graduated tiered pricing',
        'package pricing (10 units per package)',
        'usage counted as its last ever value',
        'archived at the source',
      ])
        expect(notMoved).toContain(reason)
      expect(notMoved).toContain('its setup fee of 2500 (minor units) is not moved')
      expect(report.cannot_move).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            what: 'active subscriptions',
            count: 20,
            why: expect.stringContaining('Polar has no assisted migration from Lemon Squeezy'),
          }),
        ]),
      )

      const dir = join(box.root, 'run1')
      const apply = await till(['catalog', 'apply', join(dir, 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(apply.code, apply.stderr).toBe(0)
      const imported = await till(['customers', 'import', join(dir, 'customers.jsonl'), '-p', 'prod'])
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stderr).toContain('60 customers: 60 created, 0 updated, 0 unchanged, 0 failed.')

      const products = await listAll(emulator.production, '/products/')
      expect(products).toHaveLength(report.written.products)
      expect(await listAll(emulator.production, '/discounts/')).toHaveLength(report.written.discounts)
      expect(await listAll(emulator.production, '/benefits/')).toHaveLength(report.written.benefits)
      expect(await listAll(emulator.production, '/meters/')).toHaveLength(report.written.meters)
      const bySource = (id: string) => products.find((p: Json) => p.metadata.migrated_from === `lemonsqueezy:${id}`)
      const variantOf = (product: number) => fixtures.variants.find((v) => v.attributes.product_id === 100 + product)!.id
      expect(bySource(variantOf(0))).toMatchObject({
        name: 'Product 0',
        recurring_interval: 'month',
        prices: [{amount_type: 'fixed', price_amount: 1500, price_currency: 'usd'}],
      })
      expect(bySource(variantOf(3))?.prices[0]).toMatchObject({amount_type: 'custom', minimum_amount: 500})
      // a lead magnet: free, as the catalog file writes it (a fixed price of 0)
      expect(bySource(variantOf(4))?.prices[0]).toMatchObject({amount_type: 'fixed', price_amount: 0})
      const tiers = fixtures.variants.filter((v) => v.attributes.product_id === 105 && v.attributes.status === 'published')
      expect(tiers.map((v) => bySource(v.id)?.name)).toEqual(['Product 5 — Tier 1', 'Product 5 — Tier 2'])
      // the license keys of a variant that issues them: a benefit of its product
      const keys = (await listAll(emulator.production, '/benefits/')).find((b: Json) => b.type === 'license_keys')
      expect(keys?.properties).toMatchObject({activations: null, expires: null})
      expect(bySource(variantOf(12))?.benefits.map((b: Json) => b.id)).toEqual([keys?.id])
      const launch = (await listAll(emulator.production, '/discounts/')).find((d: Json) => d.code === 'LAUNCH20')
      expect(launch).toMatchObject({type: 'percentage', basis_points: 2000, duration: 'once'})

      const second = await migrate('run2')
      expect(second.code, second.stderr).toBe(0)
      expect(readFileSync(join(box.root, 'run2', 'catalog.yaml'), 'utf8')).toBe(readFileSync(join(dir, 'catalog.yaml'), 'utf8'))
      const plan = await till(['catalog', 'plan', join(box.root, 'run2', 'catalog.yaml'), '-p', 'prod'])
      expect(plan.code, plan.stdout).toBe(0)
      const again = await till(['customers', 'import', join(box.root, 'run2', 'customers.jsonl'), '-p', 'prod'])
      expect(again.stderr).toContain('60 customers: 0 created, 0 updated, 60 unchanged, 0 failed.')
    },
    scaled(120_000),
  )

  it(
    'after a change at the source, updates exactly what changed',
    async () => {
      fixtures.products[2]!.attributes.name = 'Renamed at Lemon Squeezy'
      fixtures.customers[3]!.attributes.name = 'Renamed customer'
      const r = await migrate('run3')
      expect(r.code, r.stderr).toBe(0)
      const plan = await till(['catalog', 'plan', join(box.root, 'run3', 'catalog.yaml'), '-p', 'prod', '--json'])
      expect(plan.code).toBe(10)
      const steps = JSON.parse(plan.stdout).steps.filter((s: Json) => s.action !== 'extra')
      expect(steps.map((s: Json) => [s.action, s.changes.map((c: Json) => c.field)])).toEqual([['update', ['name']]])
      const applied = await till(['catalog', 'apply', join(box.root, 'run3', 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(applied.code, applied.stderr).toBe(0)
      const imported = await till(['customers', 'import', join(box.root, 'run3', 'customers.jsonl'), '-p', 'prod'])
      expect(imported.stderr).toContain('60 customers: 0 created, 1 updated, 59 unchanged, 0 failed.')
    },
    scaled(60_000),
  )

  it(
    'reads one store with --store; the key shows nowhere, and a refused one is exit 4',
    async () => {
      const r = await migrate('store2', '--store', '2', '--no-target', '--debug', '--json')
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout).counts.customers.read).toBe(1)
      const files = readdirSync(join(box.root, 'store2')).map((f) => readFileSync(join(box.root, 'store2', f), 'utf8'))
      for (const text of [r.stdout, r.stderr, ...files]) expect(text).not.toContain(KEY.slice(4))
      // the second store's discount, none of the first's
      expect(files.join('\n')).toContain('code: EURO')
      expect(files.join('\n')).not.toContain('LAUNCH20')
      allowRefusals()
      const wrong = `lsq_${'W'.repeat(40)}`
      const refused = await till(['migrate', 'lemonsqueezy', '--out', join(box.root, 'refused'), '--api-base', `${lemon.url}/v1`, '--no-target'], {
        LEMONSQUEEZY_API_KEY: wrong,
      })
      expect(refused.code).toBe(4)
      expect(refused.stderr).toContain('Lemon Squeezy refused the API key (HTTP 401 to GET /v1/stores')
      expect(refused.stderr).toContain('check LEMONSQUEEZY_API_KEY')
      expect(refused.stderr + refused.stdout).not.toContain('W'.repeat(40))
    },
    scaled(60_000),
  )
})
