import {describe, expect, it} from 'vitest'

import {issueLines, readCatalog as read, type Catalog, type LocatedIssue} from './document.js'
import {catalogPieces, writeCatalog} from './writer.js'
import {cutCatalog} from './entries.js'
import {assignKeys, slug} from './keys.js'

/**
 * readCatalog, checked against the whole file read as one document: a file in the plain layout is read an
 * entry at a time (entries.ts), and must mean the same, issues and lines included.
 */
const readCatalog = (text: string) => {
  const result = read(text)
  expect(result).toEqual(read(text, {whole: true}))
  return result
}

const GOOD = `version: 1
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
`

describe('readCatalog', () => {
  it('reads a good file, with the defaults the service has', () => {
    const {catalog, issues} = readCatalog(GOOD)
    expect(issues).toEqual([])
    expect(catalog.products!.pro).toEqual({
      name: 'Pro Plan',
      description: null,
      visibility: 'public',
      recurring_interval: 'month',
      prices: [{type: 'fixed', amount: '29.00', currency: 'usd'}],
      benefits: ['support'],
      custom_fields: [],
      metadata: {},
    })
    expect(catalog.benefits!.support).toMatchObject({type: 'custom', visibility: 'public', properties: {note: 'Mail us'}})
  })

  it('names the line of each problem: schema, money, currency, references and keys', () => {
    const text = `version: 1
benefits:
  support:
    type: bogus
    description: Priority support
products:
  Pro Plan:
    name: Pro Plan
    prices:
      - {type: fixed, amount: "29.001", currency: usd}
  cheap:
    name: Cheap
    prices:
      - {type: fixed, amount: "1", currency: xyz}
    benefits: [nowhere]
plans: {}
`
    const {issues} = readCatalog(text)
    const lines = issueLines('c.yaml', issues)
    expect(lines).toContain(
      'c.yaml:4: benefits.support.type: Invalid option: expected one of "custom"|"license_keys"|"downloadables"|"discord"|"github_repository"|"meter_credit"|"feature_flag"',
    )
    expect(lines.some((l) => l.startsWith('c.yaml:7: products.Pro Plan: "Pro Plan": a key is 1-40 characters'))).toBe(true)
    expect(lines).toContain('c.yaml:10: products.Pro Plan.prices[0].amount: amount 29.001 has more decimals than USD allows (2)')
    expect(lines).toContain('c.yaml:14: products.cheap.prices[0].currency: "xyz" is not a currency the service takes (e.g. usd, eur)')
    expect(lines).toContain('c.yaml:15: products.cheap.benefits[0]: no benefits entry has the key "nowhere"')
    expect(lines).toContain(
      'c.yaml:16: plans: unknown section "plans": this till handles meters, custom_fields, benefits, products, discounts, checkout_links, webhook_endpoints',
    )
    expect(issues.map((i) => i.line)).toEqual([...issues.map((i) => i.line)].sort((a, b) => a! - b!))
  })

  it('refuses price mixes the service refuses, a missing version and YAML syntax errors', () => {
    const mixed = readCatalog(`version: 1
products:
  p:
    name: Mixed
    prices:
      - {type: fixed, amount: "1.00", currency: usd}
      - {type: custom, minimum: "2.00", preset: "1.00", currency: usd}
`)
    expect(issueLines('f', mixed.issues)).toEqual([
      'f:5: products.p.prices: a product has one fixed price, or one custom (pay what you want) price alone',
      'f:7: products.p.prices[1].preset: the preset amount must be between the minimum and the maximum',
    ])
    expect(issueLines('f', readCatalog('products: {}\n').issues)).toEqual(['f:1: version: "version: 1" is required (the format this till reads)'])
    const broken = readCatalog('version: 1\nproducts:\n  a: [\n')
    expect(broken.issues).toHaveLength(1)
    expect(broken.issues[0]!.line).toBeGreaterThanOrEqual(3)
  })

  it('refuses a key given twice in one map, at the line of the second, in a section or inside an entry', () => {
    const twice = readCatalog(`version: 1
products:
  pro:
    name: Pro
    prices: [{type: free}]
  pro:
    name: Pro again
    prices: [{type: free}]
  team:
    name: Team
    name: Team again
    prices: [{type: free}]
`)
    expect(issueLines('f', twice.issues)).toEqual(['f:6: Map keys must be unique', 'f:11: Map keys must be unique'])
    expect(twice.catalog).toEqual({})
    // the same key (name) in two maps is not a key given twice
    const price = '[{type: fixed, amount: "1.00", currency: usd}]'
    expect(readCatalog(`version: 1\nproducts:\n  pro: {name: Pro, prices: ${price}}\n  pro-2: {name: Pro, prices: ${price}}\n`).issues).toEqual([])
  })

  it('checks the new kinds and their references by key: meters, custom fields, discounts, webhook endpoints', () => {
    const text = `version: 1
meters:
  api-calls:
    name: API calls
    filter: {conjunction: and, clauses: [{property: name, operator: eq, value: api.call}]}
    aggregation: {func: count}
custom_fields:
  company: {type: text, slug: company, name: Company}
benefits:
  credits:
    type: meter_credit
    description: API credits
    properties: {meter: api-callz, units: 10, rollover: false}
products:
  usage:
    name: Usage
    prices:
      - {type: metered, meter: api-calls, unit_amount: "0.005", currency: usd}
    custom_fields:
      - {field: company, required: true}
      - {field: vat-id}
discounts:
  welcome:
    name: Welcome
    type: percentage
    percent: 12.345
    duration: repeating
    products: [usage, nope]
webhook_endpoints:
  hook:
    url: not a url
    events: [order.paid, no.such.event]
`
    const lines = issueLines('c.yaml', readCatalog(text).issues)
    expect(lines).toEqual([
      'c.yaml:13: benefits.credits.properties.meter: no meters entry has the key "api-callz"',
      'c.yaml:18: products.usage.prices[0]: a metered price belongs to a recurring product (give recurring_interval)',
      'c.yaml:21: products.usage.custom_fields[1].field: no custom_fields entry has the key "vat-id"',
      // a missing field is named at its entry's key
      'c.yaml:23: discounts.welcome.duration_in_months: a repeating discount gives duration_in_months',
      'c.yaml:26: discounts.welcome.percent: a percent has at most 2 decimals (the service keeps basis points)',
      'c.yaml:28: discounts.welcome.products[1]: no products entry has the key "nope"',
      'c.yaml:31: webhook_endpoints.hook.url: Invalid URL',
      expect.stringMatching(/^c\.yaml:32: webhook_endpoints\.hook\.events\[1\]: Invalid option/),
    ])
  })

  it('keeps "key" out of the metadata: it is the map key', () => {
    const {issues} = readCatalog('version: 1\nbenefits:\n  b:\n    type: custom\n    description: Thing\n    metadata: {key: other}\n')
    expect(issueLines('f', issues)).toEqual([
      'f:6: benefits.b.metadata: "key" is kept by till (it is the object\'s key in the file): use another metadata name',
    ])
  })
})

