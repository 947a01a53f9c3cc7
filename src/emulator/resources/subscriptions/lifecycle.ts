// The subscription changes shared with the portal, customers, refunds, benefits and checkouts routes: finding
// a subscription, cancelling, revoking and uncancelling, revoking grants, and the webhooks they raise.

import {domainError} from '../../core/errors.js'
import {finder} from '../../core/toolkit.js'
import {emit, type Ctx} from '../../core/http.js'
import type {BenefitGrantRecord} from '../benefits/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {SubscriptionRecord, SubscriptionStatus} from './model.js'
import * as present from './present.js'
import * as benefitViews from '../benefits/present.js'
import * as customerViews from '../customers/present.js'
import * as orderViews from '../orders/present.js'
import {recordSystemEvent} from '../events/log.js'
import {emitSeatsRevoked, revokeSeatsOf} from '../customer-seats/ending.js'
import type {SeatRecord} from '../customer-seats/model.js'

export const CANCELLATION_REASONS = [
  'customer_service',
  'low_quality',
  'missing_features',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
  'other',
] as const

export const BILLABLE: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due']
const ACTIVE: readonly SubscriptionStatus[] = ['active', 'trialing']
const REVOKED: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired', 'unpaid']
export const isActive = (s: SubscriptionRecord) => ACTIVE.includes(s.status)
export const isRevoked = (s: SubscriptionRecord) => REVOKED.includes(s.status)
/** "Canceled" in the service's sense: revoked, or set to end at the period end. */
const isCanceled = (s: SubscriptionRecord) => isRevoked(s) || s.cancel_at_period_end

export const iso = (ms: number) => new Date(ms).toISOString()

export const alreadyCanceled = () =>
  domainError(403, 'AlreadyCanceledSubscription', 'This subscription is already canceled or will be at the end of the period.')

/** The subscription `id` (of `customerId` when given); subscriptions that never started are invisible. */
export const findSubscription = finder('subscriptions', {live: (s) => s.started_at !== null})

/**
 * Sets `revoked_at` on the live grants that `match` selects and revokes their license keys; returns
 * the grants (for `emitGrantsRevoked`). Call inside `store.write`.
 */
export function revokeGrants(
  ctx: Ctx,
  match: (g: BenefitGrantRecord) => boolean,
  among: readonly BenefitGrantRecord[] = ctx.store.all('benefit_grants'),
): BenefitGrantRecord[] {
  const now = iso(ctx.now)
  const revoked = among.filter((g) => g.revoked_at === null && match(g))
  for (const g of revoked) {
    g.revoked_at = now
    g.modified_at = now
    const benefit = ctx.store.get('benefits', g.benefit_id)
    recordSystemEvent(ctx.store, 'benefit.revoked', g.customer_id, now, {
      benefit_id: g.benefit_id,
      benefit_grant_id: g.id,
      benefit_type: benefit?.type ?? 'custom',
    })
    const keyId = g.properties.license_key_id
    const key = typeof keyId === 'string' ? ctx.store.get('license_keys', keyId) : undefined
    if (key && key.status === 'granted') {
      key.status = 'revoked'
      key.modified_at = now
    }
  }
  return revoked
}

export function emitGrantsRevoked(ctx: Ctx, grants: BenefitGrantRecord[]): void {
  for (const g of grants) emit(ctx.env, 'benefit_grant.revoked', benefitViews.benefitGrant(ctx.view, g))
}

/** `customer.state_changed` carries the CustomerState (server/polar/webhook/webhooks.py). */
export function emitCustomerStateChanged(ctx: Ctx, customerId: string): void {
  const customer = ctx.store.get('customers', customerId)
  if (customer) emit(ctx.env, 'customer.state_changed', customerViews.customerState(ctx.view, customer))
}

export interface Outcome {
  subscription: SubscriptionRecord
  /** Status and cancellation before the change, to derive the webhooks. */
  before: {status: SubscriptionStatus; canceled: boolean}
  orders: OrderRecord[]
  grants: BenefitGrantRecord[]
}

/** Webhooks after a change, following the service: updated, then uncanceled/canceled/revoked, then state. */
function emitOutcome(ctx: Ctx, {subscription: s, before, orders, grants}: Outcome): void {
  const body = present.subscription(ctx.view, s)
  emit(ctx.env, 'subscription.updated', body)
  const becameRevoked = isRevoked(s) && !REVOKED.includes(before.status)
  if (!isCanceled(s) && before.canceled) emit(ctx.env, 'subscription.uncanceled', body)
  if ((isCanceled(s) && !before.canceled) || (becameRevoked && before.canceled)) emit(ctx.env, 'subscription.canceled', body)
  if (becameRevoked) emit(ctx.env, 'subscription.revoked', body)
  for (const o of orders) emit(ctx.env, 'order.created', orderViews.order(ctx.view, o))
  emitGrantsRevoked(ctx, grants)
  emitCustomerStateChanged(ctx, s.customer_id)
}

