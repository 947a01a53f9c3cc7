// The Paddle migration source against its fake (test/helpers/fake-paddle.ts): the `after` cursor through
// 1,000 products and 10,000 customers, every price and discount shape, addresses and tax ids, 429 and 5xx
// answers, pacing within the budget, and the key kept out of every error.
import {afterEach, describe, expect, it} from 'vitest'

import type {SourceDiscount, SourceProduct} from '../../src/areas/migrate/model.js'
import {PADDLE_BUDGET, paddleApiBase, paddleSource} from '../../src/areas/migrate/paddle.js'
import {fakePaddle, PADDLE_SHAPES, type PaddleFixtures, paddleFixtures, paddleId} from '../helpers/fake-paddle.js'
import {all, type FakeSource, failure} from '../helpers/fake-source.js'
import {scaled} from '../helpers/machine.js'

const KEY = 'pdl_sdbx_apikey_0123456789'
// a window so short it never paces, and its log stays small
const FAST = {name: 'test', limit: 100_000, windowMs: 10, marginMs: 0}
let fake: FakeSource | undefined
let close: (() => Promise<void>) | undefined

afterEach(async () => {
  await close?.()
  await fake?.close()
  close = fake = undefined
})

async function start(fixtures: PaddleFixtures, options: Partial<Parameters<typeof paddleSource>[0]> = {}) {
  fake = fakePaddle(fixtures, KEY)
  const url = await fake.start()
  const source = paddleSource({key: KEY, apiBase: url, budget: FAST, sleep: async () => {}, ...options})
  close = source.close
  return source
}

