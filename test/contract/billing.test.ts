// Contract (SDK 1.0.1, 2026-10): orders (invoice, receipt), refunds and subscriptions through the SDK. SDK 1.0.1
// checks nothing at run time: refunds and invoices are checked with expectShape; orders and subscriptions
// are not yet (the emulator adds hidden deprecated keys the SDK types omit, and lacks the items' timestamps).
import {errors} from '@polar-sh/sdk/2026-10'
import {describe, expect, it} from 'vitest'

import {unknownId} from '../helpers/emulator.js'
import {everyPage, expectShape, rejection, useContract} from './harness.js'

const h = useContract({invoiceDelay: '0s'})
const orders = () => everyPage((q) => h.polar.orders.list(q))

describe('orders', () => {
  it('lists every page with every order status the SDK knows, and gets one', async () => {
    const {items, totalCount} = await orders()
    expect(items.length).toBe(totalCount)
    const statuses = new Set(items.map((o) => o.status))
    for (const s of ['paid', 'refunded', 'partially_refunded', 'pending']) expect(statuses, s).toContain(s)
    const one = await h.polar.orders.get(items[0]!.id)
    expect(one.id).toBe(items[0]!.id)
    expect(one.net_amount).toBe(one.subtotal_amount - one.discount_amount)
    expect(await rejection(h.polar.orders.get(unknownId()))).toBeInstanceOf(errors.ResourceNotFound)
  })

  it('sets billing details, generates the invoice twice (202 both times, nothing changes) and reads it', async () => {
    const paid = (await orders()).items.find((o) => o.status === 'paid' && !o.is_invoice_generated && o.billing_address === null)!
    const updated = await h.polar.orders.update(paid.id, {billing_name: 'Contract Buyer', billing_address: {country: 'FR'}})
    expect(updated.billing_name).toBe('Contract Buyer')
    expect(updated.billing_address?.country).toBe('FR')
    await h.polar.orders.generateInvoice(paid.id)
    const first = await h.raw('GET', `/orders/${paid.id}`)
    // The service answers a repeat with 202 too and regenerates only when something changed.
    const again = await h.raw('POST', `/orders/${paid.id}/invoice`)
    expect(again.status).toBe(202)
    await h.polar.orders.generateInvoice(paid.id)
    const after = await h.raw('GET', `/orders/${paid.id}`)
    expect(after.body.modified_at).toBe(first.body.modified_at)
    const invoice = await h.polar.orders.invoice(paid.id)
    expectShape('2026-10', 'OrderInvoice', invoice)
    expect(invoice.url).toMatch(/^http/)
    expect((await h.polar.orders.get(paid.id)).is_invoice_generated).toBe(true)
  })
})

describe('refunds', () => {
  it('a refund changes the order status, and the list holds it on every page', async () => {
    const order = (await orders()).items.find((o) => o.status === 'paid' && o.refundable_amount > 200 && o.subscription_id === null)!
    const refund = await h.polar.refunds.create({order_id: order.id, reason: 'customer_request', amount: 100})
    expectShape('2026-10', 'Refund', refund)
    expect(refund.order_id).toBe(order.id)
    expect(refund.amount).toBe(100)
    const after = await h.polar.orders.get(order.id)
    expect(after.status).toBe('partially_refunded')
    expect(after.refunded_amount).toBe(order.refunded_amount + 100)
    const full = await h.polar.refunds.create({order_id: order.id, reason: 'customer_request', amount: after.refundable_amount})
    expect(full.amount).toBe(after.refundable_amount)
    expect((await h.polar.orders.get(order.id)).status).toBe('refunded')
    const list = await everyPage((q) => h.polar.refunds.list(q), 5)
    expect(list.items.length).toBe(list.totalCount)
    expect(
      list.items
        .filter((r) => r.order_id === order.id)
        .map((r) => r.id)
        .sort(),
    ).toEqual([refund.id, full.id].sort())
    const tooMuch = await rejection(h.polar.refunds.create({order_id: order.id, reason: 'customer_request', amount: 1}))
    expect(tooMuch.statusCode).toBe(403)
  })

  it('a refund of an unknown order is an HTTPValidationError at body.order_id', async () => {
    const error = await rejection(h.polar.refunds.create({order_id: unknownId(), reason: 'duplicate', amount: 100}))
    expect(error).toBeInstanceOf(errors.HTTPValidationError)
    expect(JSON.stringify(error.error)).toContain('order_id')
  })
})

describe('subscriptions', () => {
  it('lists every page with the statuses the seed has, gets, cancels, uncancels and revokes one', async () => {
    const {items, totalCount} = await everyPage((q) => h.polar.subscriptions.list(q))
    expect(items.length).toBe(totalCount)
    const statuses = new Set(items.map((s) => s.status))
    for (const s of ['active', 'canceled', 'past_due']) expect(statuses, s).toContain(s)
    const active = items.find((s) => s.status === 'active' && !s.cancel_at_period_end)!
    expect((await h.polar.subscriptions.get(active.id)).id).toBe(active.id)
    const canceled = await h.polar.subscriptions.update(active.id, {cancel_at_period_end: true})
    expect(canceled.cancel_at_period_end).toBe(true)
    const uncanceled = await h.polar.subscriptions.update(active.id, {cancel_at_period_end: false})
    expect(uncanceled.cancel_at_period_end).toBe(false)
    const revoked = await h.polar.subscriptions.revoke(active.id)
    expect(revoked.status).toBe('canceled')
    expect(await rejection(h.polar.subscriptions.get(unknownId()))).toBeInstanceOf(errors.ResourceNotFound)
  })
})
