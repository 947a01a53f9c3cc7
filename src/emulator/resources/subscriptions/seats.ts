// A seat-based subscription's number of seats (SubscriptionUpdateSeats; the service's `update_seats`): within
// the price's tiers, never below the seats assigned, billed by the proration behaviour; the system event
// `subscription.seats_updated`, and `subscription.updated`. A `next_period` change waits for the renewal.
import {domainError, ruleValidation} from '../../core/errors.js'
import type {Ctx} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import type {Store} from '../../core/store.js'
import {isAssigned} from '../customer-seats/model.js'
import {recordSystemEvent} from '../events/log.js'
import {seatsAmount} from '../products/amounts.js'
import type {PriceRecord} from '../products/model.js'
import type {SubscriptionRecord} from './model.js'

type SeatPrice = Extract<PriceRecord, {amount_type: 'seat_based'}>

/** The subscription's seat-based price, if it has one. */
export function seatPriceOf(store: Store, s: SubscriptionRecord): SeatPrice | undefined {
  const product = store.get('products', s.product_id)
  return product?.prices.find((p): p is SeatPrice => p.amount_type === 'seat_based' && s.price_ids.includes(p.id))
}

/** What the subscription's prices charge a period with `seats` seats: its fixed price and the seats. */
export function amountWithSeats(store: Store, s: SubscriptionRecord, price: SeatPrice, seats: number): number {
  const product = store.get('products', s.product_id)
  const fixed = product?.prices.filter((p) => p.amount_type === 'fixed' && s.price_ids.includes(p.id)) ?? []
  return fixed.reduce((sum, p) => sum + (p.amount_type === 'fixed' ? p.price_amount : 0), 0) + seatsAmount(price, seats)
}

const assignedSeats = (store: Store, s: SubscriptionRecord) => store.all('customer_seats').filter((x) => x.subscription_id === s.id && isAssigned(x)).length

/** The service's refusals of a seats change (`validate_seats_change`), after the cancellation check. */
export function checkSeats(ctx: Ctx, s: SubscriptionRecord, seats: number): SeatPrice {
  const price = seatPriceOf(ctx.store, s)
  if (!price) throw domainError(400, 'NotASeatBasedSubscription', 'This subscription does not support seat-based pricing.')
  if (seats < price.seat_tiers.minimum_seats) throw domainError(400, 'BelowMinimumSeats', `Minimum ${price.seat_tiers.minimum_seats} seats required.`)
  const max = price.seat_tiers.maximum_seats
  if (max !== null && seats > max) throw domainError(400, 'AboveMaximumSeats', `Maximum ${max} seats allowed.`)
  const assigned = assignedSeats(ctx.store, s)
  if (seats < assigned) {
    throw domainError(400, 'SeatsAlreadyAssigned', `Cannot decrease seats to ${seats}. Currently ${assigned} seats are assigned. Revoke seats first.`)
  }
  return price
}

/** The organization does not have the `reset` proration behaviour (feature_settings.reset_proration_behavior_enabled). */
export function checkSeatsProration(behavior: string | null | undefined): void {
  if (behavior === 'reset') {
    throw ruleValidation(['body', 'proration_behavior'], "The 'reset' proration behavior is not enabled for this organization.", behavior)
  }
}

export interface SeatsChange {
  /** The amount still due now for the rest of the period (`invoice`), 0 otherwise. */
  due: number
  changed: boolean
}

/**
 * Applies a checked seats change inside a store write: now (`invoice`, `prorate`: the amount changes, and
 * `invoice` bills the difference for the rest of the period now) or at the renewal (`next_period`).
 */
export function applySeats(ctx: Ctx, s: SubscriptionRecord, seats: number, behavior: string, price: SeatPrice): SeatsChange {
  const old = s.seats ?? 1
  if (old === seats) {
    // asking for the current count again cancels a pending change, and is otherwise no change at all
    const pending = Boolean(s.pending_update)
    s.pending_update = null
    return {due: 0, changed: pending}
  }
  const at = new Date(ctx.now).toISOString()
  recordSystemEvent(ctx.store, 'subscription.seats_updated', s.customer_id, at, {
    subscription_id: s.id,
    old_seats: old,
    new_seats: seats,
    proration_behavior: behavior,
  })
  if (behavior === 'next_period') {
    s.pending_update = {id: uuid(), created_at: at, seats}
    return {due: 0, changed: true}
  }
  s.pending_update = null
  const oldAmount = s.amount
  s.seats = seats
  s.amount = amountWithSeats(ctx.store, s, price, seats)
  if (behavior !== 'invoice' || s.status === 'trialing') return {due: 0, changed: true}
  const start = Date.parse(s.current_period_start)
  const end = Date.parse(s.current_period_end)
  const remaining = end > start ? Math.max(0, Math.min(1, (end - ctx.now) / (end - start))) : 0
  return {due: Math.max(0, Math.round((s.amount - oldAmount) * remaining)), changed: true}
}

/** At a renewal: a pending seats change takes effect before the new period is billed. */
export function applyPendingSeats(store: Store, s: SubscriptionRecord): void {
  const pending = s.pending_update
  if (!pending) return
  s.pending_update = null
  const price = seatPriceOf(store, s)
  if (!price) return
  s.seats = pending.seats
  s.amount = amountWithSeats(store, s, price, pending.seats)
}
