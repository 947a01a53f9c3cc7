// Products and their prices: stored records -> wire shapes (server/polar/product/schemas.py).
import {type View, orgId} from '../../core/present.js'
import type {Store} from '../../core/store.js'
import type {PriceRecord, ProductRecord} from './model.js'
import {benefit} from '../benefits/present.js'
import {customField} from '../custom-fields/present.js'
import type {Presented} from '../../core/present.js'

export function price(p: PriceRecord, product: ProductRecord, store?: Store) {
  const base = {
    id: p.id,
    created_at: p.created_at,
    modified_at: p.modified_at,
    source: p.source,
    amount_type: p.amount_type,
    price_currency: p.price_currency,
    tax_behavior: p.tax_behavior,
    is_archived: p.is_archived,
    product_id: p.product_id,
    // hidden deprecated keys of non-legacy prices
    type: product.recurring_interval ? 'recurring' : 'one_time',
    recurring_interval: product.recurring_interval,
  }
  switch (p.amount_type) {
    case 'fixed':
      return {...base, price_amount: p.price_amount}
    case 'custom':
      return {...base, minimum_amount: p.minimum_amount, maximum_amount: p.maximum_amount, preset_amount: p.preset_amount}
    case 'seat_based':
      return {...base, seat_tiers: {seat_tier_type: 'volume' as const, ...p.seat_tiers}}
    case 'metered_unit': {
      // the meter as the price embeds it (its name and unit), looked up in the meters resource
      const meter = store?.data.meters.find((m) => m.id === p.meter_id)
      const embedded = {
        id: p.meter_id,
        name: meter?.name ?? '',
        unit: meter?.unit ?? 'scalar',
        custom_label: meter?.custom_label ?? null,
        custom_multiplier: meter?.custom_multiplier ?? null,
      }
      return {...base, unit_amount: p.unit_amount, cap_amount: p.cap_amount, meter_id: p.meter_id, meter: embedded}
    }
  }
}

export function productCore(v: View, p: ProductRecord) {
  return {
    id: p.id,
    created_at: p.created_at,
    modified_at: p.modified_at,
    trial_interval: null,
    trial_interval_count: null,
    name: p.name,
    description: p.description,
    visibility: p.visibility,
    recurring_interval: p.recurring_interval,
    recurring_interval_count: p.recurring_interval_count,
    meter_interval: null,
    meter_interval_count: null,
    is_recurring: p.recurring_interval !== null,
    is_archived: p.is_archived,
    organization_id: orgId(v),
    metadata: p.metadata,
  }
}

const usedCache = new WeakMap<View, Set<string>>()

/** Ids of products that orders, subscriptions or discounts use (they cannot be deleted); computed once per view. */
function usedProductIds(v: View): Set<string> {
  let used = usedCache.get(v)
  if (!used) {
    used = new Set<string>()
    for (const o of v.store.all('orders')) if (o.product_id) used.add(o.product_id)
    for (const s of v.store.all('subscriptions')) used.add(s.product_id)
    // SDK 1.0.1: "only products without orders, subscriptions, trials or discounts can be deleted"
    for (const d of v.store.all('discounts')) for (const id of d.product_ids) used.add(id)
    usedCache.set(v, used)
  }
  return used
}

/** Newer than the document: SDK 1.0.1's products say whether they can be deleted. */
export function product(v: View, p: ProductRecord): Presented<'Product'> & {is_deletable: boolean} {
  return {
    ...productCore(v, p),
    is_deletable: !usedProductIds(v).has(p.id),
    prices: p.prices.map((x) => price(x, p, v.store)),
    benefits: p.benefit_ids
      .map((id) => v.store.get('benefits', id))
      .filter((b) => b !== undefined)
      .map((b) => benefit(v, b)),
    medias: [],
    attached_custom_fields: (p.attached_custom_fields ?? []).flatMap((a, order) => {
      const field = v.store.get('custom_fields', a.custom_field_id)
      return field ? [{custom_field_id: field.id, custom_field: customField(v, field), order, required: a.required}] : []
    }),
  }
}
