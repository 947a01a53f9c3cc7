// The Lemon Squeezy migration source against its fake (test/helpers/fake-lemonsqueezy.ts): paging through
// 1,000 products and 10,000 customers, every price and discount shape, the store filter, 429 and 5xx
// answers, pacing within the budget, and the key kept out of every error.
import {afterEach, describe, expect, it} from 'vitest'

import {LEMONSQUEEZY_BUDGET, lemonSqueezySource, plainText, relatedIds} from '../../src/areas/migrate/lemonsqueezy.js'
import type {SourceCustomer, SourceDiscount, SourceProduct} from '../../src/areas/migrate/model.js'
import {fakeLemonSqueezy, LS_SHAPES, type LsFixtures, lsFixtures} from '../helpers/fake-lemonsqueezy.js'
import {all, FakeSource, failure} from '../helpers/fake-source.js'

const KEY = 'ls_test_key_0123456789'
// a window so short it never paces, and its log stays small
const FAST = {name: 'test', limit: 100_000, windowMs: 10, marginMs: 0}
let fake: FakeSource | undefined
let close: (() => Promise<void>) | undefined

afterEach(async () => {
  await close?.()
  await fake?.close()
  close = fake = undefined
})

async function start(fixtures: LsFixtures, options: Partial<Parameters<typeof lemonSqueezySource>[0]> = {}) {
  fake = fakeLemonSqueezy(fixtures, KEY)
  const url = await fake.start()
  const source = lemonSqueezySource({key: KEY, apiBase: `${url}/v1`, budget: FAST, sleep: async () => {}, ...options})
  close = source.close
  return source
}

