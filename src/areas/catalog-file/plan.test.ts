import {describe, expect, it} from 'vitest'

import {readCatalog} from './document.js'
import {buildPlan, type Environment} from './plan.js'
import {planJson, planJsonPieces, planText} from './render.js'

const FILE = `version: 1
benefits:
  support:
    type: custom
    description: Priority support
    properties: {note: Mail us}
products:
  pro:
    name: Pro Plan
    recurring_interval: month
    prices:
      - {type: fixed, amount: "29.00", currency: usd}
    benefits: [support]
    metadata: {tier: pro}
`

const catalog = () => {
  const {catalog, issues} = readCatalog(FILE)
  expect(issues).toEqual([])
  return catalog
}

const benefit = (over: Record<string, unknown> = {}) => ({
  id: 'b1',
  created_at: '2026-01-01T00:00:00Z',
  type: 'custom',
  description: 'Priority support',
  visibility: 'public',
  properties: {note: 'Mail us'},
  metadata: {key: 'support'},
  ...over,
})
const product = (over: Record<string, unknown> = {}) => ({
  id: 'p1',
  created_at: '2026-01-02T00:00:00Z',
  name: 'Pro Plan',
  description: null,
  visibility: 'public',
  recurring_interval: 'month',
  recurring_interval_count: 1,
  is_archived: false,
  metadata: {key: 'pro', tier: 'pro'},
  benefits: [{id: 'b1'}],
  prices: [{id: 'x1', amount_type: 'fixed', price_amount: 2900, price_currency: 'usd', is_archived: false}],
  ...over,
})
const target = {profile: 'prod', environment: 'production', baseUrl: 'https://api.example/v1'}

