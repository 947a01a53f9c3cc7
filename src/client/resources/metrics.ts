// Metrics (GET /v1/metrics/, /v1/metrics/limits): values per period computed by the service from
// orders, subscriptions, checkouts and events. Currency values are in cents.
// These shapes read metrics by slug, not by the document's per-metric fields (Schema<'MetricsResponse'>,
// where a value or a metric may be null): src/areas/metrics is changed by other work, so they stay as they are.
import type {ApiClient} from '../client.js'
import type {Schema} from '../wire/index.js'
import {seg} from './common.js'

export const METRIC_INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const
export type MetricInterval = (typeof METRIC_INTERVALS)[number]
export type MetricType = 'scalar' | 'currency' | 'currency_sub_cent' | 'percentage'

export interface MetricDefinition {
  slug: string
  display_name: string
  type: MetricType
}

export interface MetricsPeriod {
  timestamp: string
  [slug: string]: number | string
}

export interface MetricsResponse {
  periods: MetricsPeriod[]
  totals: Record<string, number>
  metrics: Record<string, MetricDefinition>
}

export interface MetricsLimits {
  min_date: string
  intervals: Record<MetricInterval, {min_days: number; max_days: number}>
}

export interface MetricsQuery {
  /** YYYY-MM-DD, both inclusive. */
  startDate: string
  endDate: string
  interval: MetricInterval
  timezone?: string
  productId?: string[]
  billingType?: Array<'one_time' | 'recurring'>
  customerId?: string[]
  /** Only these metrics (all when absent). */
  metrics?: string[]
}

export const getMetrics = (client: ApiClient, q: MetricsQuery) =>
  client.get<MetricsResponse>('/metrics/', {
    query: {
      start_date: q.startDate,
      end_date: q.endDate,
      interval: q.interval,
      timezone: q.timezone,
      product_id: q.productId,
      billing_type: q.billingType,
      customer_id: q.customerId,
      metrics: q.metrics,
    },
  })

export const getMetricsLimits = (client: ApiClient) => client.get<MetricsLimits>('/metrics/limits')

/** The same query as getMetrics, as the service's CSV: a Timestamp column, then one column per metric by its display name. */
export async function exportMetrics(client: ApiClient, q: MetricsQuery): Promise<string> {
  const query = {
    start_date: q.startDate,
    end_date: q.endDate,
    interval: q.interval,
    timezone: q.timezone,
    product_id: q.productId,
    billing_type: q.billingType,
    customer_id: q.customerId,
    metrics: q.metrics,
  }
  const body = await client.get<unknown>('/metrics/export', {query, accept: 'text/csv'})
  return typeof body === 'string' ? body : JSON.stringify(body)
}

/** A saved metrics dashboard: its name and the metrics it shows, in order. */
export const getMetricDashboard = (client: ApiClient, id: string) => client.get<Schema<'MetricDashboardSchema'>>(`/metrics/dashboards/${seg(id)}`)