/**
 * Runs `change` on the subscription inside a store write. `check` runs first, also inside the write
 * (the store may have reloaded), and must throw before anything is mutated.
 */
export function change(
  ctx: Ctx,
  id: string,
  customerId: string | undefined,
  check: (s: SubscriptionRecord) => void,
  apply: (s: SubscriptionRecord, out: Outcome) => void,
): Outcome {
  check(findSubscription(ctx, id, customerId))
  const outcome = ctx.store.write(() => {
    const s = findSubscription(ctx, id, customerId)
    check(s)
    const out: Outcome = {subscription: s, before: {status: s.status, canceled: isCanceled(s)}, orders: [], grants: []}
    apply(s, out)
    s.modified_at = iso(ctx.now)
    return out
  })
  emitOutcome(ctx, outcome)
  return outcome
}

function canCancel(s: SubscriptionRecord, immediately: boolean): boolean {
  if (!BILLABLE.includes(s.status) || s.ended_at !== null) return false
  return immediately || (!s.cancel_at_period_end && s.ends_at === null)
}

function setReason(s: SubscriptionRecord, reason?: string | null, comment?: string | null): void {
  if (reason) s.customer_cancellation_reason = reason
  if (comment) s.customer_cancellation_comment = comment
}

/** Cancels at the end of the current period (status unchanged). Emits the webhooks. */
export function cancelAtPeriodEnd(
  ctx: Ctx,
  subscriptionId: string,
  {reason, comment, customerId}: {reason?: string | null; comment?: string | null; customerId?: string},
): SubscriptionRecord {
  return change(
    ctx,
    subscriptionId,
    customerId,
    (s) => {
      if (!canCancel(s, false)) throw alreadyCanceled()
    },
    (s) => {
      s.canceled_at = iso(ctx.now)
      s.cancel_at_period_end = true
      s.ends_at = s.current_period_end
      setReason(s, reason, comment)
    },
  ).subscription
}

/** Cancels now: status `canceled`, benefits revoked. Emits the webhooks. */
export function revokeSubscription(
  ctx: Ctx,
  subscriptionId: string,
  {reason, comment, customerId}: {reason?: string | null; comment?: string | null; customerId?: string} = {},
): SubscriptionRecord {
  let seats: SeatRecord[] = []
  const revoked = change(
    ctx,
    subscriptionId,
    customerId,
    (s) => {
      if (!canCancel(s, true)) throw alreadyCanceled()
    },
    (s, out) => {
      const now = iso(ctx.now)
      s.status = 'canceled'
      s.canceled_at = now
      s.ends_at = now
      s.ended_at = now
      setReason(s, reason, comment)
      // the seat holders' grants carry the subscription too
      out.grants = revokeGrants(ctx, (g) => g.subscription_id === s.id, ctx.store.where('benefit_grants', 'subscription_id', s.id))
      seats = revokeSeatsOf(ctx, s.id)
    },
  ).subscription
  emitSeatsRevoked(ctx, seats)
  return revoked
}

/** Takes back a cancellation at period end. Emits the webhooks. */
export function uncancel(ctx: Ctx, id: string, customerId?: string): Outcome {
  return change(
    ctx,
    id,
    customerId,
    (s) => {
      if (s.ended_at !== null) throw domainError(410, 'ResourceUnavailable', 'Unavailable')
      if (!(BILLABLE.includes(s.status) && s.cancel_at_period_end)) throw domainError(400, 'BadRequest', 'Bad request')
    },
    (s) => {
      s.cancel_at_period_end = false
      s.ends_at = null
      s.canceled_at = null
      s.customer_cancellation_reason = null
      s.customer_cancellation_comment = null
    },
  )
}

/**
 * A cancellation at the period's end taking effect (the service's cycle of such a subscription): it ends
 * now, canceled, and its benefits and seats are revoked. Emits the webhooks.
 */
export function endAtPeriodEnd(ctx: Ctx, subscriptionId: string): SubscriptionRecord {
  let seats: SeatRecord[] = []
  const ended = change(
    ctx,
    subscriptionId,
    undefined,
    (s) => {
      if (!BILLABLE.includes(s.status) || s.ended_at !== null || !s.cancel_at_period_end)
        throw new Error(`subscription ${s.id} is not ending at its period's end`) // the clock ends only those that are
    },
    (s, out) => {
      const now = iso(ctx.now)
      s.status = 'canceled'
      s.ended_at = now
      s.ends_at ??= now
      out.grants = revokeGrants(ctx, (g) => g.subscription_id === s.id, ctx.store.where('benefit_grants', 'subscription_id', s.id))
      seats = revokeSeatsOf(ctx, s.id)
    },
  ).subscription
  emitSeatsRevoked(ctx, seats)
  return ended
}