describe('till migrate lemonsqueezy: the source', () => {
  it('pages through 1,000 products (a product per sold variant) and 10,000 customers, 100 a page', async () => {
    const fixtures = lsFixtures({products: 1000, customers: 10_000})
    const source = await start(fixtures)
    const seen: number[] = []
    const products = await all(source.products((n) => seen.push(n)))
    const expected = fixtures.products.reduce((sum, _, i) => sum + (LS_SHAPES[i % LS_SHAPES.length]!.variants ?? 1), 0)
    expect(products).toHaveLength(expected)
    expect(new Set(products.map((p) => p.id)).size).toBe(expected)
    expect(seen.at(-1)).toBe(expected)
    // no pending default variant of a product with variants is sold
    const pending = new Set(fixtures.variants.filter((v) => v.attributes.status === 'pending').map((v) => v.id))
    const several = new Set(fixtures.products.filter((_, i) => (LS_SHAPES[i % LS_SHAPES.length]!.variants ?? 1) > 1).map((p) => p.id))
    expect(products.filter((p) => pending.has(p.id) && several.has(p.metadata.lemonsqueezy_product_id!))).toEqual([])
    // every 50th product is in the second store, priced in euros
    expect(products.find((p) => p.metadata.lemonsqueezy_product_id === '149')?.prices[0]).toMatchObject({money: {currency: 'eur'}})
    expect(fake!.count('/v1/products')).toBe(10)
    expect(fake!.count('/v1/variants')).toBe(Math.ceil(fixtures.variants.length / 100))

    const customers = await all(source.customers())
    expect(customers).toHaveLength(10_000)
    expect(new Set(customers.map((c) => c.email)).size).toBe(10_000)
    const pages = fake!.requests.filter((r) => r.path === '/v1/customers')
    expect(pages).toHaveLength(100)
    expect(pages.map((r) => r.query.get('page[number]'))).toEqual(Array.from({length: 100}, (_, i) => String(i + 1)))
    expect(pages.every((r) => r.query.get('page[size]') === '100')).toBe(true)
    expect(fake!.requests.every((r) => r.authorization === `Bearer ${KEY}` && r.accept === 'application/vnd.api+json')).toBe(true)
  })

  it('maps every price shape, or reports it unsupported with its reason', async () => {
    const source = await start(lsFixtures({products: LS_SHAPES.length, customers: 0}))
    const byName = new Map<string, SourceProduct>((await all(source.products())).map((p) => [p.name, p]))
    const price = (name: string) => byName.get(name)?.prices[0]
    expect(price('Product 0')).toEqual({
      kind: 'fixed',
      id: expect.any(String),
      money: {amount: 1500, currency: 'usd'},
      interval: 'month',
      intervalCount: 1,
      raw: 'subscription/standard',
    })
    expect(price('Product 1')).toMatchObject({kind: 'fixed', money: {amount: 12000}, interval: 'year', intervalCount: 1})
    expect(byName.get('Product 1')?.changes).toEqual(['its free trial of 14 day(s) is not moved: set one on the Polar product'])
    expect(price('Product 2')).toMatchObject({kind: 'fixed', money: {amount: 4900, currency: 'usd'}, interval: null})
    expect(price('Product 3')).toMatchObject({kind: 'custom', currency: 'usd', minimum: 500, maximum: null, preset: null, interval: null})
    expect(price('Product 4')).toMatchObject({kind: 'free', currency: 'usd', interval: null})
    expect(byName.has('Product 5')).toBe(false)
    expect(price('Product 5 — Tier 1')).toMatchObject({kind: 'fixed', money: {amount: 2900}})
    expect(price('Product 5 — Tier 2')).toMatchObject({kind: 'fixed', money: {amount: 3900}})
    expect(price('Product 6')).toMatchObject({kind: 'unsupported', raw: 'subscription/graduated', reason: 'graduated tiered pricing'})
    expect(price('Product 7')).toMatchObject({kind: 'unsupported', raw: 'one_time/package', reason: 'package pricing (10 units per package)'})
    expect(price('Product 8')).toMatchObject({kind: 'metered', currency: 'usd', unitAmount: '0.5', meterName: 'Product 8 usage', interval: 'month'})
    expect(byName.get('Product 9')).toMatchObject({archived: true, licenseKeys: {activationLimit: 3, expiresInDays: 365}})
    expect(byName.get('Product 9')?.changes).toEqual(['license keys that expire after 1 years expire after 365 days'])
    expect(byName.get('Product 0')).toMatchObject({archived: false, licenseKeys: null, description: 'About Product 0 & more'})
    expect(price('Product 10')).toMatchObject({kind: 'fixed', money: {amount: 900}, interval: 'week', intervalCount: 2})
    expect(byName.get('Product 10')?.changes).toEqual(['its setup fee of 2500 (minor units) is not moved: Polar prices have none'])
    expect(price('Product 11')).toMatchObject({kind: 'unsupported', reason: expect.stringContaining('last ever value')})
    expect(byName.get('Product 12')).toMatchObject({archived: false, licenseKeys: {activationLimit: null, expiresInDays: null}})
    expect(byName.get('Product 12')?.changes).toBeUndefined()
  })

  it('maps discounts (percent, fixed in the store currency, durations, limits, variants) and customers', async () => {
    const fixtures = lsFixtures({products: 3, customers: 4})
    const source = await start(fixtures)
    const discounts = new Map<string, SourceDiscount>((await all(source.discounts())).map((d) => [d.code ?? '', d]))
    expect(discounts.get('LAUNCH20')).toMatchObject({name: 'Launch', value: {type: 'percentage', basisPoints: 2000}, duration: {type: 'once'}, productIds: []})
    expect(discounts.get('TENOFF')).toMatchObject({
      value: {type: 'fixed', money: {amount: 1000, currency: 'usd'}},
      duration: {type: 'repeating', months: 3},
      productIds: fixtures.variants.slice(0, 3).map((v) => v.id),
    })
    expect(discounts.get('FOREVER5')).toMatchObject({duration: {type: 'forever'}, maxRedemptions: 100, archived: false})
    expect(discounts.get('OLD')).toMatchObject({archived: true, endsAt: '2025-01-01T00:00:00.000000Z', maxRedemptions: null})
    expect(discounts.get('EURO')?.value).toEqual({type: 'fixed', money: {amount: 300, currency: 'eur'}})
    expect(fake!.requests.find((r) => r.path === '/v1/discounts')?.query.get('include')).toBe('variants')

    const customers = await all(source.customers())
    expect(customers[0]).toEqual<SourceCustomer>({
      id: '1',
      email: 'customer0@example.com',
      name: 'Customer 0',
      billingAddress: {line1: null, line2: null, postalCode: null, city: 'Berlin', state: 'Berlin', country: 'DE'},
      taxId: null,
    })
    expect(customers[1]?.billingAddress).toBeNull()
  })

  it('counts the subscriptions that still renew as leftovers', async () => {
    const source = await start(lsFixtures({products: 1, customers: 0, subscriptions: 30}))
    // 30 subscriptions cycling through six statuses: active, on_trial, past_due and paused still renew
    expect(await source.leftovers()).toEqual({activeSubscriptions: 20, savedPaymentMethods: 0})
  })

  it('reads one store with --store, and names the stores there are when it is not one of them', async () => {
    let source = await start(lsFixtures({products: 100, customers: 0}), {store: '2'})
    const products = await all(source.products())
    expect(products.map((p) => p.metadata.lemonsqueezy_store_id)).toEqual(['2', '2'])
    expect(fake!.requests.filter((r) => r.path === '/v1/products').every((r) => r.query.get('filter[store_id]') === '2')).toBe(true)
    await close?.()
    await fake?.close()
    source = await start(lsFixtures({products: 1, customers: 0}), {store: '7'})
    const error = await failure(all(source.products()))
    expect(error.message).toBe('Lemon Squeezy has no store 7 for this API key')
    expect(error.hint).toContain('its stores: 1, 2')
  })

  it('waits out a 429 for its Retry-After and retries 5xx answers', async () => {
    const slept: number[] = []
    let clock = 1_000_000
    const sleep = async (ms: number) => {
      slept.push(ms)
      clock += ms
    }
    const source = await start(lsFixtures({products: 250, customers: 0}), {sleep, now: () => clock})
    fake!.fail({status: 429, retryAfter: '7', path: '/v1/variants'})
    fake!.fail({status: 500, path: '/v1/products'}, 2)
    fake!.fail({status: 503, path: '/v1/variants'})
    const products = await all(source.products())
    // 19 of the 250 have two variants sold
    expect(products).toHaveLength(250 + 19)
    expect(slept.some((ms) => ms >= 7000)).toBe(true)
    const variantPages = fake!.requests.filter((r) => r.path === '/v1/variants').map((r) => r.query.get('page[number]'))
    // the refused pages were asked again, none skipped
    expect(variantPages).toEqual(['1', '1', '1', '2', '3'])
  })

  it('gives up on a source that keeps failing, in one line without the key', async () => {
    const source = await start(lsFixtures({products: 1, customers: 1}))
    fake!.fail({status: 503, path: '/v1/customers'}, 10)
    const error = await failure(all(source.customers()))
    expect(error.exitCode).toBe(6)
    expect(error.message).toBe('Lemon Squeezy answered HTTP 503 to GET /v1/customers?page%5Bnumber%5D=1&page%5Bsize%5D=100: Server Error')
    expect(`${error.message} ${error.hint}`).not.toContain(KEY)
  })

  it('says the key was refused, naming the variable, never the key', async () => {
    await start(lsFixtures({products: 1, customers: 1}))
    const wrong = 'ls_wrong_key_abcdefghijkl'
    const source = lemonSqueezySource({key: wrong, apiBase: `${fake!.url}/v1`, budget: FAST})
    const error = await failure(all(source.customers()))
    await source.close()
    expect(error.exitCode).toBe(4)
    expect(error.message).toBe('Lemon Squeezy refused the API key (HTTP 401 to GET /v1/customers?page%5Bnumber%5D=1&page%5Bsize%5D=100)')
    expect(error.hint).toContain('LEMONSQUEEZY_API_KEY')
    expect(`${error.message} ${error.hint} ${error.stack}`).not.toContain(wrong)
  })

  it('masks the key where a source echoes it back in an error', async () => {
    const echo = new FakeSource(
      KEY,
      () => ({status: 422, body: {errors: [{detail: `key ${KEY} may not list customers`}]}}),
      () => ({}),
    )
    fake = echo
    const url = await echo.start()
    const source = lemonSqueezySource({key: KEY, apiBase: `${url}/v1`, budget: FAST})
    close = source.close
    const error = await failure(all(source.customers()))
    expect(error.message).toBe('Lemon Squeezy answered HTTP 422 to GET /v1/customers?page%5Bnumber%5D=1&page%5Bsize%5D=100: key … may not list customers')
  })

  it('paces its requests within the budget (300 a minute by default)', async () => {
    expect(LEMONSQUEEZY_BUDGET).toMatchObject({limit: 300, windowMs: 60_000})
    let clock = 1_000_000
    const source = await start(lsFixtures({products: 0, customers: 1200}), {
      budget: {name: 'ls', limit: 5, windowMs: 1000},
      pageSize: 100,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms
      },
    })
    expect(await all(source.customers())).toHaveLength(1200)
    // 12 pages at 5 a second: the 6th and the 11th waited for the window to move
    expect(clock - 1_000_000).toBeGreaterThanOrEqual(2000)
  })

  it('reads a to-one relationship as JSON:API sends it, and descriptions as text', () => {
    expect(relatedIds({id: '1', type: 'variants', attributes: {}, relationships: {'price-model': {data: {id: '9', type: 'prices'}}}}, 'price-model')).toEqual([
      '9',
    ])
    expect(plainText('<p>One&nbsp;line</p><p>Two <b>bold</b> &lt;3</p>')).toBe('One line\nTwo bold <3')
  })
})
