// Payments (read-only) and disputes (server/polar/payment, server/polar/dispute).
// The emulator has one card payment per paid order with something to pay; its id is derived from the
// order's, so it is the same on every read without being stored. Disputes are stored: the seed has one,
// and `POST /_emulator/disputes` (outside the API, test-only) opens one on a paid order.
import {createHash} from 'node:crypto'

import {z} from 'zod'

import {domainError, notFound, ruleValidation} from '../errors.js'
import {ok, type Ctx, type Router} from '../http.js'
import {uuid} from '../ids.js'
import {byField, listRows} from '../list.js'
import type {DisputeRecord, OrderRecord} from '../model.js'
import * as present from '../present.js'
import {parse, pathUuid} from '../validate.js'

const PAID = new Set(['paid', 'refunded', 'partially_refunded'])
const DAY = 86_400_000

/** The payment id of an order: a stable UUID (version 4 layout) derived from the order id. */
export function paymentIdOf(orderId: string): string {
  const h = createHash('sha256').update(`payment:${orderId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** Whether `o` has a payment: paid (or refunded since) with a total above zero. */
export const hasPayment = (ctx: Ctx, o: OrderRecord) => PAID.has(present.orderStatus(o, ctx.now)) && present.orderAmounts(o).total_amount > 0

function paymentsOf(ctx: Ctx): OrderRecord[] {
  return ctx.store.all('orders').filter((o) => hasPayment(ctx, o))
}

function findPayment(ctx: Ctx, id: string): OrderRecord {
  const order = paymentsOf(ctx).find((o) => paymentIdOf(o.id) === id)
  if (!order) throw notFound()
  return order
}

function findDispute(ctx: Ctx, id: string): DisputeRecord {
  const d = ctx.store.get('disputes', id)
  if (!d) throw notFound()
  return d
}

const TRIGGERS: Record<string, string> = {purchase: 'purchase', subscription_create: 'purchase', subscription_cycle: 'subscription_cycle', subscription_update: 'purchase'}

/** A new dispute over the whole paid amount of `order`, awaiting a response for 7 days. */
export function newDispute(order: OrderRecord, now: number, id = uuid(), reason = 'fraudulent'): DisputeRecord {
  const amounts = present.orderAmounts(order)
  return {
    id,
    created_at: new Date(now).toISOString(),
    modified_at: null,
    status: 'needs_response',
    amount: amounts.net_amount,
    tax_amount: amounts.tax_amount,
    currency: order.currency,
    reason,
    evidence_due_by: new Date(now + 7 * DAY).toISOString(),
    order_id: order.id,
    customer_id: order.customer_id,
  }
}

const openDispute = z.object({order_id: z.uuid(), reason: z.string().min(1).default('fraudulent')})

export function register(r: Router): void {
  r.get('/payments/', 'organization', (ctx) => {
    const email = (o: OrderRecord) => ctx.store.get('customers', o.customer_id)?.email ?? null
    return ok(
      listRows(
        paymentsOf(ctx),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            checkout_id: byField('uuid', (o: OrderRecord) => o.checkout_id),
            order_id: byField('uuid', (o: OrderRecord) => o.id),
            customer_id: byField('uuid', (o: OrderRecord) => o.customer_id),
            status: byField(['pending', 'succeeded', 'failed'], () => 'succeeded'),
            method: byField('string', () => 'card'),
            customer_email: byField('string', email),
          },
          sorts: {created_at: (o) => o.paid_at ?? o.created_at, status: () => 'succeeded', amount: (o) => present.orderAmounts(o).total_amount, method: () => 'card'},
          defaultSort: ['-created_at'],
        },
        (o) => present.payment(ctx.view, o, paymentIdOf(o.id), TRIGGERS[o.billing_reason] ?? null),
      ),
    )
  })

  r.get('/payments/:id', 'organization', (ctx) => {
    const order = findPayment(ctx, pathUuid(ctx.params))
    return ok(present.payment(ctx.view, order, paymentIdOf(order.id), TRIGGERS[order.billing_reason] ?? null))
  })

  r.get('/disputes/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.all('disputes'),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            order_id: byField('uuid', (d: DisputeRecord) => d.order_id),
            status: byField(['prevented', 'early_warning', 'needs_response', 'under_review', 'lost', 'won'], (d: DisputeRecord) => d.status),
          },
          sorts: {created_at: (d) => d.created_at, amount: (d) => d.amount},
          defaultSort: ['-created_at'],
        },
        (d) => present.dispute(ctx.view, d, paymentIdOf(d.order_id)),
      ),
    ),
  )

  r.get('/disputes/:id', 'organization', (ctx) => {
    const d = findDispute(ctx, pathUuid(ctx.params))
    return ok(present.dispute(ctx.view, d, paymentIdOf(d.order_id)))
  })

  r.post('/disputes/:id/accept', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    const d = ctx.store.write(() => {
      const d = findDispute(ctx, id)
      if (d.status !== 'needs_response') throw domainError(409, 'DisputeNotOpenError', `Dispute ${d.id} is not awaiting a response.`)
      // conceding the chargeback settles it as lost
      d.status = 'lost'
      d.modified_at = new Date(ctx.now).toISOString()
      return d
    })
    return ok(present.dispute(ctx.view, d, paymentIdOf(d.order_id)))
  })

  // Test-only control (outside the API): a customer disputes a paid order.
  r.addAbsolute('POST', '/_emulator/disputes', 'organization', (ctx) => {
    const input = parse(openDispute, ctx.body)
    const d = ctx.store.write(() => {
      const order = ctx.store.get('orders', input.order_id)
      if (!order || !hasPayment(ctx, order)) throw ruleValidation(['body', 'order_id'], 'Order has no payment to dispute.', input.order_id)
      return ctx.store.insert('disputes', newDispute(order, ctx.now, uuid(), input.reason))
    })
    return ok(present.dispute(ctx.view, d, paymentIdOf(d.order_id)), 201)
  })
}