describe('till migrate paddle: the source', () => {
  it(
    'follows the after cursor through 1,000 products and 10,000 customers (each with its address), 200 a page',
    async () => {
      const fixtures = paddleFixtures({products: 1000, customers: 10_000})
      const source = await start(fixtures)
      const products = await all(source.products())
      expect(products).toHaveLength(1000)
      expect(new Set(products.map((p) => p.id)).size).toBe(1000)
      const pages = fake!.requests.filter((r) => r.path === '/products')
      expect(pages).toHaveLength(5)
      expect(pages.map((r) => r.query.get('after'))).toEqual([null, ...[199, 399, 599, 799].map((n) => paddleId('pro', n))])
      expect(pages.every((r) => r.query.get('include') === 'prices' && r.query.get('per_page') === '200')).toBe(true)

      const seen: number[] = []
      const customers = await all(source.customers((n) => seen.push(n)))
      expect(customers).toHaveLength(10_000)
      expect(seen.at(-1)).toBe(10_000)
      expect(customers.filter((c) => c.billingAddress !== null)).toHaveLength(5000)
      expect(fake!.count('/customers')).toBe(50)
      expect(fake!.requests.filter((r) => r.path.endsWith('/addresses'))).toHaveLength(10_000)
      expect(fake!.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true)
    },
    scaled(60_000),
  )

  it('maps every price shape, or reports it unsupported with its reason', async () => {
    const source = await start(paddleFixtures({products: PADDLE_SHAPES.length, customers: 0}))
    const byName = new Map<string, SourceProduct>((await all(source.products())).map((p) => [p.name, p]))
    const prices = (n: number) => byName.get(`Product ${n}`)?.prices
    expect(prices(0)).toEqual([
      {kind: 'fixed', id: paddleId('pri', 1), money: {amount: 1500, currency: 'usd'}, interval: 'month', intervalCount: 1, raw: 'standard/every 1 month'},
      {kind: 'fixed', id: paddleId('pri', 2), money: {amount: 15000, currency: 'usd'}, interval: 'year', intervalCount: 1, raw: 'standard/every 1 year'},
    ])
    expect(byName.get('Product 0')).toMatchObject({metadata: {tier: 'gold', seats: '3'}, archived: false, licenseKeys: null, description: 'About product 0'})
    expect(prices(1)).toMatchObject([{kind: 'fixed', money: {amount: 4900}, interval: null, raw: 'standard/one-time'}])
    expect(prices(2)).toMatchObject([{kind: 'free', currency: 'usd', interval: null}])
    expect(prices(3)).toMatchObject([{kind: 'unsupported', reason: 'a minimum quantity of 5'}])
    expect(prices(4)).toMatchObject([{kind: 'unsupported', raw: 'custom/one-time', reason: expect.stringContaining('non-catalog')}, {kind: 'fixed'}])
    expect(prices(5)).toMatchObject([{kind: 'fixed', money: {amount: 2000}, interval: 'month'}])
    expect(byName.get('Product 5')?.changes).toEqual([
      `price ${prices(5)![0]!.id}: its free trial of 7 day(s) is not moved: set one on the Polar product`,
      `price ${prices(5)![0]!.id}: its country prices (IN, BR) are not moved: Polar has one price per currency`,
    ])
    // an archived product keeps its archived price; an active one drops its archived prices
    expect(byName.get('Product 6')).toMatchObject({archived: true, prices: [{kind: 'fixed', money: {amount: 3000}}]})
    expect(prices(7)).toMatchObject([{kind: 'fixed', money: {amount: 200}}])
    expect(prices(8)).toMatchObject([{kind: 'fixed', money: {amount: 800, currency: 'eur'}, interval: 'week', intervalCount: 2}])
    expect(fake!.requests[0]?.query.get('status')).toBe('active,archived')
    expect(fake!.requests[0]?.query.get('type')).toBe('standard')
  })

  it('maps discounts: percentages, flat amounts, per-seat amounts, recurring periods, price restrictions; custom-mode ones left out', async () => {
    const fixtures = paddleFixtures({products: 3, customers: 0})
    const source = await start(fixtures)
    const discounts = await all(source.discounts())
    const byId = new Map<string, SourceDiscount>(discounts.map((d) => [d.id, d]))
    expect(discounts).toHaveLength(5)
    expect(byId.get(paddleId('dsc', 1))).toMatchObject({
      name: 'Launch',
      code: 'LAUNCH',
      value: {type: 'percentage', basisPoints: 1250},
      duration: {type: 'once'},
      productIds: [],
      archived: false,
    })
    const flat = byId.get(paddleId('dsc', 2))
    expect(flat).toMatchObject({value: {type: 'fixed', money: {amount: 500, currency: 'usd'}}, duration: {type: 'repeating', months: 3}})
    // restricted to a product and to two prices of another: the product, and the prices by their own ids (the
    // products made from them are found when converting: a product split by interval has one per price)
    expect(flat?.productIds).toEqual([fixtures.products[1]!.id])
    expect(flat?.priceIds).toEqual([fixtures.prices[0]!.id, fixtures.prices[1]!.id])
    expect(byId.get(paddleId('dsc', 6))).toMatchObject({code: 'YEARLY20', productIds: [], priceIds: [fixtures.prices[1]!.id]})
    expect(flat?.changes).toEqual(['Paddle applies it for 3 billing periods; Polar counts months (the same for monthly prices)'])
    const perSeat = byId.get(paddleId('dsc', 3))
    expect(perSeat).toMatchObject({value: {type: 'fixed', money: {amount: 200, currency: 'eur'}}, duration: {type: 'forever'}, maxRedemptions: 50})
    expect(perSeat?.changes).toEqual(['Paddle takes its amount off each unit; Polar takes it off the order once'])
    expect(byId.get(paddleId('dsc', 4))).toMatchObject({code: null, archived: true, endsAt: '2025-06-01T00:00:00Z'})
    expect(fake!.count('/prices')).toBe(0)
  })

  it("reads each customer's address, and its business's tax id when asked", async () => {
    const source = await start(paddleFixtures({products: 0, customers: 4}), {businesses: true})
    const customers = await all(source.customers())
    expect(customers[0]).toEqual({
      id: paddleId('ctm', 0),
      email: 'customer0@example.com',
      name: null,
      billingAddress: {line1: '0 Main Street', line2: null, postalCode: '10115', city: 'Berlin', state: null, country: 'DE'},
      taxId: {value: 'DE100000000', type: 'eu_vat'},
    })
    expect(customers[1]).toMatchObject({name: 'Customer 1', billingAddress: null, taxId: null})
    expect(customers[2]).toMatchObject({taxId: null, billingAddress: {country: 'DE'}})
    expect(fake!.count(`/customers/${paddleId('ctm', 0)}/businesses`)).toBe(1)
    await close?.()
    await fake?.close()
    const bare = await start(paddleFixtures({products: 0, customers: 4}), {addresses: false})
    expect((await all(bare.customers())).every((c) => c.billingAddress === null)).toBe(true)
    expect(fake!.requests.map((r) => r.path)).toEqual(['/customers'])
  })

  it('counts the subscriptions that still renew as leftovers', async () => {
    const source = await start(paddleFixtures({products: 0, customers: 0, subscriptions: 25}))
    // 25 subscriptions cycling through five statuses: all but canceled still renew
    expect(await source.leftovers()).toEqual({activeSubscriptions: 20, savedPaymentMethods: 0})
    expect(fake!.requests[0]?.query.get('status')).toBe('active,trialing,past_due,paused')
  })

  it('waits out a 429 for its Retry-After and retries 5xx answers, asking the same page again', async () => {
    const slept: number[] = []
    let clock = 1_000_000
    const sleep = async (ms: number) => {
      slept.push(ms)
      clock += ms
    }
    const source = await start(paddleFixtures({products: 450, customers: 0}), {sleep, now: () => clock})
    fake!.fail({status: 500, path: '/products'})
    fake!.fail({status: 429, retryAfter: '9', path: '/products'})
    fake!.fail({status: 502, path: '/products'})
    const products = await all(source.products())
    expect(products).toHaveLength(450)
    expect(slept.some((ms) => ms >= 9000)).toBe(true)
    expect(fake!.requests.map((r) => r.query.get('after'))).toEqual([null, null, null, null, paddleId('pro', 199), paddleId('pro', 399)])
  })

  it('gives up on a source that keeps failing, and on a refused key, in one line without the key', async () => {
    const source = await start(paddleFixtures({products: 1, customers: 1}))
    fake!.fail({status: 503, path: '/discounts'}, 10)
    const error = await failure(all(source.discounts()))
    expect(error.exitCode).toBe(6)
    expect(error.message).toBe('Paddle answered HTTP 503 to GET /discounts?per_page=200: An internal error occurred')
    const wrong = 'pdl_live_apikey_zyxwvutsrq'
    const refused = paddleSource({key: wrong, apiBase: fake!.url, budget: FAST})
    const denied = await failure(all(refused.products()))
    await refused.close()
    expect(denied.exitCode).toBe(4)
    expect(denied.message).toMatch(/^Paddle refused the API key \(HTTP 401 to GET \/products\?/)
    expect(denied.hint).toContain('PADDLE_API_KEY')
    expect(`${error.message} ${error.hint} ${denied.message} ${denied.hint} ${denied.stack}`).not.toMatch(/pdl_(sdbx|live)_apikey/)
  })

  it('reads the sandbox with a sandbox key, the live API with a live one', () => {
    expect(paddleApiBase('pdl_sdbx_apikey_01abc')).toBe('https://sandbox-api.paddle.com')
    expect(paddleApiBase('pdl_live_apikey_01abc')).toBe('https://api.paddle.com')
  })

  it('paces its requests within the budget (240 a minute by default)', async () => {
    expect(PADDLE_BUDGET).toMatchObject({limit: 240, windowMs: 60_000})
    let clock = 1_000_000
    const source = await start(paddleFixtures({products: 0, customers: 12}), {
      budget: {name: 'pdl', limit: 4, windowMs: 1000},
      addresses: true,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms
      },
    })
    expect(await all(source.customers())).toHaveLength(12)
    // 13 requests (a page and twelve addresses) at 4 a second
    expect(clock - 1_000_000).toBeGreaterThanOrEqual(3000)
  })
})
