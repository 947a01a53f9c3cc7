import {describe, expect, it} from 'vitest'

import type {CheckoutRecord} from '../checkouts/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {computeMetrics, type MetricsInput} from './compute.js'
import {dayBounds} from './periods.js'

const product = (id: string, interval: ProductRecord['recurring_interval']) => ({id, recurring_interval: interval}) as ProductRecord
const order = (id: string, created: string, net: number, o: Partial<OrderRecord> = {}) =>
  ({
    id,
    created_at: created,
    status: 'paid',
    subtotal_amount: net,
    discount_amount: 0,
    product_id: 'one',
    customer_id: 'c1',
    subscription_id: null,
    ...o,
  }) as OrderRecord
const sub = (id: string, started: string, s: Partial<SubscriptionRecord> = {}) =>
  ({
    id,
    started_at: started,
    ended_at: null,
    ends_at: null,
    canceled_at: null,
    amount: 1200,
    recurring_interval: 'month',
    customer_id: 'c1',
    product_id: 'plan',
    customer_cancellation_reason: null,
    ...s,
  }) as SubscriptionRecord

function input(orders: OrderRecord[], subscriptions: SubscriptionRecord[], extra: Partial<MetricsInput> = {}): MetricsInput {
  const {start, end} = dayBounds('2026-01-01', '2026-03-31', 'UTC')
  return {
    orders,
    subscriptions,
    checkouts: [] as CheckoutRecord[],
    products: new Map([
      ['one', product('one', null)],
      ['plan', product('plan', 'month')],
      ['yearly', product('yearly', 'year')],
    ]),
    paid: (o) => o.status !== 'pending',
    checkoutStatus: (c) => c.status,
    start,
    end,
    now: Date.parse('2026-03-15T00:00:00Z'),
    interval: 'month',
    timeZone: 'UTC',
    ...extra,
  }
}

describe('metrics from a small store', () => {
  const subs = [
    sub('s1', '2025-12-10T00:00:00Z'),
    sub('s2', '2026-02-03T00:00:00Z', {amount: 12_000, recurring_interval: 'year', product_id: 'yearly', customer_id: 'c2'}),
    sub('s3', '2025-11-01T00:00:00Z', {
      canceled_at: '2026-02-10T00:00:00Z',
      ends_at: '2026-03-01T00:00:00Z',
      customer_cancellation_reason: 'too_expensive',
      customer_id: 'c3',
    }),
    sub('never', null as unknown as string, {started_at: null}),
  ]
  const orders = [
    order('before', '2025-12-20T00:00:00Z', 5000),
    order('a', '2026-01-05T00:00:00Z', 1000),
    order('b', '2026-01-20T00:00:00Z', 1001, {subscription_id: 's1', product_id: 'plan'}),
    order('c', '2026-02-03T00:00:00Z', 12_000, {subscription_id: 's2', product_id: 'yearly', customer_id: 'c2'}),
    order('pending', '2026-02-04T00:00:00Z', 999, {status: 'pending'}),
    order('late', '2026-04-01T00:00:00Z', 700),
  ]
  const {periods, totals} = computeMetrics(input(orders, subs))
  const v = periods.map((p) => p.values)

  it('counts paid orders in their period, splits one-time, new and renewed revenue', () => {
    expect(v.map((p) => p.orders)).toEqual([2, 1, 0])
    expect(v.map((p) => p.revenue)).toEqual([2001, 12_000, 0])
    expect(v[0]!.average_order_value).toBe(1001) // ceil(2001 / 2)
    expect(v[0]!.one_time_products_revenue).toBe(1000)
    expect(v[0]!.renewed_subscriptions).toBe(1)
    expect(v[1]!.new_subscriptions_revenue).toBe(12_000)
    expect(v.map((p) => p.cumulative_revenue)).toEqual([7001, 19_001, 19_001])
    expect(totals.revenue).toBe(14_001)
    expect(totals.average_order_value).toBeCloseTo(14_001 / 3)
  })

  it('counts active subscriptions and MRR per period, yearly plans at a twelfth', () => {
    expect(v.map((p) => p.active_subscriptions)).toEqual([2, 3, 2])
    expect(v.map((p) => p.monthly_recurring_revenue)).toEqual([2400, 3400, 2200])
    expect(v[1]!.annual_recurring_revenue).toBe(3400 * 12)
    expect(v.map((p) => p.new_subscriptions)).toEqual([0, 1, 0])
    expect(totals.active_subscriptions).toBe(2)
  })

  it('counts cancellations by reason, churn where subscriptions end, and the churn rate', () => {
    expect(v.map((p) => p.canceled_subscriptions)).toEqual([0, 1, 0])
    expect(v[1]!.canceled_subscriptions_too_expensive).toBe(1)
    expect(v.map((p) => p.churned_subscriptions)).toEqual([0, 0, 1])
    expect(v[1]!.churn_rate).toBeCloseTo(1 / 2) // active 3 - new 1 + churned 0 at the start of February
  })

  it('narrows by product and billing type', () => {
    const oneTime = computeMetrics(input(orders, subs, {billingTypes: new Set(['one_time'])}))
    expect(oneTime.totals.revenue).toBe(1000)
    expect(oneTime.totals.active_subscriptions).toBe(0)
    const yearly = computeMetrics(input(orders, subs, {productIds: new Set(['yearly'])}))
    expect(yearly.totals.orders).toBe(1)
    expect(yearly.periods.map((p) => p.values.monthly_recurring_revenue)).toEqual([0, 1000, 1000])
  })
})
