// The report's tables beside the metrics: products ranked by revenue in the range, per currency (from the
// orders list) and succeeded refunds per period (from the refunds list).
import type {ApiClient} from '../../client/client.js'
import {listOrders} from '../../client/resources/orders.js'
import {listRefunds} from '../../client/resources/refunds.js'
import type {Filters} from './load.js'
import {rangeBounds, type MetricsRange} from './range.js'
import type {RefundPoint, TopProduct} from './report.js'

const PAID = new Set(['paid', 'refunded', 'partially_refunded'])

/**
 * Products with revenue in the range (net of discounts, before tax, as the service's revenue metric: paid
 * orders created in the range), one row per product and currency, never summed across currencies: the
 * organization's currency first, then the others, each most first (at most `count` rows each). Also the
 * currencies other than `currency` that orders in the range were paid in (the service's metrics add them up as they are).
 */
export async function topProducts(
  client: ApiClient,
  range: MetricsRange,
  filters: Filters,
  currency: string,
  count = 10,
): Promise<{products: TopProduct[]; otherCurrencies: string[]}> {
  const {start, end} = rangeBounds(range)
  const rows = new Map<string, TopProduct>()
  const others = new Set<string>()
  const query = {productId: filters.product, billingType: filters['billing-type']}
  for await (const o of listOrders(client, query, {all: true, limit: 100})) {
    const at = Date.parse(String(o.created_at))
    if (!PAID.has(String(o.status)) || at < start || at > end || !o.product_id) continue
    const code = String(o.currency).toLowerCase()
    if (code !== currency.toLowerCase()) others.add(code)
    const key = `${o.product_id} ${code}`
    const row = rows.get(key) ?? {id: o.product_id, name: String(o.product?.name ?? o.product_id), currency: code, revenue: 0, orders: 0}
    row.revenue += Number(o.net_amount)
    row.orders += 1
    rows.set(key, row)
  }
  const first = (c: string) => (c === currency.toLowerCase() ? '' : c)
  const sorted = [...rows.values()].sort((a, b) => first(a.currency).localeCompare(first(b.currency)) || b.revenue - a.revenue || a.name.localeCompare(b.name))
  const products = sorted.filter((p, i) => sorted.findIndex((q) => q.currency === p.currency) > i - count)
  return {products, otherCurrencies: [...others].sort()}
}

/** The ids of the orders the filters keep, or undefined when there are no filters. */
async function filteredOrderIds(client: ApiClient, filters: Filters): Promise<Set<string> | undefined> {
  if (!filters.product && !filters['billing-type']) return undefined
  const ids = new Set<string>()
  for await (const o of listOrders(client, {productId: filters.product, billingType: filters['billing-type']}, {all: true, limit: 100})) ids.add(o.id)
  return ids
}

/**
 * Succeeded refunds created in the range (of the filtered products' orders); the returned function buckets
 * them into the given periods. Amounts are those in `currency`; a refund in another currency is counted,
 * and its amount added to `others` (per currency), never to the period's amount.
 */
export async function refundsPerPeriod(
  client: ApiClient,
  range: MetricsRange,
  filters: Filters,
  currency: string,
): Promise<(periods: string[]) => {points: RefundPoint[]; others: Record<string, number>}> {
  const {start, end} = rangeBounds(range)
  const orderIds = await filteredOrderIds(client, filters)
  const refunds: Array<{at: number; amount: number}> = []
  const others: Record<string, number> = {}
  for await (const r of listRefunds(client, {succeeded: true}, {all: true, limit: 100})) {
    const at = Date.parse(String(r.created_at))
    if (at < start || at > end || (orderIds && !orderIds.has(String(r.order_id)))) continue
    const code = String(r.currency).toLowerCase()
    const own = code === currency.toLowerCase()
    if (!own) others[code] = (others[code] ?? 0) + Number(r.amount)
    refunds.push({at, amount: own ? Number(r.amount) : 0})
  }
  return (periods) => ({points: bucket(periods), others})
  function bucket(periods: string[]): RefundPoint[] {
    const starts = periods.map((p) => Date.parse(p))
    const points = periods.map((timestamp) => ({timestamp, amount: 0, count: 0}))
    for (const r of refunds) {
      let i = starts.length - 1
      while (i > 0 && starts[i]! > r.at) i--
      points[i]!.amount += r.amount
      points[i]!.count += 1
    }
    return points
  }
}
