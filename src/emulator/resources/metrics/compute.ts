// The service's metrics (server/polar/metrics): their slugs, names and types, what each period's value
// is made of, and how a period list folds into the total. Values are computed from the store's orders,
// subscriptions and checkouts; the emulator ingests no usage events, so the event-based metrics (costs,
// cost per user, active users by event) are 0.
import type {CheckoutRecord} from '../checkouts/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {type Interval, nextStart, periodStarts, truncate} from './periods.js'

export type MetricType = 'scalar' | 'currency' | 'currency_sub_cent' | 'percentage'
type Period = Record<string, number>
type Total = 'sum' | 'last' | ((periods: Period[]) => number)

export interface MetricDefinition {
  slug: string
  display_name: string
  type: MetricType
  total: Total
}

const CANCEL_REASONS = ['customer_service', 'low_quality', 'missing_features', 'switched_service', 'too_complex', 'too_expensive', 'unused', 'other'] as const
const title = (s: string) =>
  s
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')

const sumOf = (periods: Period[], slug: string) => periods.reduce((a, p) => a + (p[slug] ?? 0), 0)
const lastOf = (periods: Period[], slug: string) => periods.at(-1)?.[slug] ?? 0
const ratio = (a: number, b: number) => (b > 0 ? a / b : 0)

const def = (slug: string, display_name: string, type: MetricType, total: Total): MetricDefinition => ({slug, display_name, type, total})

export const METRICS: MetricDefinition[] = [
  def('orders', 'Orders', 'scalar', 'sum'),
  def('revenue', 'Revenue', 'currency', 'sum'),
  def('net_revenue', 'Net Revenue', 'currency', 'sum'),
  def('cumulative_revenue', 'Cumulative Revenue', 'currency', 'last'),
  def('net_cumulative_revenue', 'Net Cumulative Revenue', 'currency', 'last'),
  def('costs', 'Costs', 'currency_sub_cent', 'sum'),
  def('cumulative_costs', 'Cumulative Costs', 'currency_sub_cent', 'last'),
  def('average_order_value', 'Average Order Value', 'currency', (p) => ratio(sumOf(p, 'revenue'), sumOf(p, 'orders'))),
  def('net_average_order_value', 'Net Average Order Value', 'currency', (p) => ratio(sumOf(p, 'net_revenue'), sumOf(p, 'orders'))),
  def('average_revenue_per_user', 'Average Revenue Per User', 'currency', 'last'),
  def('cost_per_user', 'Cost Per User', 'currency_sub_cent', (p) => ratio(sumOf(p, 'costs'), lastOf(p, 'active_subscriptions'))),
  def('active_user_by_event', 'Active User (By event)', 'scalar', (p) => lastOf(p, 'active_subscriptions')),
  def('one_time_products', 'One-Time Products', 'scalar', 'sum'),
  def('one_time_products_revenue', 'One-Time Products Revenue', 'currency', 'sum'),
  def('one_time_products_net_revenue', 'One-Time Products Net Revenue', 'currency', 'sum'),
  def('new_subscriptions', 'New Subscriptions', 'scalar', 'sum'),
  def('new_subscriptions_revenue', 'New Subscriptions Revenue', 'currency', 'sum'),
  def('new_subscriptions_net_revenue', 'New Subscriptions Net Revenue', 'currency', 'sum'),
  def('renewed_subscriptions', 'Renewed Subscriptions', 'scalar', 'sum'),
  def('renewed_subscriptions_revenue', 'Renewed Subscriptions Revenue', 'currency', 'sum'),
  def('renewed_subscriptions_net_revenue', 'Renewed Subscriptions Net Revenue', 'currency', 'sum'),
  def('active_subscriptions', 'Active Subscriptions', 'scalar', 'last'),
  def('committed_subscriptions', 'Committed Subscriptions', 'scalar', 'last'),
  def('monthly_recurring_revenue', 'Monthly Recurring Revenue', 'currency', 'last'),
  def('committed_monthly_recurring_revenue', 'Committed Monthly Recurring Revenue', 'currency', 'last'),
  def('annual_recurring_revenue', 'Annual Recurring Revenue', 'currency', 'last'),
  def('committed_annual_recurring_revenue', 'Committed Annual Recurring Revenue', 'currency', 'last'),
  def('checkouts', 'Checkouts', 'scalar', 'sum'),
  def('succeeded_checkouts', 'Succeeded Checkouts', 'scalar', 'sum'),
  def('checkouts_conversion', 'Checkouts Conversion Rate', 'percentage', (p) => ratio(sumOf(p, 'succeeded_checkouts'), sumOf(p, 'checkouts'))),
  def('canceled_subscriptions', 'Canceled Subscriptions', 'scalar', 'sum'),
  ...CANCEL_REASONS.map((r) => def(`canceled_subscriptions_${r}`, `Canceled Subscriptions - ${title(r)}`, 'scalar', 'sum')),
  def('churned_subscriptions', 'Churned Subscriptions', 'scalar', 'sum'),
  def('churn_rate', 'Churn Rate', 'percentage', 'last'),
  def('ltv', 'Lifetime Value', 'currency', 'last'),
  def('gross_margin', 'Gross Margin', 'currency', 'last'),
  def('gross_margin_percentage', 'Gross Margin %', 'percentage', 'last'),
  def('cashflow', 'Cashflow', 'currency', 'sum'),
]