describe('buildPlan', () => {
  it('creates everything in an empty environment, benefits first', () => {
    const plan = buildPlan(catalog(), {benefits: [], products: []}, {prune: false})
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.key}`)).toEqual(['create benefits support', 'create products pro'])
    expect(plan.pending).toBe(true)
    const text = planText(plan, target)
    expect(text).toContain('Plan for PRODUCTION (profile prod, https://api.example/v1): 2 to create, 0 to update, 0 to archive.')
    expect(text).toContain('    prices: 29.00 USD')
    expect(text).toContain('    billing: every 1 month')
  })

  it('plans nothing when the environment matches, whatever the price order or archived prices', () => {
    const env: Environment = {
      benefits: [benefit()],
      products: [
        product({prices: [{id: 'old', amount_type: 'fixed', price_amount: 1000, price_currency: 'usd', is_archived: true}, ...(product().prices as object[])]}),
      ],
    }
    const plan = buildPlan(catalog(), env, {prune: false})
    expect(plan.steps).toEqual([])
    expect(plan.pending).toBe(false)
    expect(planText(plan, target)).toContain('Nothing to do')
  })

  it('shows exactly the changed fields; a new price is a replacement', () => {
    const env: Environment = {
      benefits: [benefit({properties: {note: 'Call us'}})],
      products: [product({prices: [{id: 'x1', amount_type: 'fixed', price_amount: 1900, price_currency: 'usd', is_archived: false}]})],
    }
    const plan = buildPlan(catalog(), env, {prune: false})
    const json = planJson(plan, target)
    expect(json.counts).toEqual({create: 0, update: 2, archive: 0, extra: 0})
    expect(json.steps.map((s) => [s.key, s.changes.map((c) => `${c.field}: ${c.from} -> ${c.to}`)])).toEqual([
      ['support', ['properties.note: "Call us" -> "Mail us"']],
      ['pro', ['prices: 19.00 USD -> 29.00 USD']],
    ])
    expect(json.steps[1]!.changes[0]!.note).toMatch(/new price is created and the old one archived/)
    // a plan that consumes the file's entries as it goes is the same plan, and leaves the entries dropped
    const consumed = catalog()
    expect(buildPlan(consumed, env, {prune: false, consume: true})).toEqual(plan)
    expect(Object.values(consumed).every((section) => Object.keys(section).length === 0)).toBe(true)
    // written a step at a time, the same text as the whole: with steps and without
    const nothing = buildPlan({}, {}, {prune: false})
    for (const p of [plan, nothing]) expect([...planJsonPieces(p, target)].join('')).toBe(`${JSON.stringify(planJson(p, target), null, 2)}\n`)
    // On an 80-column terminal the notes wrap at words, each continuation indented under its line.
    const whole = planText(plan, target)
    const narrow = planText(plan, target, {width: 80})
    expect(whole.split('\n').some((line) => line.length > 80)).toBe(true)
    for (const line of narrow.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(narrow.split(/\s+/)).toEqual(whole.split(/\s+/)) // no word cut
    expect(narrow).toContain(
      '      (the service does not edit a price: a new price is created and the old one\n        archived (existing subscriptions keep it))',
    )
  })

  it('on a terminal, names from the environment and the file are shown escaped, one line each; piped, as they are', () => {
    const hostile = 'Pro \u001b]52;c;aGk=\u0007\u001b[2J \u202egnp.exe\u202c X\rY\nZ'
    const env: Environment = {benefits: [benefit()], products: [product({name: hostile, metadata: {key: 'pro', tier: 'pro'}})]}
    const plan = buildPlan(catalog(), env, {prune: false})
    const shown = planText(plan, target, {tty: true, width: 200})
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    expect(shown).toContain('\\u202egnp.exe\\u202c')
    expect(shown).toContain('\\u001b]52;c;aGk=') // a changed value is shown as JSON, its escape already written out
    expect(planText(plan, target)).toContain('\u202egnp.exe')
  })

  it('matches an object without a recorded key by its name, and records the key', () => {
    // "Support!" gives the key "support": the object is the file's, with another description.
    const env: Environment = {benefits: [benefit({description: 'Support!', metadata: {}})], products: [product()]}
    const plan = buildPlan(catalog(), env, {prune: false})
    expect(plan.steps).toHaveLength(1)
    expect(plan.steps[0]).toMatchObject({action: 'update', kind: 'benefits', key: 'support', id: 'b1'})
    expect(plan.steps[0]!.changes).toEqual([
      {field: 'description', from: '"Support!"', to: '"Priority support"'},
      {field: 'metadata.key', from: '(none)', to: '"support"', note: "the key is recorded in the object's metadata"},
    ])
  })

  it('reports what the file lacks, archives products only with --prune, and restores an archived product in the file', () => {
    const env: Environment = {
      benefits: [benefit(), benefit({id: 'b2', description: 'Old perk', metadata: {key: 'old-perk'}})],
      products: [product({is_archived: true}), product({id: 'p2', name: 'Old', metadata: {key: 'old'}})],
    }
    const kept = buildPlan(catalog(), env, {prune: false})
    expect(kept.steps.map((s) => `${s.action} ${s.key}`)).toEqual(['update pro', 'extra old', 'extra old-perk'])
    expect(kept.steps[0]!.changes[0]).toMatchObject({field: 'archived', from: 'yes', to: 'no'})
    expect(kept.steps[1]!.note).toContain('--prune archives it')
    expect(kept.steps[2]!.note).toContain('cannot archive a benefit')
    const pruned = buildPlan(catalog(), env, {prune: true})
    expect(pruned.steps.map((s) => `${s.action} ${s.key}`)).toEqual(['update pro', 'archive old', 'extra old-perk'])
    expect(pruned.counts).toEqual({create: 0, update: 1, archive: 1, extra: 1})
  })

  it('refuses a change the service cannot make in place', () => {
    const plan = buildPlan(
      catalog(),
      {benefits: [benefit({type: 'license_keys'})], products: [product({recurring_interval: null, recurring_interval_count: null})]},
      {prune: false},
    )
    expect(plan.steps.map((s) => s.blocked)).toEqual([
      "a benefit's type cannot change (license_keys -> custom): give the new benefit a new key",
      'a one-time product cannot become recurring in the service: give the new product a new key (and archive the old one with --prune)',
    ])
    expect(planText(plan, target)).toContain('    cannot apply: a one-time product cannot become recurring')
  })
})
