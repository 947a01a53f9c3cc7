// The seeded seats: the team customer subscribes to the seat-based product with five seats, one of which a
// seeded customer has claimed; so a fresh emulator shows a subscription with seats and an assigned seat.
import {uuid, type Random} from '../../core/ids.js'
import type {EnvData} from '../../core/model.js'
import {DAY, iso} from '../../core/seeding.js'
import {seatsAmount} from '../products/amounts.js'
import {addInterval} from '../subscriptions/periods.js'

const SEATS = 5

export function seedSeats(data: EnvData, random: Random, now: number): void {
  const product = data.products.find((p) => p.metadata.variant === 'seed' && p.prices.some((x) => x.amount_type === 'seat_based'))
  const price = product?.prices.find((x) => x.amount_type === 'seat_based')
  const team = data.customers.find((c) => c.type === 'team')
  const holder = data.customers.find((c) => c.type === 'individual' && c.deleted_at === null)
  if (!product || !price || price.amount_type !== 'seat_based' || !team || !holder) return
  const started = now - 75 * DAY
  let periodStart = started
  while (addInterval(periodStart, 'month', 1) < now) periodStart = addInterval(periodStart, 'month', 1)
  const subscriptionId = uuid(random)
  data.subscriptions.push({
    id: subscriptionId,
    created_at: iso(started),
    modified_at: null,
    amount: seatsAmount(price, SEATS),
    currency: price.price_currency,
    recurring_interval: 'month',
    recurring_interval_count: 1,
    status: 'active',
    current_period_start: iso(periodStart),
    current_period_end: iso(addInterval(periodStart, 'month', 1)),
    trial_start: null,
    trial_end: null,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: iso(started),
    ends_at: null,
    ended_at: null,
    customer_id: team.id,
    product_id: product.id,
    discount_id: null,
    checkout_id: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    metadata: {variant: 'seed'},
    price_ids: [price.id],
    seats: SEATS,
  })
  const assigned = iso(started + DAY)
  data.customer_seats.push({
    id: uuid(random),
    created_at: assigned,
    modified_at: iso(started + 2 * DAY),
    subscription_id: subscriptionId,
    order_id: null,
    status: 'claimed',
    customer_id: holder.id,
    email: holder.email,
    invitation_token: null,
    invitation_token_expires_at: null,
    claimed_at: iso(started + 2 * DAY),
    revoked_at: null,
    seat_metadata: {},
  })
}