export const METRIC_SLUGS = new Set(METRICS.map((m) => m.slug))

export interface MetricsInput {
  orders: OrderRecord[]
  subscriptions: SubscriptionRecord[]
  checkouts: CheckoutRecord[]
  products: Map<string, ProductRecord>
  /** Whether an order counts as paid (paid, or refunded in part or in full) at `now`. */
  paid: (o: OrderRecord) => boolean
  /** Checkout status as presented at `now` (an open checkout past its expiry is expired). */
  checkoutStatus: (c: CheckoutRecord) => string
  start: number
  end: number
  now: number
  interval: Interval
  timeZone: string
  productIds?: Set<string>
  billingTypes?: Set<string>
  customerIds?: Set<string>
}

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso))
const netAmount = (o: OrderRecord) => o.subtotal_amount - o.discount_amount
/** What the organization receives: the net amount less the platform fee (0 in the emulator). */
const payoutAmount = (o: OrderRecord) => netAmount(o)

/** Monthly value of a subscription's amount, as the service rounds it. */
export function monthly(s: SubscriptionRecord): number {
  switch (s.recurring_interval) {
    case 'year':
      return Math.round(s.amount / 12)
    case 'month':
      return s.amount
    case 'week':
      return Math.round(s.amount * 4)
    case 'day':
      return Math.round(s.amount * 30)
  }
}

export interface MetricsResult {
  periods: Array<{start: number; values: Period}>
  totals: Period
}

