// Reading metrics for a range (and the range before it), and the organization's currency.
import type {ApiClient} from '../../client/client.js'
import {getMetrics, type MetricsQuery, type MetricsResponse} from '../../client/resources/metrics.js'
import {ownOrganization} from '../../client/resources/organizations.js'
import {previousRange, resolveRange, type MetricsRange, type RangeFlags} from './range.js'

export interface Filters {
  product?: string[]
  'billing-type'?: 'one_time' | 'recurring'
}

export function metricsQuery(range: MetricsRange, filters: Filters, metrics?: string[]): MetricsQuery {
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    interval: range.interval,
    timezone: range.timezone,
    productId: filters.product,
    billingType: filters['billing-type'] ? [filters['billing-type']] : undefined,
    metrics,
  }
}

/** Metrics of the range and of the range of the same length before it, read together. */
export async function withPrevious(
  client: ApiClient,
  range: MetricsRange,
  filters: Filters,
  metrics?: string[],
): Promise<{current: MetricsResponse; previous: MetricsResponse}> {
  const [current, previous] = await Promise.all([
    getMetrics(client, metricsQuery(range, filters, metrics)),
    getMetrics(client, metricsQuery(previousRange(range), filters, metrics)),
  ])
  return {current, previous}
}

/** The organization's name and the currency its amounts are shown in (USD unless it says otherwise). */
export async function organizationCurrency(client: ApiClient): Promise<{name: string; currency: string}> {
  const org = (await ownOrganization(client)) as unknown as Record<string, unknown>
  const currency = typeof org.default_presentment_currency === 'string' ? org.default_presentment_currency : 'usd'
  return {name: String(org.name ?? ''), currency}
}

const UNITS: Record<string, string> = {d: 'day', w: 'week', m: 'month', y: 'year'}

/** How the range before is named: "previous 12 months" for --last 12m, "previous 31 days" otherwise. */
export function previousLabel(last: string | undefined, days: number): string {
  const match = last ? /^(\d+)([dwmy])$/.exec(last) : null
  if (match) return `previous ${match[1]} ${UNITS[match[2]!]}${match[1] === '1' ? '' : 's'}`
  return `previous ${days} day${days === 1 ? '' : 's'}`
}

/**
 * The range the flags name, checked now against this machine's time (so that a bad range is said before any
 * request), and resolved later from the time of the environment the client talks to: an emulator's clock may
 * run ahead (the context's clock, src/cli/environment-clock.ts).
 */
export function rangeOf(flags: RangeFlags): (now: () => Promise<number>) => Promise<MetricsRange> {
  resolveRange(flags, Date.now())
  return async (now) => resolveRange(flags, await now())
}
