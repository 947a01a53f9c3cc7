import {describe, expect, it} from 'vitest'

import {readCatalog} from './document.js'
import {buildPlan, type Environment} from './plan.js'
import {planText} from './render.js'

const FILE = `version: 1
meters:
  api-calls:
    name: API calls
    filter: {conjunction: and, clauses: [{property: name, operator: eq, value: api.call}]}
    aggregation: {func: count}
custom_fields:
  company: {type: text, slug: company, name: Company, properties: {form_label: Company name}}
benefits:
  credits:
    type: meter_credit
    description: API credits
    properties: {meter: api-calls, units: 1000, rollover: false}
products:
  usage:
    name: API Usage
    recurring_interval: month
    prices:
      - {type: metered, meter: api-calls, unit_amount: "0.005", cap: "1000.00", currency: usd}
    custom_fields:
      - {field: company, required: true}
discounts:
  welcome:
    name: Welcome 20%
    type: percentage
    percent: 20
    duration: once
    code: WELCOME20
    products: [usage]
webhook_endpoints:
  orders:
    url: https://hooks.example.com/polar
    name: orders
    events: [order.paid, order.created]
`

const at = '2026-01-01T00:00:00.000Z'
const meter = (over: Record<string, unknown> = {}) => ({
  id: 'm1',
  created_at: at,
  name: 'API calls',
  unit: 'scalar',
  custom_label: null,
  custom_multiplier: null,
  archived_at: null,
  metadata: {key: 'api-calls'},
  filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'api.call'}]},
  aggregation: {func: 'count'},
  ...over,
})
const field = {id: 'f1', created_at: at, type: 'text', slug: 'company', name: 'Company', properties: {form_label: 'Company name'}, metadata: {key: 'company'}}
const credits = {
  id: 'b1',
  created_at: at,
  type: 'meter_credit',
  description: 'API credits',
  visibility: 'public',
  properties: {meter_id: 'm1', units: 1000, rollover: false},
  metadata: {key: 'credits'},
}
const product = {
  id: 'p1',
  created_at: at,
  name: 'API Usage',
  description: null,
  visibility: 'public',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  is_archived: false,
  metadata: {key: 'usage'},
  benefits: [],
  attached_custom_fields: [{custom_field_id: 'f1', order: 0, required: true}],
  prices: [{id: 'x1', amount_type: 'metered_unit', meter_id: 'm1', unit_amount: '0.5', cap_amount: 100_000, price_currency: 'usd', is_archived: false}],
}
const discount = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  created_at: at,
  name: 'Welcome 20%',
  type: 'percentage',
  basis_points: 2000,
  duration: 'once',
  code: 'WELCOME20',
  starts_at: null,
  ends_at: null,
  max_redemptions: null,
  redemptions_count: 0,
  products: [{id: 'p1'}],
  metadata: {key: 'welcome'},
  ...over,
})
const endpoint = (over: Record<string, unknown> = {}) => ({
  id: 'w1',
  created_at: at,
  url: 'https://hooks.example.com/polar',
  name: 'orders',
  format: 'raw',
  events: ['order.created', 'order.paid'],
  enabled: true,
  ...over,
})
const env = (over: Partial<Environment> = {}): Environment => ({
  meters: [meter()],
  custom_fields: [field],
  benefits: [credits],
  products: [product],
  discounts: [discount()],
  checkout_links: [],
  webhook_endpoints: [endpoint()],
  ...over,
})
const catalog = () => {
  const {catalog, issues} = readCatalog(FILE)
  expect(issues).toEqual([])
  return catalog
}
const target = {profile: 'prod', environment: 'production', baseUrl: 'https://api.example/v1'}
const summary = (plan: ReturnType<typeof buildPlan>) =>
  plan.steps.map((s) => `${s.action} ${s.kind} ${s.key}${s.changes.map((c) => ` | ${c.field}: ${c.from} -> ${c.to}`).join('')}`)

