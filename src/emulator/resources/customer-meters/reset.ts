// What a subscription's new period does to its customer's meters, as the service does on a subscription's
// creation and on each cycle: every meter of the subscription's metered prices is reset (`meter.reset`), and
// the units credited with `rollover` that are still unused carry over (`meter.credited`, rollover true).
// On a cycle, the subscription's meter-credit benefits credit their units again (`benefit.cycled`).
import type {Store} from '../../core/store.js'
import {recordSystemEvent} from '../events/log.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {rolloverUnits} from './state.js'

/** The meters billed by the subscription: those of its product's metered prices. */
function subscriptionMeters(store: Store, s: SubscriptionRecord): string[] {
  const product = store.get('products', s.product_id)
  const ids = (product?.prices ?? []).flatMap((p) => (p.amount_type === 'metered_unit' && (!p.is_archived || s.price_ids.includes(p.id)) ? [p.meter_id] : []))
  return [...new Set(ids)]
}

/** Resets the subscription's meters for its customer. Call inside `store.write`. */
export function resetSubscriptionMeters(store: Store, s: SubscriptionRecord, at: string): void {
  const customer = store.get('customers', s.customer_id)
  if (!customer) return
  for (const meterId of subscriptionMeters(store, s)) {
    const meter = store.data.meters.find((m) => m.id === meterId)
    const carried = meter ? rolloverUnits(store, customer, meter) : 0
    recordSystemEvent(store, 'meter.reset', customer.id, at, {meter_id: meterId})
    if (carried > 0) recordSystemEvent(store, 'meter.credited', customer.id, at, {meter_id: meterId, units: carried, rollover: true})
  }
}

/** The system events of a subscription's cycle: `subscription.cycled`, its meters reset, its meter credits again. */
export function recordSubscriptionCycle(store: Store, s: SubscriptionRecord, at: string): void {
  recordSystemEvent(store, 'subscription.cycled', s.customer_id, at, {
    subscription_id: s.id,
    product_id: s.product_id,
    amount: s.amount,
    currency: s.currency,
    recurring_interval: s.recurring_interval,
    recurring_interval_count: s.recurring_interval_count,
  })
  resetSubscriptionMeters(store, s, at)
  for (const g of store.where('benefit_grants', 'customer_id', s.customer_id)) {
    if (g.subscription_id !== s.id || g.revoked_at !== null || g.granted_at === null) continue
    const benefit = store.get('benefits', g.benefit_id)
    if (benefit?.type !== 'meter_credit') continue
    const p = benefit.properties as {meter_id?: string; units?: number; rollover?: boolean}
    recordSystemEvent(store, 'benefit.cycled', s.customer_id, at, {benefit_id: benefit.id, benefit_grant_id: g.id, benefit_type: benefit.type})
    recordSystemEvent(store, 'meter.credited', s.customer_id, at, {meter_id: p.meter_id, units: p.units ?? 0, rollover: p.rollover ?? false})
  }
}
