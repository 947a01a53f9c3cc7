// Applying discounts: which one a checkout may take (by id or code, redeemable now, for a product and
// currency) and how much it takes off an amount.
import type {Ctx} from '../../core/http.js'
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

