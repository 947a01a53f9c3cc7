// Documents and derived lists: order receipts (a temporary link to a PDF, like invoices), the CSV exports
// of orders, subscriptions and customers, and customers' saved payment methods (a card for every
// customer who has paid; its id is derived from the customer's, stable without being stored).
import {createHash, createHmac} from 'node:crypto'

import {HttpError, notFound, requestValidation} from '../errors.js'
import {ok, type Ctx, type Reply, type Router} from '../http.js'
import {listRows} from '../list.js'
import type {CustomerRecord, OrderRecord, SubscriptionRecord} from '../model.js'
import {invoicePdf} from '../pdf.js'
import * as present from '../present.js'
import {pathUuid, UUID_RE} from '../validate.js'
import {byExternalId, byId, type Resolve} from './customers.js'
import {findOrder} from './orders.js'
import {hasPayment} from './payments.js'

const RECEIPT_LINK_TTL_MS = 3_600_000

// ---- CSV, as Python's csv module writes it (excel dialect) ----

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'number' ? (Number.isInteger(value) ? value.toFixed(1) : String(value)) : value
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const csvRow = (values: Array<string | number | null | undefined>) => `${values.map(cell).join(',')}\r\n`

/** A UTC time as Python's `isoformat()` renders it: microseconds only when there are some. */
function pyIso(iso: string | null): string | null {
  if (!iso) return null
  const d = new Date(iso)
  const ms = d.getUTCMilliseconds()
  return `${d.toISOString().slice(0, 19)}${ms ? `.${String(ms * 1000).padStart(6, '0')}` : ''}+00:00`
}

function csvReply(filename: string, header: string[], rows: Array<Array<string | number | null | undefined>>): Reply {
  const text = csvRow(header) + rows.map(csvRow).join('')
  return {status: 200, headers: {'content-disposition': `attachment; filename="${filename}"`}, raw: {contentType: 'text/csv; charset=utf-8', data: text}}
}

/** The repeated `name` query values, each a UUID (else the framework's 422). */
function uuidFilter(ctx: Ctx, name: string): Set<string> | null {
  const values = ctx.query.getAll(name)
  if (values.length === 0) return null
  values.forEach((v, i) => {
    if (!UUID_RE.test(v)) throw requestValidation([{type: 'uuid_parsing', loc: ['query', name, i], msg: 'Input should be a valid UUID, invalid character or length', input: v}])
  })
  return new Set(values.map((v) => v.toLowerCase()))
}

const minor = (amount: number) => amount / 100
const sortNewest = <T extends {created_at: string}>(rows: T[]) => [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at))

function exportOrders(ctx: Ctx): Reply {
  uuidFilter(ctx, 'organization_id')
  const products = uuidFilter(ctx, 'product_id')
  const orders = sortNewest(ctx.store.all('orders').filter((o) => !products || (o.product_id !== null && products.has(o.product_id))))
  const rows = orders.map((o: OrderRecord) => {
    const order = present.order(ctx.view, o)
    return [ctx.store.get('customers', o.customer_id)?.email, pyIso(o.created_at), order.description, minor(order.net_amount), o.currency, order.status, o.invoice_number]
  })
  return csvReply('polar-orders.csv', ['Email', 'Created At', 'Product', 'Net Amount', 'Currency', 'Status', 'Invoice number'], rows)
}

function exportSubscriptions(ctx: Ctx): Reply {
  uuidFilter(ctx, 'organization_id')
  const products = uuidFilter(ctx, 'product_id')
  const subs = sortNewest(ctx.store.all('subscriptions').filter((s) => s.started_at !== null && (!products || products.has(s.product_id))))
  const rows = subs.map((s: SubscriptionRecord) => [
    ctx.store.get('customers', s.customer_id)?.email, pyIso(s.started_at), ctx.store.get('products', s.product_id)?.name, minor(s.amount), s.currency, s.status, s.recurring_interval,
  ])
  return csvReply('polar-subscriptions.csv', ['Email', 'Started At', 'Product', 'Amount', 'Currency', 'Status', 'Recurring Interval'], rows)
}

