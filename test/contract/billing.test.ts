// Contract: orders (invoice, receipt), refunds and subscriptions through the SDK.
import {describe, expect, it} from 'vitest'

import {ResourceNotFound} from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js'
import {HTTPValidationError} from '@polar-sh/sdk-0.49/models/errors/httpvalidationerror.js'

import {unknownId} from '../helpers/emulator.js'
import {collect, rejection, useContract} from './harness-0.49.js'

const h = useContract({invoiceDelay: '0s'})

describe('orders', () => {
  it('lists every page with every order status the SDK knows, and gets one', async () => {
    const {items, totalCount} = await collect(await h.polar.orders.list({limit: 100}))
    expect(items.length).toBe(totalCount)
    const statuses = new Set(items.map((o) => o.status))
    for (const s of ['paid', 'refunded', 'partially_refunded', 'pending']) expect(statuses, s).toContain(s)
    const one = await h.polar.orders.get({id: items[0]!.id})
    expect(one.id).toBe(items[0]!.id)
    expect(one.netAmount).toBe(one.subtotalAmount - one.discountAmount)
    expect(await rejection(h.polar.orders.get({id: unknownId()}))).toBeInstanceOf(ResourceNotFound)
  })

  it('sets billing details, generates the invoice twice (202 both times, nothing changes) and reads it', async () => {
    const paid = (await collect(await h.polar.orders.list({limit: 100}))).items.find((o) => o.status === 'paid' && !o.isInvoiceGenerated && o.billingAddress === null)!
    const updated = await h.polar.orders.update({id: paid.id, orderUpdate: {billingName: 'Contract Buyer', billingAddress: {country: 'FR'}}})
    expect(updated.billingName).toBe('Contract Buyer')
    expect(updated.billingAddress?.country).toBe('FR')
    await h.polar.orders.generateInvoice({id: paid.id})
    const first = await h.raw('GET', `/orders/${paid.id}`)
    // The service answers a repeat with 202 too and regenerates only when something changed.
    const again = await h.raw('POST', `/orders/${paid.id}/invoice`)
    expect(again.status).toBe(202)
    await h.polar.orders.generateInvoice({id: paid.id})
    const after = await h.raw('GET', `/orders/${paid.id}`)
    expect(after.body.modified_at).toBe(first.body.modified_at)
    const invoice = await h.polar.orders.invoice({id: paid.id})
    expect(invoice.url).toMatch(/^http/)
    expect((await h.polar.orders.get({id: paid.id})).isInvoiceGenerated).toBe(true)
  })
})

describe('refunds', () => {
  it('a refund changes the order status, and the list holds it on every page', async () => {
    const order = (await collect(await h.polar.orders.list({limit: 100}))).items.find((o) => o.status === 'paid' && o.refundableAmount > 200 && o.subscriptionId === null)!
    const refund = await h.polar.refunds.create({orderId: order.id, reason: 'customer_request', amount: 100})
    expect(refund.orderId).toBe(order.id)
    expect(refund.amount).toBe(100)
    const after = await h.polar.orders.get({id: order.id})
    expect(after.status).toBe('partially_refunded')
    expect(after.refundedAmount).toBe(order.refundedAmount + 100)
    const full = await h.polar.refunds.create({orderId: order.id, reason: 'customer_request', amount: after.refundableAmount})
    expect(full.amount).toBe(after.refundableAmount)
    expect((await h.polar.orders.get({id: order.id})).status).toBe('refunded')
    const list = await collect(await h.polar.refunds.list({limit: 5}))
    expect(list.items.length).toBe(list.totalCount)
    expect(list.items.filter((r) => r.orderId === order.id).map((r) => r.id).sort()).toEqual([refund.id, full.id].sort())
    const tooMuch = await rejection(h.polar.refunds.create({orderId: order.id, reason: 'customer_request', amount: 1}))
    expect((tooMuch as {statusCode?: number}).statusCode).toBe(403)
  })

  it('a refund of an unknown order is an HTTPValidationError at body.order_id', async () => {
    const error = await rejection(h.polar.refunds.create({orderId: unknownId(), reason: 'duplicate', amount: 100}))
    expect(error).toBeInstanceOf(HTTPValidationError)
    expect(JSON.stringify((error as HTTPValidationError).data$.detail)).toContain('order_id')
  })
})

describe('subscriptions', () => {
  it('lists every page with the statuses the seed has, gets, cancels, uncancels and revokes one', async () => {
    const {items, totalCount} = await collect(await h.polar.subscriptions.list({limit: 100}))
    expect(items.length).toBe(totalCount)
    const statuses = new Set(items.map((s) => s.status))
    for (const s of ['active', 'canceled', 'past_due']) expect(statuses, s).toContain(s)
    const active = items.find((s) => s.status === 'active' && !s.cancelAtPeriodEnd)!
    expect((await h.polar.subscriptions.get({id: active.id})).id).toBe(active.id)
    const canceled = await h.polar.subscriptions.update({id: active.id, subscriptionUpdate: {cancelAtPeriodEnd: true}})
    expect(canceled.cancelAtPeriodEnd).toBe(true)
    const uncanceled = await h.polar.subscriptions.update({id: active.id, subscriptionUpdate: {cancelAtPeriodEnd: false}})
    expect(uncanceled.cancelAtPeriodEnd).toBe(false)
    const revoked = await h.polar.subscriptions.revoke({id: active.id})
    expect(revoked.status).toBe('canceled')
    expect(await rejection(h.polar.subscriptions.get({id: unknownId()}))).toBeInstanceOf(ResourceNotFound)
  })
})
