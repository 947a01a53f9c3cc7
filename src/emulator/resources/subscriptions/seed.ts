// Seeded subscriptions: one per customer and recurring product ordered, in a fixed cycle of statuses.
import type {EnvData} from '../../core/model.js'
import {DAY, iso, pick} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from './model.js'
import {addInterval} from './periods.js'
import {minimumAmount} from '../products/amounts.js'

const SUBSCRIPTION_CYCLE: Array<{status: SubscriptionRecord['status']; cancelAtPeriodEnd?: boolean}> = [
  {status: 'active'},
  {status: 'active', cancelAtPeriodEnd: true},
  {status: 'trialing'},
  {status: 'past_due'},
  {status: 'canceled'},
  {status: 'active'},
  {status: 'unpaid'},
  {status: 'incomplete'},
  {status: 'active'},
]

export function newSubscription(
  _data: EnvData,
  random: Random,
  customerId: string,
  product: ProductRecord,
  price: PriceRecord,
  at: number,
  now: number,
  n: number,
): SubscriptionRecord {
  const shape = SUBSCRIPTION_CYCLE[n % SUBSCRIPTION_CYCLE.length]!
  const interval = product.recurring_interval!
  let periodStart = at
  while (addInterval(periodStart, interval, 1) < now) periodStart = addInterval(periodStart, interval, 1)
  const periodEnd = addInterval(periodStart, interval, 1)
  const canceled = shape.status === 'canceled'
  const endedAt = canceled ? Math.min(now - DAY, addInterval(at, interval, 1)) : null
  return {
    id: uuid(random),
    created_at: iso(at),
    modified_at: null,
    amount: minimumAmount(price),
    currency: price.price_currency,
    recurring_interval: interval,
    recurring_interval_count: product.recurring_interval_count ?? 1,
    status: shape.status,
    current_period_start: iso(canceled ? at : periodStart),
    current_period_end: iso(canceled ? addInterval(at, interval, 1) : periodEnd),
    trial_start: shape.status === 'trialing' ? iso(periodStart) : null,
    trial_end: shape.status === 'trialing' ? iso(periodEnd) : null,
    cancel_at_period_end: shape.cancelAtPeriodEnd ?? false,
    canceled_at: canceled ? iso(endedAt!) : shape.cancelAtPeriodEnd ? iso(now - 3 * DAY) : null,
    started_at: shape.status === 'incomplete' ? null : iso(at),
    ends_at: canceled ? iso(endedAt!) : shape.cancelAtPeriodEnd ? iso(periodEnd) : null,
    ended_at: canceled ? iso(endedAt!) : null,
    customer_id: customerId,
    product_id: product.id,
    discount_id: null,
    checkout_id: null,
    customer_cancellation_reason:
      canceled || shape.cancelAtPeriodEnd ? pick(random, ['too_expensive', 'unused', 'switched_service', 'missing_features']) : null,
    customer_cancellation_comment: canceled ? 'Moving to another tool.' : null,
    metadata: {},
    price_ids: [price.id],
  }
}
