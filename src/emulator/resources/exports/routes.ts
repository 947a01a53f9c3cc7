// The service's CSV exports of orders, subscriptions and customers (GET /orders/export,
// /subscriptions/export, /customers/export), as its csv writer renders them.
import {requestValidation} from '../../core/errors.js'
import type {Ctx, Reply, Router} from '../../core/http.js'
import {oldestFirst} from '../../core/seeding.js'
import {UUID_RE, uuidIssue} from '../../core/validate.js'
import type {CustomerRecord} from '../customers/model.js'
import type {OrderRecord} from '../orders/model.js'
import {order as presentOrder} from '../orders/present.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {csvRow, pyIso, type Cell} from './csv.js'

function csvReply(filename: string, header: string[], rows: Cell[][]): Reply {
  const text = csvRow(header) + rows.map(csvRow).join('')
  return {status: 200, headers: {'content-disposition': `attachment; filename="${filename}"`}, raw: {contentType: 'text/csv; charset=utf-8', data: text}}
}

/** The repeated `name` query values, each a UUID (else the framework's 422). */
function uuidFilter(ctx: Ctx, name: string): Set<string> | null {
  const values = ctx.query.getAll(name)
  if (values.length === 0) return null
  values.forEach((v, i) => {
    if (!UUID_RE.test(v)) throw requestValidation([uuidIssue(['query', name, i], v)])
  })
  return new Set(values.map((v) => v.toLowerCase()))
}

const minor = (amount: number) => amount / 100
const sortNewest = <T extends {created_at: string}>(rows: T[]) => [...rows].sort((a, b) => oldestFirst(b, a))

function exportOrders(ctx: Ctx): Reply {
  uuidFilter(ctx, 'organization_id')
  const products = uuidFilter(ctx, 'product_id')
  const orders = sortNewest(ctx.store.all('orders').filter((o) => !products || (o.product_id !== null && products.has(o.product_id))))
  const rows = orders.map((o: OrderRecord) => {
    const order = presentOrder(ctx.view, o)
    return [
      ctx.store.get('customers', o.customer_id)?.email,
      pyIso(o.created_at),
      order.description,
      minor(order.net_amount),
      o.currency,
      order.status,
      o.invoice_number,
    ]
  })
  return csvReply('polar-orders.csv', ['Email', 'Created At', 'Product', 'Net Amount', 'Currency', 'Status', 'Invoice number'], rows)
}

function exportSubscriptions(ctx: Ctx): Reply {
  uuidFilter(ctx, 'organization_id')
  const products = uuidFilter(ctx, 'product_id')
  const subs = sortNewest(ctx.store.all('subscriptions').filter((s) => s.started_at !== null && (!products || products.has(s.product_id))))
  const rows = subs.map((s: SubscriptionRecord) => [
    ctx.store.get('customers', s.customer_id)?.email,
    pyIso(s.started_at),
    ctx.store.get('products', s.product_id)?.name,
    minor(s.amount),
    s.currency,
    s.status,
    s.recurring_interval,
  ])
  return csvReply('polar-subscriptions.csv', ['Email', 'Started At', 'Product', 'Amount', 'Currency', 'Status', 'Recurring Interval'], rows)
}

function exportCustomers(ctx: Ctx): Reply {
  uuidFilter(ctx, 'organization_id')
  const customers = sortNewest(ctx.store.all('customers').filter((c) => c.deleted_at === null))
  const rows = customers.map((c: CustomerRecord) => [
    c.id,
    c.external_id,
    pyIso(c.created_at),
    c.email,
    c.name,
    c.billing_address?.country ?? null,
    JSON.stringify(c.metadata),
  ])
  return csvReply('polar-customers.csv', ['ID', 'External ID', 'Created At', 'Email', 'Name', 'Billing Country', 'Metadata'], rows)
}

export function register(r: Router): void {
  r.get('/orders/export', 'organization', exportOrders)
  r.get('/subscriptions/export', 'organization', exportSubscriptions)
  r.get('/customers/export', 'organization', exportCustomers)
}