/** Every metric for each period of the range, and their totals. */
export function computeMetrics(input: MetricsInput): MetricsResult {
  const {start, end, interval, timeZone: tz} = input
  const starts = periodStarts(start, end, interval, tz)
  const limit = nextStart(starts.at(-1)!, interval, tz)
  // Inside the periods, the start of an instant's period is found among them; outside, it is computed
  // (period starts fall on whole quarter hours in every zone, so one result serves a 15-minute slot).
  const slots = new Map<number, number>()
  const trunc = (t: number) => {
    if (t >= starts[0]! && t < limit) {
      let lo = 0
      let hi = starts.length
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1
        if (starts[mid]! <= t) lo = mid
        else hi = mid
      }
      return starts[lo]!
    }
    const slot = Math.floor(t / 900_000)
    let found = slots.get(slot)
    if (found === undefined) {
      found = truncate(t, interval, tz)
      slots.set(slot, found)
    }
    return found
  }
  const billingType = (productId: string | null) => {
    const p = productId ? input.products.get(productId) : undefined
    return p?.recurring_interval ? 'recurring' : 'one_time'
  }
  const keep = (productId: string | null, customerId: string | null) =>
    (!input.productIds || (productId !== null && input.productIds.has(productId))) &&
    (!input.billingTypes || input.billingTypes.has(billingType(productId))) &&
    (!input.customerIds || (customerId !== null && input.customerIds.has(customerId)))

  const index = new Map(starts.map((t, i) => [t, i]))
  const periods: Period[] = starts.map(() => Object.fromEntries(METRICS.map((m) => [m.slug, 0])))
  const at = (t: number) => periods[index.get(trunc(t))!]!
  const subscriptions = new Map(input.subscriptions.map((s) => [s.id, s]))

  // orders: paid ones created inside the bounds, in the period of their creation
  let baseline = 0
  let baselineNet = 0
  const orderSets = periods.map(() => ({count: 0, renewed: new Set<string>()}))
  for (const o of input.orders) {
    if (!input.paid(o) || !keep(o.product_id, o.customer_id)) continue
    const created = Date.parse(o.created_at)
    if (created < start) {
      baseline += netAmount(o)
      baselineNet += payoutAmount(o)
      continue
    }
    if (created > end) continue
    const i = index.get(trunc(created))!
    const p = periods[i]!
    const net = netAmount(o)
    const payout = payoutAmount(o)
    p.orders! += 1
    p.revenue! += net
    p.net_revenue! += payout
    if (o.subscription_id === null) {
      p.one_time_products! += 1
      p.one_time_products_revenue! += net
      p.one_time_products_net_revenue! += payout
    }
    const sub = o.subscription_id ? subscriptions.get(o.subscription_id) : undefined
    const started = sub ? ms(sub.started_at) : null
    if (started !== null) {
      if (trunc(started) === starts[i]) {
        p.new_subscriptions_revenue! += net
        p.new_subscriptions_net_revenue! += payout
      } else {
        orderSets[i]!.renewed.add(sub!.id)
        p.renewed_subscriptions_revenue! += net
        p.renewed_subscriptions_net_revenue! += payout
      }
    }
  }
  let running = baseline
  let runningNet = baselineNet
  periods.forEach((p, i) => {
    p.renewed_subscriptions = orderSets[i]!.renewed.size
    p.average_order_value = p.orders ? Math.ceil(p.revenue! / p.orders) : 0
    p.net_average_order_value = p.orders ? Math.ceil(p.net_revenue! / p.orders) : 0
    running += p.revenue!
    runningNet += p.net_revenue!
    p.cumulative_revenue = running
    p.net_cumulative_revenue = runningNet
  })

  // subscriptions: active in a period when started by its start and not ended by it
  const nowPeriod = trunc(input.now)
  // ARPU: MRR over the distinct customers with an active subscription
  const customers = starts.map(() => new Set<string>())
  // a subscription never started (incomplete) is left out, as the service's subscription lists leave it out
  const live = input.subscriptions.filter((s) => s.started_at !== null && keep(s.product_id, s.customer_id))
  for (const s of live) {
    const started = ms(s.started_at)
    const ends = ms(s.ended_at ?? s.ends_at)
    const canceled = ms(s.canceled_at)
    if (canceled !== null && canceled >= start && canceled <= end) {
      const p = at(canceled)
      p.canceled_subscriptions! += 1
      const reason =
        s.customer_cancellation_reason && (CANCEL_REASONS as readonly string[]).includes(s.customer_cancellation_reason)
          ? s.customer_cancellation_reason
          : 'other'
      p[`canceled_subscriptions_${reason}`]! += 1
    }
    if (ends !== null && ends >= start && ends <= end) at(ends).churned_subscriptions! += 1
    if ((started !== null && started > end) || (ends !== null && ends < start)) continue
    const startedPeriod = started === null ? null : trunc(started)
    const endPeriod = ends === null ? null : trunc(ends)
    const committed = endPeriod === null || endPeriod < nowPeriod
    // the periods from the one it started in (or the first) to the one before it ends
    const position = (period: number) => (period < starts[0]! ? 0 : period > starts.at(-1)! ? starts.length : index.get(period)!)
    const from = startedPeriod === null ? 0 : position(startedPeriod)
    const to = endPeriod === null ? starts.length : position(endPeriod)
    const value = monthly(s)
    for (let i = from; i < to; i++) {
      const p = periods[i]!
      p.active_subscriptions! += 1
      p.monthly_recurring_revenue! += value
      if (committed) {
        p.committed_subscriptions! += 1
        p.committed_monthly_recurring_revenue! += value
      }
      if (startedPeriod === starts[i]) p.new_subscriptions! += 1
      customers[i]!.add(s.customer_id)
    }
  }
  starts.forEach((_, i) => {
    const p = periods[i]!
    p.average_revenue_per_user = customers[i]!.size ? Math.round(p.monthly_recurring_revenue! / customers[i]!.size) : 0
    p.annual_recurring_revenue = p.monthly_recurring_revenue! * 12
    p.committed_annual_recurring_revenue = p.committed_monthly_recurring_revenue! * 12
  })

  // checkouts created inside the bounds
  for (const c of input.checkouts) {
    const created = Date.parse(c.created_at)
    if (created < start || created > end) continue
    if (input.productIds && !c.product_ids.some((id) => input.productIds!.has(id))) continue
    if (input.billingTypes && !c.product_ids.some((id) => input.billingTypes!.has(billingType(id)))) continue
    if (input.customerIds && (c.customer_id === null || !input.customerIds.has(c.customer_id))) continue
    const p = at(created)
    p.checkouts! += 1
    if (input.checkoutStatus(c) === 'succeeded') p.succeeded_checkouts! += 1
  }

  // metrics computed from the others
  for (const p of periods) {
    p.checkouts_conversion = ratio(p.succeeded_checkouts!, p.checkouts!)
    p.cashflow = p.revenue! - p.costs!
    p.gross_margin = p.cumulative_revenue! - p.cumulative_costs!
    p.gross_margin_percentage = ratio(p.cumulative_revenue! - p.cumulative_costs!, p.cumulative_revenue!)
    const activeAtStart = p.active_subscriptions! - p.new_subscriptions! + p.churned_subscriptions!
    p.churn_rate = ratio(p.canceled_subscriptions!, activeAtStart)
    p.ltv = p.churn_rate ? Math.max(0, Math.trunc((p.average_revenue_per_user! - p.cost_per_user!) / p.churn_rate)) : 0
  }

  const totals: Period = {}
  for (const m of METRICS) {
    totals[m.slug] = m.total === 'sum' ? sumOf(periods, m.slug) : m.total === 'last' ? lastOf(periods, m.slug) : m.total(periods)
  }
  return {periods: starts.map((t, i) => ({start: t, values: periods[i]!})), totals}
}
