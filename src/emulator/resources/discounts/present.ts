// Discounts: stored records -> the API's wire shapes (server/polar/discount/schemas.py).
import {type View, orgId} from '../../core/present.js'
import {productCore} from '../products/present.js'
import type {DiscountRecord} from './model.js'
import type {Presented} from '../../core/present.js'

/** A discount without its products: the shape orders, subscriptions, checkouts and links embed. */
export function discountBase(v: View, d: DiscountRecord) {
  const [currency, amount] = Object.entries(d.amounts ?? {})[0] ?? ['usd', 0]
  return {
    duration: d.duration,
    ...(d.duration === 'repeating' ? {duration_in_months: d.duration_in_months} : {}),
    type: d.type,
    ...(d.type === 'percentage' ? {basis_points: d.basis_points} : {amount, currency, amounts: d.amounts}),
    created_at: d.created_at,
    modified_at: d.modified_at,
    id: d.id,
    metadata: d.metadata,
    name: d.name,
    code: d.code,
    starts_at: d.starts_at,
    ends_at: d.ends_at,
    max_redemptions: d.max_redemptions,
    max_redemptions_per_customer: d.max_redemptions_per_customer ?? null,
    redemptions_count: d.redemptions_count,
    organization_id: orgId(v),
  }
}

/** A discount as its own routes show it, with the products it is restricted to. */
export function discount(v: View, d: DiscountRecord): Presented<'Discount'> {
  // a union the compiler cannot tell apart by `duration` and `type` together: the members are checked at
  // run time by the contract mode
  return <Presented<'Discount'>>{
    ...discountBase(v, d),
    products: d.product_ids
      .map((id) => v.store.get('products', id))
      .filter((p) => p !== undefined)
      .map((p) => productCore(v, p)),
  }
}

/** The discount embedded in an order, subscription, checkout or link (`null` when none). */
export function embeddedDiscount(v: View, id: string | null) {
  const d = id ? v.store.get('discounts', id) : undefined
  return d ? discountBase(v, d) : null
}
