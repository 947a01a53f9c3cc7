import {describe, expect, it} from 'vitest'

import {issueLines, readCatalog, writeCatalog} from './document.js'
import {assignKeys, slug} from './keys.js'

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
meters: {}
`
    const {issues} = readCatalog(text)
    const lines = issueLines('c.yaml', issues)
    expect(lines).toContain('c.yaml:4: benefits.support.type: Invalid option: expected one of "custom"|"license_keys"|"downloadables"|"discord"|"github_repository"|"meter_credit"|"feature_flag"')
    expect(lines.some((l) => l.startsWith('c.yaml:7: products.Pro Plan: "Pro Plan": a key is 1-40 characters'))).toBe(true)
    expect(lines).toContain('c.yaml:10: products.Pro Plan.prices[0].amount: amount 29.001 has more decimals than USD allows (2)')
    expect(lines).toContain('c.yaml:14: products.cheap.prices[0].currency: "xyz" is not a currency the service takes (e.g. usd, eur)')
    expect(lines).toContain('c.yaml:15: products.cheap.benefits[0]: no benefits entry has the key "nowhere"')
    expect(lines).toContain('c.yaml:16: meters: unknown section "meters": this till handles benefits, products, checkout_links')
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

  it('keeps "key" out of the metadata: it is the map key', () => {
    const {issues} = readCatalog('version: 1\nbenefits:\n  b:\n    type: custom\n    description: Thing\n    metadata: {key: other}\n')
    expect(issueLines('f', issues)).toEqual(['f:6: benefits.b.metadata: "key" is kept by till (it is the object\'s key in the file): use another metadata name'])
  })
})

describe('writeCatalog', () => {
  it('sorts keys and reads back to the same catalog', () => {
    const {catalog} = readCatalog(GOOD)
    const text = writeCatalog({products: catalog.products!, benefits: catalog.benefits!})
    expect(text.indexOf('benefits:')).toBeLessThan(text.indexOf('products:'))
    expect(text).toContain('amount: "29.00"')
    expect(readCatalog(text)).toEqual({catalog, issues: []})
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
})
