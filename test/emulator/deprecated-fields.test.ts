// Deprecated fields stay beside their replacements with the same values, and deprecated inputs are
// still accepted (server/polar/kit/versioning.py).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {allowRefusals} from '../helpers/contract.js'

describe('deprecated fields', () => {
  let emulator: Emulator
  let env: EnvHandle
  let product: Json

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    const products = await listAll(env, '/products/', 'is_archived=false')
    product = products.find((p) => p.visibility === 'public' && p.prices.some((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0))
  })
  afterAll(() => emulator?.stop())

  it('order: amount = net_amount, product_price_id = items[0].product_price_id, product_price.id = that id', async () => {
    const orders = await listAll(env, '/orders/')
    expect(orders.length).toBeGreaterThan(0)
    for (const o of orders) {
      expect(o.amount, o.id).toBe(o.net_amount)
      expect(o.product_price_id, o.id).toBe(o.items[0].product_price_id)
      expect(o.product_price_id, o.id).not.toBeNull()
      expect(o.product_price.id, o.id).toBe(o.product_price_id)
      expect(o.product_price.product_id, o.id).toBe(o.product_id)
    }
  })

  it('subscription: price_id = prices[0].id and price = prices[0]', async () => {
    const subscriptions = await listAll(env, '/subscriptions/')
    expect(subscriptions.length).toBeGreaterThan(0)
    for (const s of subscriptions) {
      expect(Array.isArray(s.prices), s.id).toBe(true)
      expect(s.prices.length, s.id).toBeGreaterThan(0)
      expect(s.price_id, s.id).toBe(s.prices[0].id)
      expect(s.price, s.id).toEqual(s.prices[0])
    }
    const one = await api(env, 'GET', `/subscriptions/${subscriptions[0].id}`)
    expect(one.status, brief(one)).toBe(200)
    expect(one.body.price_id).toBe(one.body.prices[0].id)
    expect(one.body.price).toEqual(one.body.prices[0])
  })

  it('checkout: subtotal_amount = net_amount and customer_external_id = external_customer_id (seeded)', async () => {
    const checkouts = await listAll(env, '/checkouts/')
    expect(checkouts.length).toBeGreaterThan(0)
    for (const c of checkouts) {
      expect(c.subtotal_amount, c.id).toBe(c.net_amount)
      expect(c.net_amount, c.id).toBe(c.amount - c.discount_amount)
      expect(c.customer_external_id, c.id).toBe(c.external_customer_id)
    }
    expect(checkouts.some((c) => c.external_customer_id !== null)).toBe(true)
  })

  it('POST /checkouts/ with external_customer_id: both fields carry it', async () => {
    const res = await api(env, 'POST', '/checkouts/', {body: {products: [product.id], external_customer_id: 'ext-new-1'}})
    expect(res.status, brief(res)).toBe(201)
    expect(res.body.external_customer_id).toBe('ext-new-1')
    expect(res.body.customer_external_id).toBe('ext-new-1')
    expect(res.body.subtotal_amount).toBe(res.body.net_amount)
  })

  it('POST /checkouts/ ignores the old customer_external_id, which the published CheckoutCreate no longer has', async () => {
    allowRefusals() // the undeclared field, on purpose
    const res = await api(env, 'POST', '/checkouts/', {body: {products: [product.id], customer_external_id: 'ext-old-2'}})
    expect(res.status, brief(res)).toBe(201)
    expect(res.body.external_customer_id).toBeNull()
  })

  it('POST /customer-sessions/ takes external_customer_id; the old customer_external_id is gone from the published document (422)', async () => {
    allowRefusals()
    const customers = await listAll(env, '/customers/')
    const target = customers.find((c) => c.external_id)
    expect(target).toBeDefined()
    const current = await api(env, 'POST', '/customer-sessions/', {body: {external_customer_id: target.external_id}})
    expect(current.status, brief(current)).toBe(201)
    expect(current.body.customer_id).toBe(target.id)
    const old = await api(env, 'POST', '/customer-sessions/', {body: {customer_external_id: target.external_id}})
    expect(old.status, brief(old)).toBe(422)
  })
})
