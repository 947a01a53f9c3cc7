// Orders: amounts that add up, seeded coverage of every status, the pending -> paid transition after
// a checkout, and the refund transitions (server/polar/order/service.py, server/polar/refund/service.py).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief, expectDomainError, expectValidationError} from '../helpers/expect.js'
import {eventually, scaled} from '../helpers/machine.js'

// long enough that a slow machine still reads the order before it is paid (the check of 'pending' below)
const PAYMENT_DELAY_MS = scaled(1_000)
const STATUSES = ['draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void']

describe('orders', () => {
  let emulator: Emulator
  let env: EnvHandle
  let seeded: Json[]

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: `${PAYMENT_DELAY_MS}ms`})
    env = emulator.production
    seeded = await listAll(env, '/orders/')
  })
  afterAll(() => emulator?.stop())

  describe('seeded orders (default seed size)', () => {
    it('amounts add up on every order', () => {
      expect(seeded.length).toBeGreaterThan(0)
      for (const o of seeded) {
        const where = `order ${o.id} (${o.status})`
        for (const key of ['subtotal_amount', 'discount_amount', 'net_amount', 'tax_amount', 'total_amount', 'refunded_amount', 'refundable_amount']) {
          expect(Number.isInteger(o[key]), `${where}: ${key}`).toBe(true)
          expect(o[key], `${where}: ${key}`).toBeGreaterThanOrEqual(0)
        }
        expect(o.net_amount, where).toBe(o.subtotal_amount - o.discount_amount)
        expect(o.total_amount, where).toBe(o.net_amount + o.tax_amount)
        expect(o.items.length, where).toBeGreaterThan(0)
        expect(
          o.items.reduce((sum: number, i: Json) => sum + i.amount, 0),
          where,
        ).toBe(o.subtotal_amount)
        expect(o.refundable_amount, where).toBe(Math.max(0, o.net_amount + o.applied_balance_amount - o.refunded_amount))
        expect(o.currency, where).toMatch(/^[a-z]{3}$/)
      }
    })

    it('cover every status', () => {
      const statuses = new Set(seeded.map((o) => o.status))
      for (const s of STATUSES) expect(statuses, `status ${s}`).toContain(s)
      for (const s of statuses) expect(STATUSES).toContain(s)
    })

    it('`paid` is true exactly for paid, refunded and partially refunded orders', () => {
      for (const o of seeded) expect(o.paid, `${o.id} ${o.status}`).toBe(['paid', 'refunded', 'partially_refunded'].includes(o.status))
    })

    it('refund statuses match the refunded amounts', () => {
      for (const o of seeded) {
        if (o.status === 'refunded') expect(o.refunded_amount, o.id).toBe(o.net_amount + o.applied_balance_amount)
        else if (o.status === 'partially_refunded') {
          expect(o.refunded_amount, o.id).toBeGreaterThan(0)
          expect(o.refunded_amount, o.id).toBeLessThan(o.net_amount + o.applied_balance_amount)
        } else expect(o.refunded_amount, `${o.id} ${o.status}`).toBe(0)
      }
    })

    it('paid orders include some with and some without billing details, with and without an invoice', () => {
      const paid = seeded.filter((o) => o.status === 'paid')
      expect(paid.some((o) => o.billing_name !== null && o.billing_address !== null)).toBe(true)
      expect(paid.some((o) => o.billing_name === null)).toBe(true)
      expect(paid.some((o) => o.is_invoice_generated)).toBe(true)
      expect(paid.some((o) => !o.is_invoice_generated)).toBe(true)
      expect(paid.some((o) => !o.is_invoice_generated && o.billing_name !== null)).toBe(true)
    })

    it('GET /orders/{id} returns the same order as the list', async () => {
      const o = seeded[0]
      const res = await api(env, 'GET', `/orders/${o.id}`)
      expect(res.status, brief(res)).toBe(200)
      expect(res.body).toEqual(o)
    })

    it('the status filter returns only that status', async () => {
      for (const status of STATUSES) {
        const res = await api(env, 'GET', `/orders/?status=${status}&limit=100`)
        expect(res.status, brief(res)).toBe(200)
        expect(res.body.pagination.total_count).toBe(seeded.filter((o) => o.status === status).length)
        for (const o of res.body.items) expect(o.status).toBe(status)
      }
    })
  })

  describe('checkout -> order: pending, then paid after the payment delay', () => {
    it('a confirmed checkout creates a pending order that becomes paid', async () => {
      const products = await listAll(env, '/products/', 'is_archived=false&is_recurring=false')
      const product = products.find((p) => p.visibility === 'public' && p.prices.some((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0))
      expect(product, 'a public one-time product with a paid fixed price').toBeDefined()
      const price = product.prices.find((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0)

      const checkout = await api(env, 'POST', '/checkouts/', {body: {products: [product.id]}})
      expect(checkout.status, brief(checkout)).toBe(201)
      expect(checkout.body.status).toBe('open')
      expect(checkout.body.client_secret).toMatch(/^polar_c_/)
      expect(checkout.body.amount).toBe(price.price_amount)

      const confirm = await api(env, 'POST', `/checkouts/client/${checkout.body.client_secret}/confirm`, {
        token: null,
        body: {customer_email: 'flow.buyer@example.com', customer_name: 'Flow Buyer', customer_billing_address: {country: 'US'}},
      })
      expect(confirm.status, brief(confirm)).toBe(200)
      expect(['confirmed', 'succeeded']).toContain(confirm.body.status)

      const found = await api(env, 'GET', `/orders/?checkout_id=${checkout.body.id}`)
      expect(found.status, brief(found)).toBe(200)
      expect(found.body.pagination.total_count).toBe(1)
      const order = found.body.items[0]
      expect(order.checkout_id).toBe(checkout.body.id)
      expect(order.status).toBe('pending')
      expect(order.paid).toBe(false)
      expect(order.product_id).toBe(product.id)
      expect(order.subtotal_amount).toBe(price.price_amount)
      expect(order.customer.email).toBe('flow.buyer@example.com')

      const paid = await eventually('the order paid', async () => {
        const read = await api(env, 'GET', `/orders/${order.id}`)
        return read.body.status === 'paid' && read
      })
      expect(paid.body.status).toBe('paid')
      expect(paid.body.paid).toBe(true)
      const checkoutAfter = await api(env, 'GET', `/checkouts/${checkout.body.id}`)
      expect(checkoutAfter.body.status).toBe('succeeded')
    })
  })

  describe('refund transitions', () => {
    it('partial refund -> partially_refunded, the rest -> refunded, then RefundedAlready', async () => {
      const order =
        seeded.find((o) => o.status === 'paid' && o.refunded_amount === 0 && o.net_amount >= 300 && o.tax_amount > 0) ??
        seeded.find((o) => o.status === 'paid' && o.refunded_amount === 0 && o.net_amount >= 300)
      expect(order, 'a paid, unrefunded seeded order').toBeDefined()
      const net = order.net_amount
      const partial = Math.floor(net / 3)

      const first = await api(env, 'POST', '/refunds/', {body: {order_id: order.id, reason: 'customer_request', amount: partial}})
      expect(first.status, brief(first)).toBe(201)
      expect(first.body).toMatchObject({order_id: order.id, amount: partial, reason: 'customer_request', customer_id: order.customer_id})
      let now = (await api(env, 'GET', `/orders/${order.id}`)).body
      expect(now.status).toBe('partially_refunded')
      expect(now.paid).toBe(true)
      expect(now.refunded_amount).toBe(partial)
      expect(now.refundable_amount).toBe(net - partial)
      expect(now.refunded_tax_amount).toBe(first.body.tax_amount)
      expect(now.refundable_tax_amount).toBe(order.tax_amount - first.body.tax_amount)

      const tooMuch = await api(env, 'POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: net - partial + 1}})
      const entry = expectValidationError(tooMuch, 'PolarRequestValidationError', ['body', 'amount'])
      expect(entry.msg).toBe('Refund amount exceeds refundable amount')
      expect((await api(env, 'GET', `/orders/${order.id}`)).body.refunded_amount).toBe(partial)

      const rest = await api(env, 'POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: net - partial}})
      expect(rest.status, brief(rest)).toBe(201)
      now = (await api(env, 'GET', `/orders/${order.id}`)).body
      expect(now.status).toBe('refunded')
      expect(now.paid).toBe(true)
      expect(now.refunded_amount).toBe(net)
      expect(now.refundable_amount).toBe(0)
      expect(now.refunded_tax_amount).toBe(order.tax_amount)
      expect(now.refundable_tax_amount).toBe(0)

      expectDomainError(await api(env, 'POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: 1}}), 403, 'RefundedAlready')

      const refunds = await api(env, 'GET', `/refunds/?order_id=${order.id}`)
      expect(refunds.status, brief(refunds)).toBe(200)
      expect(refunds.body.pagination.total_count).toBe(2)
      expect(refunds.body.items.reduce((s: number, r: Json) => s + r.amount, 0)).toBe(net)
    })

    it('a seeded refunded order is RefundedAlready; a partially refunded one takes its refundable rest', async () => {
      const refunded = seeded.find((o) => o.status === 'refunded')
      expectDomainError(await api(env, 'POST', '/refunds/', {body: {order_id: refunded.id, reason: 'other', amount: 1}}), 403, 'RefundedAlready')

      const partial = seeded.find((o) => o.status === 'partially_refunded')
      const over = await api(env, 'POST', '/refunds/', {body: {order_id: partial.id, reason: 'other', amount: partial.refundable_amount + 1}})
      expectValidationError(over, 'PolarRequestValidationError', ['body', 'amount'])
      const rest = await api(env, 'POST', '/refunds/', {body: {order_id: partial.id, reason: 'other', amount: partial.refundable_amount}})
      expect(rest.status, brief(rest)).toBe(201)
      const after = (await api(env, 'GET', `/orders/${partial.id}`)).body
      expect(after.status).toBe('refunded')
      expect(after.refundable_amount).toBe(0)
    })
  })
})
