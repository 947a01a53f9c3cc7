// `till migrate stripe --demo`: the built-in example account, read with no key and no network, end to end
// into the emulator (migrate, catalog plan, catalog apply, customers import, and a second plan with nothing
// to do), labelled as demo data in the report, the notes and every object's migrated_from.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {type Emulator, type Json, listAll} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {emptyTarget} from '../helpers/migration.js'
import {scaled} from '../helpers/machine.js'

describe('till migrate stripe --demo', () => {
  let emulator: Emulator
  let box: Sandbox
  // no key anywhere: the demo needs none
  const till = (args: string[]) => runInProcess(args, {env: box.env({STRIPE_API_KEY: undefined, TILL_RATE_LIMIT: '100000/60s'})})

  beforeAll(async () => {
    ;({emulator, box} = await emptyTarget())
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    'converts the example account, then catalog plan, apply and customers import create what the precheck counts',
    async () => {
      const out = join(box.root, 'demo')
      const r = await till(['migrate', 'stripe', '--demo', '--out', out, '-p', 'prod'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout.split('\n').slice(0, 3)).toEqual([
        'Precheck of the stripe-demo migration',
        '',
        "This is demo data: till's built-in example of a Stripe account, served on 127.0.0.1; nothing was read from Stripe.",
      ])
      expect(r.stderr).toContain('Demo data, not your account. Wrote ')
      const report = JSON.parse(readFileSync(join(out, 'precheck.json'), 'utf8'))
      expect(report).toMatchObject({source: 'stripe-demo', demo: expect.stringContaining('demo data')})
      // the ISK plan moves as it is (a note, no change), and is created in ISK below
      expect(report.counts.products).toEqual({read: 7, as_is: 3, changed: 2, not_moved: 2})
      expect(report.notes.map((f: Json) => `${f.id} [${f.rule}]`)).toEqual(['prod_DemoIceland [currency-other]'])
      expect(r.stdout).toContain('Converted as is, worth knowing:\n  product prod_DemoIceland "Demo Reykjavik Plan": [currency-other] created in ISK')
      expect(report.counts.customers).toEqual({read: 12, as_is: 11, changed: 0, not_moved: 1})
      expect(report.written).toEqual({meters: 1, benefits: 0, products: 6, discounts: 2, customers: 11})
      const text = readFileSync(join(out, 'catalog.yaml'), 'utf8')
      expect(text).toContain('migrated_from: stripe-demo:prod_DemoStarter')
      expect(text).toContain('5000.00')

      const plan = await till(['catalog', 'plan', join(out, 'catalog.yaml'), '-p', 'prod'])
      expect(plan.code, plan.stderr).toBe(10)
      const apply = await till(['catalog', 'apply', join(out, 'catalog.yaml'), '-p', 'prod', '--yes'])
      expect(apply.code, apply.stderr).toBe(0)
      const imported = await till(['customers', 'import', join(out, 'customers.jsonl'), '-p', 'prod'])
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stderr).toContain('11 customers: 11 created, 0 updated, 0 unchanged, 0 failed.')
      const products = await listAll(emulator.production, '/products/')
      expect(products).toHaveLength(report.written.products)
      expect(products.every((p: Json) => String(p.metadata.migrated_from).startsWith('stripe-demo:'))).toBe(true)
      const iceland = products.find((p: Json) => p.name === 'Demo Reykjavik Plan')
      expect(iceland.prices[0]).toMatchObject({price_amount: 500_000, price_currency: 'isk'})
      expect(await listAll(emulator.production, '/discounts/')).toHaveLength(report.written.discounts)
      const again = await till(['catalog', 'plan', join(out, 'catalog.yaml'), '-p', 'prod'])
      expect(again.code, again.stdout).toBe(0)
    },
    scaled(120_000),
  )

  it('takes no key and no --api-base: given one, it says they do not go together (exit 2)', async () => {
    allowRefusals()
    const r = await till(['migrate', 'stripe', '--demo', '--out', join(box.root, 'x'), '--api-base', 'http://127.0.0.1:9', '--no-target'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--api-base.*cannot also be provided when using --demo|--demo.*--api-base/)
  })
})
