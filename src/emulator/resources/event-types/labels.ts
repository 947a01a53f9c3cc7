// Labels of events and event names: a user event's is its event type's label (its name until changed);
// a system event's is the service's fixed label for it.
import type {Store} from '../../core/store.js'

const SYSTEM_LABELS: Record<string, string> = {
  'benefit.granted': 'Benefit Granted',
  'benefit.cycled': 'Benefit Cycled',
  'benefit.updated': 'Benefit Updated',
  'benefit.revoked': 'Benefit Revoked',
  'subscription.created': 'Subscription Created',
  'subscription.updated': 'Subscription Updated',
  'subscription.canceled': 'Subscription Canceled',
  'subscription.cycled': 'Subscription Cycled',
  'subscription.revoked': 'Subscription Revoked',
  'subscription.past_due': 'Subscription Past Due',
  'subscription.reactivated': 'Subscription Reactivated',
  'subscription.uncanceled': 'Subscription Uncanceled',
  'subscription.product_updated': 'Subscription Product Updated',
  'subscription.migrated': 'Subscription Migrated',
  'order.paid': 'Order Paid',
  'order.refunded': 'Order Refunded',
  'checkout.created': 'Checkout Created',
  'customer.created': 'Customer Created',
  'customer.updated': 'Customer Updated',
  'customer.deleted': 'Customer Deleted',
  'meter.credited': 'Meter Credited',
  'meter.reset': 'Meter Reset',
}

export function eventLabel(store: Store, name: string, source: 'user' | 'system'): string {
  const type = store.data.event_types.find((t) => t.name === name)
  if (source === 'system') return SYSTEM_LABELS[name] ?? type?.label ?? name
  return type?.label ?? name
}
