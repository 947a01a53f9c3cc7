// Refunds (server/polar/refund/endpoints.py): list, and create against a paid order.
import {z} from '../../core/zod.js'

import {domainError, ruleValidation} from '../../core/errors.js'
import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField} from '../../core/list.js'
import {listRoute, organizationScope} from '../../core/toolkit.js'
import type {OrderRecord} from '../orders/model.js'
import type {RefundRecord} from './model.js'
import * as present from './present.js'
import * as orderViews from '../orders/present.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {emitCustomerStateChanged, emitGrantsRevoked, revokeGrants} from '../subscriptions/lifecycle.js'

// `dispute_prevention` exists on refunds but is not accepted as input.
const REASONS = ['duplicate', 'fraudulent', 'customer_request', 'service_disruption', 'satisfaction_guarantee', 'other'] as const

const refundCreate = z.object({
  order_id: z.uuid(),
  reason: z.enum(REASONS),
  amount: z.int().gt(0),
  comment: z.string().nullish(),
  revoke_benefits: z.boolean().default(false),
  metadata: metadataSchema.default({}),
})
type RefundCreate = z.output<typeof refundCreate>

/** The order's share of tax for `amount`; the whole remaining tax when refunding the rest. */
function refundTax(order: OrderRecord, amount: number): number {
  const {net_amount: net, refundable_amount: refundable, refundable_tax_amount: refundableTax, tax_amount: tax} = orderViews.orderAmounts(order)
  if (amount === refundable) return refundableTax
  return net > 0 ? Math.min(refundableTax, Math.round((amount * tax) / net)) : 0
}

/** The service's checks, in its order; throws before anything changes. */
function checkRefund(ctx: Ctx, input: RefundCreate): OrderRecord {
  const order = ctx.store.get('orders', input.order_id)
  if (!order) throw ruleValidation(['body', 'order_id'], 'Order not found', input.order_id)
  const status = orderViews.orderStatus(order, ctx.now)
  if (status === 'refunded') throw domainError(403, 'RefundedAlready', `Order is already fully refunded: ${order.id}`)
  if (input.revoke_benefits && order.subscription_id !== null) {
    throw domainError(400, 'RevokeSubscriptionBenefitsProhibited', 'Subscription benefits can only be revoked upon cancellation')
  }
  if (input.amount > orderViews.orderAmounts(order).refundable_amount) {
    throw ruleValidation(['body', 'amount'], 'Refund amount exceeds refundable amount', input.amount)
  }
  // Draft, pending and void orders have no captured payment to refund.
  if (status !== 'paid' && status !== 'partially_refunded') {
    throw domainError(404, 'RefundUnknownPayment', `Refund issued for unknown order: ${order.id}`)
  }
  return order
}

function createRefund(ctx: Ctx, input: RefundCreate) {
  checkRefund(ctx, input)
  return ctx.store.write(() => {
    const order = checkRefund(ctx, input)
    const now = new Date(ctx.now).toISOString()
    const tax = refundTax(order, input.amount)
    const refund = ctx.store.insert('refunds', {
      id: uuid(),
      created_at: now,
      modified_at: null,
      metadata: input.metadata,
      status: 'succeeded',
      reason: input.reason,
      comment: input.comment ?? null,
      amount: input.amount,
      tax_amount: tax,
      currency: order.currency,
      order_id: order.id,
      subscription_id: order.subscription_id,
      customer_id: order.customer_id,
      revoke_benefits: input.revoke_benefits,
    })
    order.refunded_amount += input.amount
    order.refunded_tax_amount += tax
    const {net_amount: net} = orderViews.orderAmounts(order)
    // Set explicitly: a pending order's `paid` status is only computed, never stored.
    order.status = order.refunded_amount >= net + order.applied_balance_amount ? 'refunded' : 'partially_refunded'
    order.modified_at = now
    const grants = input.revoke_benefits ? revokeGrants(ctx, (g) => g.order_id === order.id) : []
    return {refund, order, grants}
  })
}

const externalId = (r: RefundRecord, ctx: Ctx): string | null => ctx.store.get('customers', r.customer_id)?.external_id ?? null

export function register(r: Router): void {
  listRoute(r, 'refunds:list', (ctx: Ctx) => ctx.store.all('refunds'), {
    present: present.refund,
    filters: {
      id: byField('uuid', (x: RefundRecord) => x.id),
      organization_id: organizationScope,
      order_id: byField('uuid', (x: RefundRecord) => x.order_id),
      subscription_id: byField('uuid', (x: RefundRecord) => x.subscription_id),
      customer_id: byField('uuid', (x: RefundRecord) => x.customer_id),
      external_customer_id: byField('string', externalId),
      succeeded: {type: 'bool', match: (x: RefundRecord, [v]) => (x.status === 'succeeded') === v},
    },
    sorts: {created_at: (x) => x.created_at, amount: (x) => x.amount},
    defaultSort: ['-created_at'],
  })

  r.post('/refunds/', 'organization', (ctx) => {
    const input = parse(refundCreate, ctx.body)
    const {refund, order, grants} = createRefund(ctx, input)
    const body = present.refund(ctx.view, refund)
    emit(ctx.env, 'refund.created', body)
    const orderBody = orderViews.order(ctx.view, order)
    emit(ctx.env, 'order.updated', orderBody)
    emit(ctx.env, 'order.refunded', orderBody)
    if (grants.length > 0) {
      emitGrantsRevoked(ctx, grants)
      emitCustomerStateChanged(ctx, order.customer_id)
    }
    return ok(body, 201)
  })
}
