// The report's tables beside the metrics: products ranked by revenue in the range (from the service's
// metrics filtered by product) and succeeded refunds per period (from the refunds list).
import type {ApiClient} from '../../client/client.js'
import {getMetrics} from '../../client/resources/metrics.js'
import {listOrders} from '../../client/resources/orders.js'
import {listProducts} from '../../client/resources/products.js'
import {listRefunds} from '../../client/resources/refunds.js'
import {metricsQuery, type Filters} from './load.js'
import {rangeBounds, type MetricsRange} from './range.js'
import type {RefundPoint, TopProduct} from './report.js'

/** Runs `f` on every item, `width` at a time, keeping the order. */
async function mapLimited<T, U>(items: T[], width: number, f: (item: T) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length)
  let next = 0
  await Promise.all(
    Array.from({length: Math.min(width, items.length)}, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await f(items[i]!)
      }
    }),
  )
  return out
}

/** Products with revenue in the range, most first (at most `count`). */
export async function topProducts(client: ApiClient, range: MetricsRange, filters: Filters, count = 10): Promise<TopProduct[]> {
  const products: Array<{id: string; name: string}> = []
  for await (const p of listProducts(client, {}, {all: true, limit: 100})) {
    if (!filters.product || filters.product.includes(p.id)) products.push({id: p.id, name: String(p.name)})
  }
  const ranked = await mapLimited(products, 4, async (p) => {
    const r = await getMetrics(client, {...metricsQuery(range, {...filters, product: [p.id]}, ['revenue', 'orders'])})
    return {...p, revenue: r.totals.revenue ?? 0, orders: r.totals.orders ?? 0}
  })
  return ranked
    .filter((p) => p.orders > 0)
    .sort((a, b) => b.revenue - a.revenue || a.name.localeCompare(b.name))
    .slice(0, count)
}

/** The ids of the orders the filters keep, or undefined when there are no filters. */
async function filteredOrderIds(client: ApiClient, filters: Filters): Promise<Set<string> | undefined> {
  if (!filters.product && !filters['billing-type']) return undefined
  const ids = new Set<string>()
  for await (const o of listOrders(client, {productId: filters.product, billingType: filters['billing-type']}, {all: true, limit: 100})) ids.add(o.id)
  return ids
}

/** Succeeded refunds created in the range (of the filtered products' orders); the returned function buckets them into the given periods. */
export async function refundsPerPeriod(client: ApiClient, range: MetricsRange, filters: Filters): Promise<(periods: string[]) => RefundPoint[]> {
  const {start, end} = rangeBounds(range)
  const orderIds = await filteredOrderIds(client, filters)
  const refunds: Array<{at: number; amount: number}> = []
  for await (const r of listRefunds(client, {succeeded: true}, {all: true, limit: 100})) {
    const at = Date.parse(String(r.created_at))
    if (at >= start && at <= end && (!orderIds || orderIds.has(String(r.order_id)))) refunds.push({at, amount: Number(r.amount)})
  }
  return (periods) => {
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
