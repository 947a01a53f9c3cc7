// Subscriptions: stored records -> wire shapes (server/polar/subscription/schemas.py).
import {embeddedDiscount} from '../discounts/present.js'
import {type View, embedded} from '../../core/present.js'
import type {SubscriptionRecord} from './model.js'
import {customer} from '../customers/present.js'
import {price, product} from '../products/present.js'
import type {Presented} from '../../core/present.js'

export {isActiveSubscription} from './model.js'

export function subscriptionCore(s: SubscriptionRecord) {
  return {
    id: s.id,
    created_at: s.created_at,
    modified_at: s.modified_at,
    amount: s.amount,
    currency: s.currency,
    recurring_interval: s.recurring_interval,
    recurring_interval_count: s.recurring_interval_count,
    status: s.status,
    current_period_start: s.current_period_start,
    current_period_end: s.current_period_end,
    current_meter_period_start: null,
    current_meter_period_end: null,
    trial_start: s.trial_start,
    trial_end: s.trial_end,
    cancel_at_period_end: s.cancel_at_period_end,
    canceled_at: s.canceled_at,
    started_at: s.started_at,
    ends_at: s.ends_at,
    ended_at: s.ended_at,
    past_due_at: s.status === 'past_due' ? (s.past_due_at ?? s.modified_at) : null,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    customer_id: s.customer_id,
    product_id: s.product_id,
    discount_id: s.discount_id,
    checkout_id: s.checkout_id,
    seats: s.seats ?? null,
    units: null,
    customer_cancellation_reason: s.customer_cancellation_reason,
    customer_cancellation_comment: s.customer_cancellation_comment,
    metadata: s.metadata,
    custom_field_data: (s.custom_field_data ?? {}) as Presented<'Subscription'>['custom_field_data'],
  }
}

/** The service's hidden deprecated keys, which its answers still carry and the document no longer lists. */
interface DeprecatedSubscriptionKeys {
  price_id: string | null
  price: unknown
  user_id: string
  user: {id: string; email: string; public_name: string} | null
}

export function subscription(v: View, s: SubscriptionRecord): Presented<'Subscription'> & DeprecatedSubscriptionKeys {
  const c = v.store.get('customers', s.customer_id)
  const p = v.store.get('products', s.product_id)
  const prices = p ? p.prices.filter((x) => s.price_ids.includes(x.id)).map((x) => price(x, p, v.store)) : []
  return {
    ...subscriptionCore(s),
    customer: embedded(c ? customer(v, c) : null),
    product: embedded(p ? product(v, p) : null),
    discount: embeddedDiscount(v, s.discount_id) as Presented<'Subscription'>['discount'],
    prices,
    meters: [],
    pending_update: s.pending_update
      ? {
          created_at: s.pending_update.created_at,
          modified_at: null,
          id: s.pending_update.id,
          applies_at: s.current_period_end,
          product_id: null,
          seats: s.pending_update.seats,
        }
      : null,
    // hidden deprecated keys
    price_id: prices[0]?.id ?? null,
    price: prices[0] ?? null,
    user_id: s.customer_id,
    user: c ? {id: c.id, email: c.email ?? '', public_name: c.name ?? c.email ?? ''} : null,
  }
}
