// A subscription's period ending, as the service's cycle does it (server/polar/subscription/service.py
// `cycle`, and the dunning of server/polar/order/service.py): a new period and its order, paid after the
// payment delay or, when the customer's card declines, past_due with the payment retried 2, 7, 14 and 21
// days later, and revoked when the last retry fails. A trial that ends is the first charge (the status
// becomes active without `subscription.active`: trialing already counts as active). A subscription set to
// cancel at its period's end ends instead (`endAtPeriodEnd` in lifecycle.ts).
import {emit, type Ctx} from '../../core/http.js'
import type {BenefitGrantRecord} from '../benefits/model.js'
import {usageLines} from '../customer-meters/billing.js'
import {recordSubscriptionCycle, resetSubscriptionMeters} from '../customer-meters/reset.js'
import {renewalDiscount} from '../discounts/apply.js'
import {priceAmount} from '../orders/build.js'
import type {OrderRecord} from '../orders/model.js'
import {order as presentOrder} from '../orders/present.js'
import {settleOrders} from '../orders/settle.js'
import {seatsAmount} from '../products/amounts.js'
import type {PriceRecord} from '../products/model.js'
import {emitCustomerStateChanged, emitGrantsRevoked, iso, revokeGrants, revokeSubscription} from './lifecycle.js'
import type {SubscriptionRecord, SubscriptionStatus} from './model.js'
import {startPeriod, subscriptionOrder} from './bill.js'
import * as present from './present.js'
import {applyPendingSeats} from './seats.js'

const DAY = 86_400_000
/** The service's DUNNING_RETRY_INTERVALS: after the failed renewal, retries 2, 5, 7 and 7 days apart. */
export const DUNNING_RETRY_DAYS = [2, 5, 7, 7] as const

/** Whether the customer's saved card declines an off-session charge now (set by the control surface). */
export const cardDeclines = (ctx: Pick<Ctx, 'store'>, customerId: string): boolean => ctx.store.data.card_outcomes?.[customerId] !== undefined

/** What a period of the subscription's (static) price costs: a seat-based price for the subscription's seats. */
const periodAmount = (s: SubscriptionRecord, price: PriceRecord): number =>
  price.amount_type === 'seat_based' ? seatsAmount(price, s.seats ?? price.seat_tiers.minimum_seats) : priceAmount(price)

export interface Renewal {
  subscription: SubscriptionRecord
  order: OrderRecord
  before: SubscriptionStatus
  /** The grants a failed payment took back (the service revokes at past_due, with no grace period). */
  revoked: BenefitGrantRecord[]
}

/**
 * A new period of `s` from now, with its order (its discount while it lasts, its usage billed): paid after
 * the payment delay, or, when `paymentFails`, pending with its first retry 2 days later and the subscription
 * past_due. Returns undefined when the product has no price to bill. Call inside a store write.
 */
export function renewPeriod(ctx: Ctx, s: SubscriptionRecord, paymentFails: boolean): Renewal | undefined {
  const product = ctx.store.get('products', s.product_id)
  const price = product?.prices.find((p) => s.price_ids.includes(p.id)) ?? product?.prices[0]
  if (!product || !price) return undefined
  const before = s.status
  applyPendingSeats(ctx.store, s)
  // the period's usage of each metered price is billed on its own line, after the static price's
  const usage = usageLines(ctx.store, s)
  const label = `${product.name} (every ${product.recurring_interval_count ?? 1} ${product.recurring_interval})`
  const lines =
    usage.length === 0 ? undefined : [...(price.amount_type === 'metered_unit' ? [] : [{label, amount: periodAmount(s, price), priceId: price.id}]), ...usage]
  const amount = lines ? lines.reduce((sum, l) => sum + l.amount, 0) : periodAmount(s, price)
  // the discount, while it lasts, applies to the new period's order (as the service's cycle does)
  const discount = renewalDiscount(ctx, s, ctx.now)
  startPeriod(s, ctx.now)
  const order = subscriptionOrder(ctx, s, product, price, amount, 'subscription_cycle', discount, {
    lines,
    period: {start: s.current_period_start, end: s.current_period_end},
  })
  let revoked: BenefitGrantRecord[] = []
  if (paymentFails) {
    order.paid_at = null
    order.failed_payments = 1
    order.next_payment_attempt_at = iso(ctx.now + DUNNING_RETRY_DAYS[0] * DAY)
    if (before !== 'past_due') {
      s.past_due_at = iso(ctx.now)
      revoked = revokeGrants(ctx, (g) => g.subscription_id === s.id, ctx.store.where('benefit_grants', 'subscription_id', s.id))
    }
  } else {
    s.past_due_at = null
  }
  ctx.store.insert('orders', order)
  if (before === 'trialing') s.trial_end = s.current_period_start
  s.status = paymentFails ? 'past_due' : 'active'
  s.modified_at = iso(ctx.now)
  recordSubscriptionCycle(ctx.store, s, s.current_period_start)
  return {subscription: s, order, before, revoked}
}

