// Customers: stored records -> wire shapes (server/polar/customer/schemas.py).
import {type View, orgId} from '../../core/present.js'
import type {CustomerRecord} from './model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {isActiveSubscription} from '../subscriptions/model.js'
import {customerMeterState} from '../customer-meters/state.js'
import {defaultMethodId} from '../payments/methods.js'
import type {Presented} from '../../core/present.js'

export function customer(v: View, c: CustomerRecord): Presented<'Customer'> {
  return {
    id: c.id,
    created_at: c.created_at,
    modified_at: c.modified_at,
    metadata: c.metadata,
    external_id: c.external_id,
    email: c.email,
    email_verified: c.email_verified,
    type: c.type,
    name: c.name,
    billing_name: c.billing_name,
    billing_address: c.billing_address,
    tax_id: c.tax_id,
    locale: c.locale,
    organization_id: orgId(v),
    // the method its list marks is_default (a seeded customer's first payment's card, until one is chosen)
    default_payment_method_id: c.deleted_at === null ? defaultMethodId(v, c) : null,
    deleted_at: c.deleted_at,
    first_user_event_at: null,
    avatar_url: `https://www.gravatar.com/avatar/${c.id.replaceAll('-', '')}?d=404`,
  }
}

function stateSubscription(s: SubscriptionRecord) {
  return {
    id: s.id,
    created_at: s.created_at,
    modified_at: s.modified_at,
    metadata: s.metadata,
    custom_field_data: {},
    status: s.status,
    amount: s.amount,
    currency: s.currency,
    recurring_interval: s.recurring_interval,
    current_period_start: s.current_period_start,
    current_period_end: s.current_period_end,
    trial_start: s.trial_start,
    trial_end: s.trial_end,
    cancel_at_period_end: s.cancel_at_period_end,
    canceled_at: s.canceled_at,
    started_at: s.started_at,
    ends_at: s.ends_at,
    product_id: s.product_id,
    discount_id: s.discount_id,
    seats: null,
    units: null,
    meters: [],
    // hidden deprecated key
    price_id: s.price_ids[0] ?? null,
  }
}

/** CustomerState: the customer, its active subscriptions, its granted benefits and its meters. */
export function customerState(v: View, c: CustomerRecord) {
  const granted = v.store.where('benefit_grants', 'customer_id', c.id).flatMap((g) => {
    const benefit = g.granted_at !== null && g.revoked_at === null ? v.store.get('benefits', g.benefit_id) : undefined
    if (!benefit || benefit.is_deleted) return []
    return [
      {
        id: g.id,
        created_at: g.created_at,
        modified_at: g.modified_at,
        granted_at: g.granted_at,
        benefit_id: g.benefit_id,
        benefit_type: benefit.type,
        benefit_metadata: benefit.metadata,
        properties: g.properties,
      },
    ]
  })
  return {
    ...customer(v, c),
    active_subscriptions: v.store.where('subscriptions', 'customer_id', c.id).filter(isActiveSubscription).map(stateSubscription),
    granted_benefits: granted,
    active_meters: v.store.data.meters.flatMap((m) => {
      if (m.archived_at !== null) return []
      const state = customerMeterState(v, c, m)
      if (!state) return []
      const {customer_id: _customer, ...meter} = state
      return [meter]
    }),
  }
}