function exportCustomers(ctx: Ctx): Reply {
  uuidFilter(ctx, 'organization_id')
  const customers = sortNewest(ctx.store.all('customers').filter((c) => c.deleted_at === null))
  const rows = customers.map((c: CustomerRecord) => [c.id, c.external_id, pyIso(c.created_at), c.email, c.name, c.billing_address?.country ?? null, JSON.stringify(c.metadata)])
  return csvReply('polar-customers.csv', ['ID', 'External ID', 'Created At', 'Email', 'Name', 'Billing Country', 'Metadata'], rows)
}

// ---- receipts ----

function receiptSignature(ctx: Ctx, orderId: string, expires: number): string {
  return createHmac('sha256', ctx.store.data.tokens[0]!.token).update(`receipt.${orderId}.${expires}`).digest('hex').slice(0, 32)
}

/** GET /orders/{id}/receipt: `{url}` once the order is paid; 202 (no body) while it is not yet. */
export function getReceipt(ctx: Ctx, order: OrderRecord): Reply {
  if (!['paid', 'refunded', 'partially_refunded'].includes(present.orderStatus(order, ctx.now))) return {status: 202}
  const expires = ctx.now + RECEIPT_LINK_TTL_MS
  const url = new URL(`${ctx.env.origin}/files/receipts/${order.id}.pdf`)
  url.searchParams.set('expires', String(expires))
  url.searchParams.set('signature', receiptSignature(ctx, order.id, expires))
  return ok({url: url.toString()})
}

function serveReceipt(ctx: Ctx): Reply {
  const denied = (why: string) => new HttpError(403, {error: 'AccessDenied', detail: why})
  const match = /^([0-9a-f-]{36})\.pdf$/.exec(ctx.params.file ?? '')
  if (!match) throw notFound()
  const order = ctx.store.get('orders', match[1]!)
  if (!order) throw notFound()
  const expires = Number(ctx.query.get('expires'))
  if (ctx.query.get('signature') !== receiptSignature(ctx, order.id, expires)) throw denied('The link signature does not match.')
  if (!(expires > ctx.now)) throw denied('The link has expired; request the receipt again.')
  return {status: 200, raw: {contentType: 'application/pdf', data: invoicePdf(ctx.store.data.organization, order, ctx.store.get('customers', order.customer_id) ?? null)}}
}

// ---- payment methods ----

function paymentMethodId(customerId: string): string {
  const h = createHash('sha256').update(`payment-method:${customerId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

function paymentMethods(ctx: Ctx, resolve: Resolve): Reply {
  const customer = resolve(ctx)
  const paid = ctx.store.all('orders').filter((o) => o.customer_id === customer.id && hasPayment(ctx, o))
  const first = paid.reduce<OrderRecord | null>((a, o) => (a === null || o.created_at < a.created_at ? o : a), null)
  const methods = first
    ? [{
        id: paymentMethodId(customer.id), created_at: first.paid_at ?? first.created_at, modified_at: null, processor: 'stripe', customer_id: customer.id, type: 'card', is_default: true,
        method_metadata: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, wallet: null},
      }]
    : []
  return ok(listRows(methods, ctx.query, {filters: {}, sorts: {created_at: (m) => m.created_at}, defaultSort: ['-created_at']}, (m) => m))
}

export function register(r: Router): void {
  r.get('/orders/export', 'organization', exportOrders)
  r.get('/subscriptions/export', 'organization', exportSubscriptions)
  r.get('/customers/export', 'organization', exportCustomers)
  r.get('/orders/:id/receipt', 'organization', (ctx) => getReceipt(ctx, findOrder(ctx, pathUuid(ctx.params))))
  r.addAbsolute('GET', '/files/receipts/:file', 'none', serveReceipt)
  r.get('/customers/:id/payment-methods', 'organization', (ctx) => paymentMethods(ctx, byId))
  r.get('/customers/external/:external_id/payment-methods', 'organization', (ctx) => paymentMethods(ctx, byExternalId))
}
