// Production and sandbox are fully isolated: tokens, organizations and data.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator} from '../helpers/emulator.js'
import {brief, expectInvalidToken, expectResourceNotFound} from '../helpers/expect.js'

describe('environment isolation', () => {
  let emulator: Emulator

  beforeAll(async () => {
    emulator = await startEmulator({orders: 20, customers: 8})
  })
  afterAll(() => emulator?.stop())

  it('the two environments have different addresses, organizations and tokens', () => {
    const {production, sandbox} = emulator
    expect(production.url).not.toBe(sandbox.url)
    expect(production.organizationId).not.toBe(sandbox.organizationId)
    expect(production.token).not.toBe(sandbox.token)
  })

  it('each organization token sees only its own organization', async () => {
    for (const [env, other] of [
      [emulator.production, emulator.sandbox],
      [emulator.sandbox, emulator.production],
    ]) {
      const list = await api(env, 'GET', '/organizations/')
      expect(list.status, brief(list)).toBe(200)
      expect(list.body.items.map((o: {id: string}) => o.id)).toEqual([env.organizationId])
      const own = await api(env, 'GET', `/organizations/${env.organizationId}`)
      expect(own.status, brief(own)).toBe(200)
      expect(own.body.id).toBe(env.organizationId)
      expectResourceNotFound(await api(env, 'GET', `/organizations/${other.organizationId}`))
    }
  })

  it('a production token on the sandbox address is invalid_token, and vice versa', async () => {
    const {production, sandbox} = emulator
    expectInvalidToken(await api(sandbox, 'GET', '/products/', {token: production.token}))
    expectInvalidToken(await api(production, 'GET', '/products/', {token: sandbox.token}))
    expectInvalidToken(await api(sandbox, 'GET', '/orders/', {token: production.token}))
    expectInvalidToken(await api(production, 'GET', '/orders/', {token: sandbox.token}))
  })

  it('a customer session token of one environment is invalid_token in the other', async () => {
    const {production, sandbox} = emulator
    const customers = await api(production, 'GET', '/customers/?limit=1')
    const session = await api(production, 'POST', '/customer-sessions/', {body: {customer_id: customers.body.items[0].id}})
    expect(session.status, brief(session)).toBe(201)
    expectInvalidToken(await api(sandbox, 'GET', '/customer-portal/orders/', {token: session.body.token}))
  })

  it('objects created in one environment are 404 in the other', async () => {
    for (const [env, other] of [
      [emulator.production, emulator.sandbox],
      [emulator.sandbox, emulator.production],
    ]) {
      const created = await api(env, 'POST', '/products/', {
        body: {name: `Only in ${env.name}`, prices: [{amount_type: 'fixed', price_amount: 700}]},
      })
      expect(created.status, brief(created)).toBe(201)
      expect(created.body.organization_id).toBe(env.organizationId)
      const here = await api(env, 'GET', `/products/${created.body.id}`)
      expect(here.status, brief(here)).toBe(200)
      expectResourceNotFound(await api(other, 'GET', `/products/${created.body.id}`))
      const search = await api(other, 'GET', `/products/?query=${encodeURIComponent(`Only in ${env.name}`)}`)
      expect(search.body.pagination.total_count).toBe(0)
    }
  })

  it('seeded data is separate: an order of one environment is 404 in the other', async () => {
    const {production, sandbox} = emulator
    const prodOrders = await api(production, 'GET', '/orders/?limit=100')
    const sandboxOrders = await api(sandbox, 'GET', '/orders/?limit=100')
    const prodIds = new Set(prodOrders.body.items.map((o: {id: string}) => o.id))
    expect(prodIds.size).toBeGreaterThan(0)
    for (const o of sandboxOrders.body.items) expect(prodIds.has(o.id)).toBe(false)
    expectResourceNotFound(await api(sandbox, 'GET', `/orders/${prodOrders.body.items[0].id}`))
    expectResourceNotFound(await api(production, 'GET', `/orders/${sandboxOrders.body.items[0].id}`))
  })

  it('changes in one environment do not touch the other', async () => {
    const {production, sandbox} = emulator
    const before = await api(sandbox, 'GET', '/customers/')
    const created = await api(production, 'POST', '/customers/', {body: {email: 'isolated.customer@example.com', name: 'Isolated'}})
    expect(created.status, brief(created)).toBe(201)
    const after = await api(sandbox, 'GET', '/customers/')
    expect(after.body.pagination.total_count).toBe(before.body.pagination.total_count)
    const lookup = await api(sandbox, 'GET', '/customers/?email=isolated.customer@example.com')
    expect(lookup.body.pagination.total_count).toBe(0)
    // The same email is free in the other environment.
    const twin = await api(sandbox, 'POST', '/customers/', {body: {email: 'isolated.customer@example.com', name: 'Isolated'}})
    expect(twin.status, brief(twin)).toBe(201)
    expect(twin.body.id).not.toBe(created.body.id)
  })
})
