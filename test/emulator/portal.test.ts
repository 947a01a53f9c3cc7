// Customer sessions and the Customer Portal's scoping to one customer (server/polar/customer_portal/).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, sleep, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief, expectInvalidToken, expectResourceNotFound, expectUnauthorized} from '../helpers/expect.js'
import {allowRefusals} from '../helpers/contract.js'

const HOUR = 3_600_000
const CST_RE = /^polar_cst_[A-Za-z0-9]{43}$/

async function createSession(env: EnvHandle, body: Record<string, unknown>): Promise<Json> {
  const res = await api(env, 'POST', '/customer-sessions/', {body})
  expect(res.status, brief(res)).toBe(201)
  return res.body
}

describe('customer sessions and portal scoping', () => {
  let emulator: Emulator
  let env: EnvHandle
  let orders: Json[]
  /** Customers with orders, most orders first. */
  let buyers: string[]
  let customers: Json[]

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    orders = await listAll(env, '/orders/')
    customers = await listAll(env, '/customers/')
    const counts = new Map<string, number>()
    for (const o of orders) counts.set(o.customer_id, (counts.get(o.customer_id) ?? 0) + 1)
    buyers = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id)
  })
  afterAll(() => emulator?.stop())

  describe('POST /customer-sessions/', () => {
    it('with customer_id: 201, a polar_cst_ token that expires in about one hour', async () => {
      const customerId = buyers[0]!
      const before = Date.now()
      const session = await createSession(env, {customer_id: customerId})
      const after = Date.now()
      expect(session.token).toMatch(CST_RE)
      expect(session.customer_id).toBe(customerId)
      expect(session.customer.id).toBe(customerId)
      const expires = Date.parse(session.expires_at)
      expect(expires).toBeGreaterThanOrEqual(before + HOUR - 1000)
      expect(expires).toBeLessThanOrEqual(after + HOUR + 1000)
      expect(session.customer_portal_url).toContain(`customer_session_token=${session.token}`)
    })

    it('with external_customer_id; the old customer_external_id is not in the published document (422)', async () => {
      allowRefusals()
      const target = customers.find((c) => c.external_id)
      expect(target, 'a seeded customer with an external id').toBeDefined()
      const session = await createSession(env, {external_customer_id: target.external_id})
      expect(session.customer_id).toBe(target.id)
      expect(session.customer.external_id).toBe(target.external_id)
      expect(session.token).toMatch(CST_RE)
      const old = await api(env, 'POST', '/customer-sessions/', {body: {customer_external_id: target.external_id}})
      expect(old.status).toBe(422)
    })

    it('each session gets its own token', async () => {
      const a = await createSession(env, {customer_id: buyers[0]})
      const b = await createSession(env, {customer_id: buyers[0]})
      expect(a.token).not.toBe(b.token)
      expect(a.id).not.toBe(b.id)
    })
  })

  describe('Customer Portal', () => {
    let token: string
    let other: string

    beforeAll(async () => {
      token = (await createSession(env, {customer_id: buyers[0]})).token
      other = buyers[1]!
    })

    it("GET /customer-portal/orders/ lists only the customer's orders, all of them", async () => {
      const own = orders.filter((o) => o.customer_id === buyers[0])
      const res = await api(env, 'GET', '/customer-portal/orders/?limit=100', {token})
      expect(res.status, brief(res)).toBe(200)
      expect(res.body.pagination.total_count).toBe(own.length)
      expect(res.body.items.map((o: Json) => o.id).sort()).toEqual(own.map((o) => o.id).sort())
      for (const o of res.body.items) expect(o.customer_id).toBe(buyers[0])
    })

    it("GET /customer-portal/benefit-grants/ takes the SDK's default sorting (product_benefit, -granted_at), the document's", async () => {
      const sorted = await api(env, 'GET', '/customer-portal/benefit-grants/?sorting=product_benefit&sorting=-granted_at', {token})
      expect(sorted.status, brief(sorted)).toBe(200)
      const plain = await api(env, 'GET', '/customer-portal/benefit-grants/', {token})
      expect(plain.body.items.map((g: Json) => g.id)).toEqual(sorted.body.items.map((g: Json) => g.id))
      for (const key of ['organization', '-type', 'granted_at'])
        expect((await api(env, 'GET', `/customer-portal/benefit-grants/?sorting=${key}`, {token})).status, key).toBe(200)
    })

    it("GET /customer-portal/orders/ and /subscriptions/ sort by every key of the document's", async () => {
      for (const key of ['created_at', 'amount', 'net_amount', 'product', 'subscription'])
        for (const sorting of [key, `-${key}`])
          expect((await api(env, 'GET', `/customer-portal/orders/?sorting=${sorting}`, {token})).status, sorting).toBe(200)
      for (const key of ['started_at', 'amount', 'status', 'organization', 'product'])
        expect((await api(env, 'GET', `/customer-portal/subscriptions/?sorting=-${key}`, {token})).status, key).toBe(200)
      // by product: the product names in order, the orders without a product last
      const byProduct = await api(env, 'GET', '/customer-portal/orders/?sorting=product&limit=100', {token})
      const products = new Map((await listAll(env, '/products/')).map((p: Json) => [p.id, p.name as string]))
      const names = byProduct.body.items.map((o: Json) => products.get(o.product_id) ?? null).filter((n: string | null) => n !== null)
      expect(names).toEqual([...names].sort())
    })

    it('pagination works the same way on the portal', async () => {
      const own = orders.filter((o) => o.customer_id === buyers[0]).length
      expect(own).toBeGreaterThan(1)
      const res = await api(env, 'GET', '/customer-portal/orders/?limit=1&page=2', {token})
      expect(res.status, brief(res)).toBe(200)
      expect(res.body.items).toHaveLength(1)
      expect(res.body.pagination).toEqual({total_count: own, max_page: own})
    })

    it("GET /customer-portal/orders/{id} of the customer's own order is 200", async () => {
      const mine = orders.find((o) => o.customer_id === buyers[0])
      const res = await api(env, 'GET', `/customer-portal/orders/${mine.id}`, {token})
      expect(res.status, brief(res)).toBe(200)
      expect(res.body.id).toBe(mine.id)
      expect(res.body.net_amount).toBe(mine.net_amount)
    })

    it("another customer's order is 404 ResourceNotFound (read, update, invoice)", async () => {
      const theirs = orders.find((o) => o.customer_id === other)
      expectResourceNotFound(await api(env, 'GET', `/customer-portal/orders/${theirs.id}`, {token}))
      expectResourceNotFound(await api(env, 'PATCH', `/customer-portal/orders/${theirs.id}`, {token, body: {billing_name: 'Hijack'}}))
      expectResourceNotFound(await api(env, 'GET', `/customer-portal/orders/${theirs.id}/invoice`, {token}))
      expectResourceNotFound(await api(env, 'POST', `/customer-portal/orders/${theirs.id}/invoice`, {token}))
      const unchanged = await api(env, 'GET', `/orders/${theirs.id}`)
      expect(unchanged.body.billing_name).toBe(theirs.billing_name)
    })

    it('a customer token on a Core route is 401 Unauthorized', async () => {
      expectUnauthorized(await api(env, 'GET', '/orders/', {token}))
      expectUnauthorized(await api(env, 'GET', `/orders/${orders[0].id}`, {token}))
      expectUnauthorized(await api(env, 'GET', '/products/', {token}))
      expectUnauthorized(await api(env, 'POST', '/refunds/', {token, body: {order_id: orders[0].id, reason: 'other', amount: 1}}))
    })

    it('an organization token on a portal route is 401 Unauthorized', async () => {
      expectUnauthorized(await api(env, 'GET', '/customer-portal/orders/'))
      expectUnauthorized(await api(env, 'GET', `/customer-portal/orders/${orders[0].id}`))
    })

    it('no token on a portal route is 401 Unauthorized', async () => {
      expectUnauthorized(await api(env, 'GET', '/customer-portal/orders/', {token: null}))
    })
  })
})

describe('expired customer session', () => {
  let emulator: Emulator

  beforeAll(async () => {
    emulator = await startEmulator({sessionTtl: '1s', orders: 20, customers: 5})
  })
  afterAll(() => emulator?.stop())

  it('works until it expires, then is 401 invalid_token', async () => {
    const env = emulator.production
    const customers = await api(env, 'GET', '/customers/?limit=1')
    const session = await createSession(env, {customer_id: customers.body.items[0].id})
    const lifetime = Date.parse(session.expires_at) - Date.parse(session.created_at)
    expect(lifetime).toBe(1000)
    const fresh = await api(env, 'GET', '/customer-portal/orders/', {token: session.token})
    expect(fresh.status, brief(fresh)).toBe(200)
    await sleep(1300)
    expectInvalidToken(await api(env, 'GET', '/customer-portal/orders/', {token: session.token}))
  })
})
