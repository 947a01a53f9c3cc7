// Seeded orders: every status in a fixed cycle, with their subscriptions, refunds and invoices.
import type {EnvData} from '../../core/model.js'
import {DAY, iso} from '../../core/seeding.js'
import type {Random} from '../../core/ids.js'
import {PLACES} from '../customers/seed.js'
import {refundOrder} from '../refunds/seed.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {newSubscription} from '../subscriptions/seed.js'
import {buildOrder} from './build.js'
import type {OrderRecord, OrderStatus} from './model.js'

/** Status of the i-th order: a fixed cycle, so every status appears from 20 orders on. */
const ORDER_CYCLE: OrderStatus[] = [
  'paid',
  'pending',
  'paid',
  'refunded',
  'paid',
  'partially_refunded',
  'paid',
  'paid',
  'draft',
  'paid',
  'paid',
  'paid',
  'void',
  'paid',
  'partially_refunded',
  'paid',
  'paid',
  'refunded',
  'paid',
  'paid',
]

export function seedOrders(data: EnvData, random: Random, count: number, start: number, now: number): void {
  const sellable = data.products.filter((p) => !p.is_archived)
  const subscriptions = new Map<string, SubscriptionRecord>()
  const place = orderTimeline(start, now - 60_000)
  for (let i = 0; i < count; i++) {
    const at = place((i + random() * 0.8) / Math.max(1, count))
    const customer = data.customers[Math.floor(random() * data.customers.length)]!
    const product = i % 50 === 49 ? (data.products.find((p) => p.is_archived) ?? sellable[0]!) : sellable[Math.floor(random() * sellable.length)]!
    const price = product.prices[0]!
    const status = ORDER_CYCLE[i % ORDER_CYCLE.length]!
    const billed = i % 4 !== 0 && status !== 'draft'
    const address = billed ? (customer.billing_address ?? PLACES[i % PLACES.length]!) : null
    const amount = price.amount_type === 'custom' ? price.minimum_amount + Math.floor(random() * 50) * 100 : undefined

    let subscription: SubscriptionRecord | undefined
    let billingReason: OrderRecord['billing_reason'] = 'purchase'
    if (product.recurring_interval) {
      const key = `${customer.id}:${product.id}`
      subscription = subscriptions.get(key)
      billingReason = subscription ? 'subscription_cycle' : 'subscription_create'
      if (!subscription) {
        subscription = newSubscription(data, random, customer.id, product, price, at, now, subscriptions.size)
        subscriptions.set(key, subscription)
        data.subscriptions.push(subscription)
      }
    }
    const order = buildOrder(data, {
      now: at,
      customerId: customer.id,
      product,
      price,
      amount,
      discountAmount: i % 10 === 3 ? Math.round((amount ?? (price.amount_type === 'fixed' ? price.price_amount : 0)) * 0.2) : 0,
      billingReason,
      subscriptionId: subscription?.id ?? null,
      billingName: billed ? (customer.billing_name ?? customer.name) : null,
      billingAddress: address,
      status: status === 'pending' ? 'pending' : status,
      random,
    })
    if (status === 'pending') order.paid_at = null // waiting on the customer's payment: stays pending
    if (billed && status !== 'pending' && i % 2 === 1) {
      order.invoice_requested_at = iso(at + 60_000)
      order.invoice_ready_at = order.invoice_requested_at
      order.invoice_event_sent = true
    }
    if (status === 'refunded' || status === 'partially_refunded') refundOrder(data, random, order, status, at, now)
    data.orders.push(order)
  }
}

/**
 * Where the order at fraction `u` (0..1) of the seeded orders falls in time: more orders per day as the
 * business grows (about four times as many at the end as at the start), with a seasonal swing (a peak
 * in late November and December, a low in summer). Order n stays before order n+1.
 */
function orderTimeline(start: number, end: number): (u: number) => number {
  const days = Math.max(1, Math.ceil((end - start) / DAY))
  const cumulative = [0]
  for (let d = 0; d < days; d++) {
    const date = new Date(start + d * DAY)
    const dayOfYear = (date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY
    const growth = 0.5 + 1.5 * (d / days)
    const season = 1 + 0.35 * Math.cos((2 * Math.PI * (dayOfYear - 345)) / 365)
    cumulative.push(cumulative[d]! + growth * season)
  }
  const total = cumulative[days]!
  return (u) => {
    const target = u * total
    let lo = 0
    let hi = days
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! <= target) lo = mid
      else hi = mid
    }
    const within = (target - cumulative[lo]!) / (cumulative[lo + 1]! - cumulative[lo]!)
    return Math.min(end, Math.floor(start + (lo + within) * DAY))
  }
}