/**
 * The last order of a subscription that ends at its period's end: the service's cycle of such a subscription
 * bills its pending entries (`subscription_cancel`, shown as `subscription_cycle`), which are only the ended
 * period's metered usage, and none is made when there is no usage to bill. Its meters are reset. Stored, to
 * be paid after the payment delay (a declining card is not retried: the subscription has ended). Call inside
 * a store write, after the subscription has ended; emits `order.created`.
 */
export function finalUsageOrder(ctx: Ctx, s: SubscriptionRecord): OrderRecord | undefined {
  const product = ctx.store.get('products', s.product_id)
  const lines = usageLines(ctx.store, s).filter((l) => l.amount > 0)
  const price = product?.prices.find((p) => p.id === lines[0]?.priceId)
  if (!product || !price) return undefined
  const amount = lines.reduce((sum, l) => sum + l.amount, 0)
  const period = {start: s.current_period_start, end: s.current_period_end}
  const order = subscriptionOrder(ctx, s, product, price, amount, 'subscription_cycle', renewalDiscount(ctx, s, ctx.now), {lines, period})
  ctx.store.insert('orders', order)
  resetSubscriptionMeters(ctx.store, s, iso(ctx.now))
  emit(ctx.env, 'order.created', presentOrder(ctx.view, order))
  return order
}

/** The webhooks of a renewal, in the service's order. */
export function emitRenewal(ctx: Ctx, {subscription: s, order, before, revoked}: Renewal): void {
  const body = present.subscription(ctx.view, s)
  emit(ctx.env, 'subscription.updated', body)
  emit(ctx.env, 'subscription.cycled', body)
  if (s.status === 'past_due' && before !== 'past_due') emit(ctx.env, 'subscription.past_due', body)
  // a trial's end is no activation: trialing already counts as active
  if (s.status === 'active' && before === 'past_due') emit(ctx.env, 'subscription.active', body)
  emit(ctx.env, 'order.created', presentOrder(ctx.view, order))
  emitGrantsRevoked(ctx, revoked)
  if (revoked.length > 0) emitCustomerStateChanged(ctx, s.customer_id)
}

/**
 * The automatic retry of a renewal payment that failed, due now: paid when the card now succeeds (the
 * subscription active again, its benefits granted again), else the next retry, or, after the last one,
 * the subscription revoked and the order voided. Returns the next retry's time, if any.
 */
export function retryPayment(ctx: Ctx, orderId: string): number | undefined {
  const o = ctx.store.get('orders', orderId)
  if (o?.status !== 'pending' || !o.next_payment_attempt_at) return undefined
  const s = o.subscription_id ? ctx.store.get('subscriptions', o.subscription_id) : undefined
  if (!s || s.ended_at !== null || s.status === 'canceled') {
    o.next_payment_attempt_at = null
    return undefined
  }
  if (!cardDeclines(ctx, o.customer_id)) {
    o.next_payment_attempt_at = null
    o.paid_at = iso(ctx.now)
    const before = s.status
    if (before === 'past_due') {
      s.status = 'active'
      s.past_due_at = null
      s.modified_at = iso(ctx.now)
      const body = present.subscription(ctx.view, s)
      emit(ctx.env, 'subscription.updated', body)
      emit(ctx.env, 'subscription.active', body)
    }
    settleOrders(ctx.env, [o], ctx.now)
    return undefined
  }
  const failed = (o.failed_payments ?? 1) + 1
  o.failed_payments = failed
  if (failed <= DUNNING_RETRY_DAYS.length) {
    const next = ctx.now + DUNNING_RETRY_DAYS[failed - 1]! * DAY
    o.next_payment_attempt_at = iso(next)
    return next
  }
  o.next_payment_attempt_at = null
  revokeSubscription(ctx, s.id)
  // the service voids the pending orders of a revoked subscription
  o.status = 'void'
  o.modified_at = iso(ctx.now)
  emit(ctx.env, 'order.updated', presentOrder(ctx.view, o))
  return undefined
}
