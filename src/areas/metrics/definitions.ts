// One sentence per metric on how the service computes it (server/polar/metrics), for `till metrics list`,
// and each metric's definition as an answer gives it (every one of them may be null).
import type {MetricDefinition, MetricsResponse} from '../../client/resources/metrics.js'

const PAID = 'paid orders (refunded ones included) created in the period'

const DEFINITIONS: Record<string, string> = {
  orders: `Number of ${PAID}.`,
  revenue: `Sum of the net amounts (after discounts, before tax) of the ${PAID}.`,
  net_revenue: `Sum of what the organization receives (net amount less fees) for the ${PAID}.`,
  cumulative_revenue: 'Revenue of every paid order up to the end of the period, from the first order on.',
  net_cumulative_revenue: 'Net revenue of every paid order up to the end of the period, from the first order on.',
  costs: 'Sum of the _cost amounts of the ingested events in the period.',
  cumulative_costs: 'Costs up to the end of the period, from the range start.',
  average_order_value: 'Revenue divided by orders in the period, rounded up to the cent.',
  net_average_order_value: 'Net revenue divided by orders in the period, rounded up to the cent.',
  average_revenue_per_user: 'MRR divided by the customers with an active subscription.',
  cost_per_user: 'Costs divided by the customers seen in events.',
  active_user_by_event: 'Customers seen in ingested events in the period.',
  one_time_products: 'Paid orders without a subscription.',
  one_time_products_revenue: 'Revenue of the paid orders without a subscription.',
  one_time_products_net_revenue: 'Net revenue of the paid orders without a subscription.',
  new_subscriptions: 'Subscriptions started in the period.',
  new_subscriptions_revenue: 'Revenue of the orders of subscriptions started in the same period.',
  new_subscriptions_net_revenue: 'Net revenue of the orders of subscriptions started in the same period.',
  renewed_subscriptions: 'Subscriptions with an order in the period that started in an earlier one.',
  renewed_subscriptions_revenue: 'Revenue of the orders of subscriptions started in an earlier period.',
  renewed_subscriptions_net_revenue: 'Net revenue of the orders of subscriptions started in an earlier period.',
  active_subscriptions: 'Subscriptions started by the period (or not started yet) and not ended before it.',
  committed_subscriptions: 'Active subscriptions not set to end, or ending before the current period.',
  monthly_recurring_revenue: 'Monthly value of the active subscriptions (yearly / 12, weekly x 4, daily x 30).',
  committed_monthly_recurring_revenue: 'MRR of the committed subscriptions.',
  annual_recurring_revenue: 'MRR x 12.',
  committed_annual_recurring_revenue: 'Committed MRR x 12.',
  checkouts: 'Checkouts created in the period.',
  succeeded_checkouts: 'Checkouts created in the period that succeeded.',
  checkouts_conversion: 'Succeeded checkouts divided by checkouts.',
  canceled_subscriptions: 'Subscriptions canceled in the period (whenever they end).',
  churned_subscriptions: 'Subscriptions that ended, or are set to end, in the period.',
  churn_rate: 'Canceled subscriptions divided by the subscriptions active at the period start.',
  ltv: 'ARPU less cost per user, divided by the churn rate.',
  gross_margin: 'Cumulative revenue less cumulative costs.',
  gross_margin_percentage: 'Gross margin divided by cumulative revenue.',
  cashflow: 'Revenue less costs in the period.',
}

export function describeMetric(slug: string): string {
  const reason = /^canceled_subscriptions_(.+)$/.exec(slug)
  if (reason) return `Subscriptions canceled in the period with the reason "${reason[1]}"${reason[1] === 'other' ? ' or none' : ''}.`
  return DEFINITIONS[slug] ?? ''
}

/** The answer's metric definitions that are there (the service sends null for a metric it did not compute). */
export function presentMetrics(response: MetricsResponse): MetricDefinition[] {
  const all = Object.entries((response.metrics ?? {}) as Record<string, MetricDefinition | null>)
  return all
    .filter((entry): entry is [string, MetricDefinition] => entry[1] !== null && typeof entry[1] === 'object')
    .map(([slug, m]) => ({...m, slug: m.slug ?? slug}))
}

/** A metric's definition, or, when the answer has none (null), one naming it by its slug, counted as a number. */
export function metricDefinition(response: MetricsResponse, slug: string): {definition: MetricDefinition; missing: boolean} {
  const found = (response.metrics as Record<string, MetricDefinition | null | undefined> | undefined)?.[slug]
  if (found) return {definition: found, missing: false}
  return {definition: {slug, display_name: slug, type: 'scalar'}, missing: true}
}

/**
 * What a metric's figure over the range is, as the service computes its totals: the sum of the periods
 * (orders, revenue), the latest period's value for gauges (MRR, active subscriptions, cumulative figures),
 * or an average over the range (average order value, conversion).
 */
export type TotalKind = 'total' | 'latest' | 'average'

const LATEST = new Set([
  'cumulative_revenue',
  'net_cumulative_revenue',
  'cumulative_costs',
  'average_revenue_per_user',
  'active_user_by_event',
  'active_subscriptions',
  'committed_subscriptions',
  'monthly_recurring_revenue',
  'committed_monthly_recurring_revenue',
  'annual_recurring_revenue',
  'committed_annual_recurring_revenue',
  'churn_rate',
  'ltv',
  'gross_margin',
  'gross_margin_percentage',
])
const AVERAGE = new Set(['average_order_value', 'net_average_order_value', 'cost_per_user', 'checkouts_conversion'])

export function totalKind(slug: string): TotalKind {
  return LATEST.has(slug) ? 'latest' : AVERAGE.has(slug) ? 'average' : 'total'
}
