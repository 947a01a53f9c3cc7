// Applying discounts: which one a checkout may take (by id or code, redeemable now, for a product and
// currency), how much it takes off an amount, and whether a subscription still has it at a renewal.
import type {Ctx} from '../../core/http.js'
import {addInterval} from '../subscriptions/periods.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import type {DiscountRecord} from './model.js'

/** The discounts not deleted. */
export const live = (ctx: Pick<Ctx, 'store'>) => ctx.store.all('discounts').filter((d) => d.deleted_at === null)

/** Whether the discount can be redeemed now (window and redemption limit). */
export function isRedeemable(d: DiscountRecord, now: number): boolean {
  if (d.deleted_at !== null) return false
  if (d.starts_at !== null && Date.parse(d.starts_at) > now) return false
  if (d.ends_at !== null && Date.parse(d.ends_at) < now) return false
  return d.max_redemptions === null || d.redemptions_count < d.max_redemptions
}

/** A redeemable discount that applies to `productId` in `currency`, found by id or by code (case-insensitive). */
export function applicableDiscount(ctx: Ctx, by: {id?: string; code?: string}, productId: string, currency: string): DiscountRecord | null {
  const d = by.id ? ctx.store.get('discounts', by.id) : live(ctx).find((x) => x.code !== null && x.code.toUpperCase() === by.code!.toUpperCase())
  if (!d || !isRedeemable(d, ctx.now)) return null
  if (d.type === 'fixed' && !(currency in (d.amounts ?? {}))) return null
  if (d.product_ids.length > 0 && !d.product_ids.includes(productId)) return null
  return d
}

/** The amount `d` takes off `amount` (minor units), never more than the amount itself. */
export function discountAmount(d: DiscountRecord, amount: number, currency: string): number {
  if (d.type === 'percentage') return Math.min(amount, Math.round((amount * (d.basis_points ?? 0)) / 10_000))
  return Math.min(amount, d.amounts?.[currency] ?? 0)
}

/**
 * Whether a subscription's discount has run its course by the period starting at `periodStart`, as the
 * service decides at each renewal, from `appliedAt`, the start of the first period it was applied to:
 * `once` covers that period only, `forever` never ends, `repeating` covers `duration_in_months` months.
 */
export function isRepetitionExpired(d: Pick<DiscountRecord, 'duration' | 'duration_in_months'>, appliedAt: number, periodStart: number): boolean {
  if (d.duration === 'once') return periodStart > appliedAt
  if (d.duration === 'forever' || d.duration_in_months === null) return false
  // the first month counts as the first repetition
  return periodStart > addInterval(appliedAt, 'month', d.duration_in_months - 1)
}

/**
 * The discount a renewing subscription still has for the period starting at `periodStart`, or none. A
 * discount set on the subscription since its last period is first applied now; one that has run its
 * course is taken off the subscription (call inside a store write).
 */
export function renewalDiscount(ctx: Pick<Ctx, 'store'>, s: SubscriptionRecord, periodStart: number): DiscountRecord | null {
  const d = s.discount_id ? ctx.store.get('discounts', s.discount_id) : undefined
  if (!d) return null
  s.discount_applied_at ??= new Date(periodStart).toISOString()
  if (isRepetitionExpired(d, Date.parse(s.discount_applied_at), periodStart)) {
    s.discount_id = null
    s.discount_applied_at = null
    return null
  }
  return d
}