describe('writeCatalog', () => {
  it('finds, as it writes, the issues a read of the written file finds, on the same lines', () => {
    const {catalog} = readCatalog(GOOD)
    const issuesOf = (c: Catalog) => {
      const issues: LocatedIssue[] = []
      const text = [...catalogPieces((kind) => c[kind.section] && {keys: Object.keys(c[kind.section]!), entry: (key) => c[kind.section]![key]}, issues)].join(
        '',
      )
      return {issues, text}
    }
    expect(issuesOf(catalog).issues).toEqual([])
    const pro = catalog.products!.pro as Record<string, unknown>
    const cases: Catalog[] = [
      // a reference to no entry, a key the file cannot have, an entry its schema refuses (and one naming it)
      {...catalog, products: {...catalog.products, pro: {...pro, benefits: ['no-such-benefit']}}},
      {...catalog, products: {...catalog.products, 'Bad Key': pro}},
      {...catalog, benefits: {...catalog.benefits, ...Object.fromEntries(Object.keys(catalog.benefits!).map((k) => [k, {type: 'custom'}]))}},
    ]
    for (const c of cases) {
      const {issues, text} = issuesOf(c)
      expect(issues.length).toBeGreaterThan(0)
      expect(issues).toEqual(readCatalog(text).issues)
    }
  })

  it('sorts keys and reads back to the same catalog', () => {
    const {catalog} = readCatalog(GOOD)
    const text = writeCatalog({products: catalog.products!, benefits: catalog.benefits!})
    expect(text.indexOf('benefits:')).toBeLessThan(text.indexOf('products:'))
    expect(text).toContain('amount: "29.00"')
    expect(readCatalog(text)).toEqual({catalog, issues: []})
    // written an entry at a time: a text over lines, with an empty one, a quote and a colon, reads back whole
    const pro = catalog.products!.pro as Record<string, unknown>
    const wordy = {...catalog, products: {...catalog.products, pro: {...pro, description: 'First line: "quoted"\n\n  indented third\n'}}}
    const written = writeCatalog(wordy)
    expect(written).not.toMatch(/ +\n/)
    expect(readCatalog(written).catalog.products!.pro).toEqual(wordy.products.pro)
  })
})

describe('keys', () => {
  it('derives a key from a name', () => {
    expect(slug('Pro Plan (2024)')).toBe('pro-plan-2024')
    expect(slug('E-book: Shipping Software')).toBe('e-book-shipping-software')
    expect(slug('Café Crème')).toBe('cafe-creme')
    expect(slug('***')).toBe('item')
  })

  it('uses a recorded key first, then derives the others oldest first without collisions', () => {
    const items = [
      {id: 'c', created_at: '2026-01-03', name: 'Pro', metadata: {}},
      {id: 'a', created_at: '2026-01-01', name: 'Pro', metadata: {}},
      {id: 'b', created_at: '2026-01-02', name: 'Other', metadata: {key: 'pro'}},
    ]
    const keyed = assignKeys(items, (i) => String(i.name))
    expect(keyed.map((k) => [k.item.id, k.key, k.recorded])).toEqual([
      ['c', 'pro-3', false],
      ['a', 'pro-2', false],
      ['b', 'pro', true],
    ])
  })

  it('cuts a file in the plain layout into entries, and reads any other whole', () => {
    const plain = 'version: 1\nproducts:\n  pro:\n    name: Pro\n  # a note\n  team:\n    name: Team\nbenefits: {}\n'
    const cut = cutCatalog(plain)!
    expect(cut.map((t) => [t.key, t.line, t.entries?.map((e) => [e.key, e.line])])).toEqual([
      ['version', 0, undefined],
      [
        'products',
        1,
        [
          ['pro', 2],
          ['team', 5],
        ],
      ],
      ['benefits', 7, undefined],
    ])
    expect(cut[1]!.entries![0]!.text).toBe('pro:\n  name: Pro\n# a note')
    // anchors and aliases, a document marker, a flow map at the top, a section indented unevenly: whole
    for (const other of [
      'version: 1\nproducts:\n  pro: &p\n    name: Pro\n  team: *p\n',
      '---\nversion: 1\n',
      '{version: 1}\n',
      'version: 1\nproducts:\n    pro:\n      name: Pro\n  team:\n    name: Team\n',
    ]) {
      expect(cutCatalog(other), other).toBeUndefined()
      readCatalog(other)
    }
  })
})