describe('buildPlan with meters, custom fields, discounts and webhook endpoints', () => {
  it('creates in dependency order: meters, custom fields, benefits, products, discounts, then webhook endpoints', () => {
    const plan = buildPlan(catalog(), {}, {prune: false})
    expect(plan.steps.map((s) => `${s.kind} ${s.key}`)).toEqual([
      'meters api-calls',
      'custom_fields company',
      'benefits credits',
      'products usage',
      'discounts welcome',
      'webhook_endpoints orders',
    ])
    const text = planText(plan, target)
    expect(text).toContain('    prices: 0.005 USD per unit of meter api-calls (up to 1000.00 USD a period)\n')
    expect(text).toContain('    custom_fields: company (required)\n')
    expect(text).toContain('    amount: 20%\n')
  })

  it("matches ids through keys (a meter credit's meter, a metered price's meter, a product's fields): nothing to do", () => {
    const plan = buildPlan(catalog(), env(), {prune: false})
    expect(summary(plan)).toEqual([])
  })

  it("shows exactly the changed fields, and says a meter's filter may be refused", () => {
    const plan = buildPlan(
      catalog(),
      env({meters: [meter({name: 'Calls', aggregation: {func: 'sum', property: 'n'}})], discounts: [discount({name: 'Old', max_redemptions: 5})]}),
      {prune: false},
    )
    expect(summary(plan)).toEqual([
      'update meters api-calls | name: "Calls" -> "API calls" | aggregation: {"func":"sum","property":"n"} -> {"func":"count"}',
      'update discounts welcome | name: "Old" -> "Welcome 20%" | max_redemptions: 5 -> (none)',
    ])
    expect(plan.steps[0]!.changes[1]!.note).toMatch(/refuses this once the meter has aggregated events/)
    expect(plan.steps.every((s) => !s.blocked)).toBe(true)
  })

  it("refuses a discount's new type or duration, and a new amount once redeemed", () => {
    const typed = buildPlan(catalog(), env({discounts: [discount({type: 'fixed', basis_points: undefined, amounts: {usd: 500}})]}), {prune: false})
    expect(typed.steps[0]!.blocked).toBe("a discount's type and duration cannot change in the service: give the new discount a new key (and another code)")
    const redeemed = buildPlan(catalog(), env({discounts: [discount({basis_points: 1500, redemptions_count: 3})]}), {prune: false})
    expect(summary(redeemed)).toEqual(['update discounts welcome | percent: 15% -> 20%'])
    expect(redeemed.steps[0]!.blocked).toMatch(/^the discount has been redeemed 3 times: the service no longer changes its amount/)
    expect(buildPlan(catalog(), env({discounts: [discount({basis_points: 1500})]}), {prune: false}).steps[0]!.blocked).toBeUndefined()
  })

  it('with --prune: archives a meter, disables a webhook endpoint, keeps a discount and a custom field', () => {
    const extra = env({
      meters: [meter(), meter({id: 'm2', name: 'Old meter', metadata: {key: 'old-meter'}})],
      custom_fields: [field, {...field, id: 'f2', slug: 'vat', name: 'VAT', metadata: {}}],
      discounts: [discount(), discount({id: 'd2', name: 'Spring', code: null, metadata: {key: 'spring'}})],
      webhook_endpoints: [endpoint(), endpoint({id: 'w2', name: null, url: 'https://other.example.com/x'})],
    })
    const kept = buildPlan(catalog(), extra, {prune: false})
    expect(kept.steps.map((s) => `${s.action} ${s.key}: ${s.note}`)).toEqual([
      'extra https-other-example-com-x: no entry has its URL: kept (--prune disables it)',
      'extra spring: not in the file: kept (the service cannot archive a discount, only delete it (till discounts delete); an ends_at in the file stops its use)',
      'extra vat: not in the file: kept (the service cannot archive a custom field, only delete it (till custom-fields delete))',
      'extra old-meter: not in the file: kept (--prune archives it)',
    ])
    const pruned = buildPlan(catalog(), extra, {prune: true})
    expect(pruned.steps.map((s) => `${s.action} ${s.key}`)).toEqual(['archive https-other-example-com-x', 'extra spring', 'extra vat', 'archive old-meter'])
    expect(planText(pruned, target)).toContain('- webhook endpoint https-other-example-com-x: no entry has its URL: disabled\n')
    expect(planText(pruned, target)).toContain('- meter old-meter (archived: not in the file)\n')
  })

  it('keeps a product with a seat-based price, which the file cannot express, even with --prune; refuses an entry for it', () => {
    const seats = {
      ...product,
      id: 'p2',
      name: 'Team Seats',
      metadata: {key: 'team-seats'},
      attached_custom_fields: [],
      prices: [{id: 'x2', amount_type: 'seat_based', seat_tiers: {tiers: []}, price_currency: 'usd', is_archived: false}],
    }
    const pruned = buildPlan(catalog(), env({products: [product, seats]}), {prune: true})
    expect(pruned.steps.map((s) => `${s.action} ${s.key}: ${s.note}`)).toEqual([
      'extra team-seats: not in the file: kept (it has a seat-based price, which the file cannot express yet)',
    ])
    const claimed = buildPlan(catalog(), env({products: [{...seats, metadata: {key: 'usage'}}]}), {prune: false})
    expect(claimed.steps.filter((s) => s.kind === 'products').map((s) => s.blocked)).toEqual([
      'the product in the environment has a seat-based price, which the file cannot express yet: give the entry another key',
    ])
  })

  it('with --prune, keeps a meter that a benefit outside the file still credits (the service refuses that archive)', () => {
    const credited = env({
      meters: [meter(), meter({id: 'm3', name: 'Tokens', metadata: {key: 'tokens'}})],
      benefits: [
        credits,
        {...credits, id: 'b3', description: 'Token credits', properties: {meter_id: 'm3', units: 5, rollover: false}, metadata: {key: 'token-credits'}},
      ],
    })
    const plan = buildPlan(catalog(), credited, {prune: true})
    expect(plan.steps.map((s) => `${s.action} ${s.key}: ${s.note}`)).toEqual([
      'extra token-credits: not in the file: kept (the service cannot archive a benefit, only delete it (till benefits delete))',
      'extra tokens: not in the file: kept (benefit token-credits still credits it, and the service does not archive it while so)',
    ])
    expect(plan.pending).toBe(false)
  })

  it('finds a webhook endpoint by its URL whatever its key (it cannot record one); a new URL is a new endpoint', () => {
    const renamed = buildPlan(catalog(), env({webhook_endpoints: [endpoint({name: 'Hooks'})]}), {prune: true})
    expect(summary(renamed)).toEqual(['update webhook_endpoints orders | name: "Hooks" -> "orders"'])
    expect(renamed.steps[0]!.id).toBe('w1')
    const moved = buildPlan(catalog(), env({webhook_endpoints: [endpoint({url: 'https://old.example.com/polar'})]}), {prune: true})
    expect(moved.steps.map((s) => `${s.action} ${s.key} ${s.id ?? ''}`)).toEqual(['create orders ', 'archive orders w1'])
  })

  it("leaves a downloadables benefit out of a product's benefits: no change, and kept even with --prune", () => {
    const files = {...credits, id: 'bd', type: 'downloadables', description: 'Assets', properties: {archived: {}, files: ['f9']}, metadata: {}}
    const plan = buildPlan(catalog(), env({benefits: [credits, files], products: [{...product, benefits: [files]}]}), {prune: true})
    expect(plan.steps.map((s) => `${s.action} ${s.key}: ${s.note}`)).toEqual([
      'extra assets: not in the file: kept (it names uploaded files of its environment, which the file cannot express yet)',
    ])
  })

  it('restores an archived meter and a disabled endpoint that are in the file; an endpoint never records a key', () => {
    const plan = buildPlan(catalog(), env({meters: [meter({archived_at: at})], webhook_endpoints: [endpoint({enabled: false})]}), {prune: false})
    expect(summary(plan)).toEqual(['update meters api-calls | archived: yes -> no', 'update webhook_endpoints orders | disabled: yes -> no'])
  })
})
