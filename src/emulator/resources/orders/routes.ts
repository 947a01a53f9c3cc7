// Orders, billing details and invoices (server/polar/order/service.py, `orders:update`,
// `orders:generate_invoice`, `orders:invoice`): billing details are frozen once the invoice is generated
// (PATCH -> 422) and a second POST of the invoice is refused (409 InvoiceAlreadyExists).
import {createHmac} from '../../core/crypto.js'

import {z} from '../../core/zod.js'

import {domainError, HttpError, notFound, ruleValidation} from '../../core/errors.js'
import {emit, ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {after, before, byField, textSearch} from '../../core/list.js'
import {finder, found, getRoute, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import type {View} from '../../core/present.js'
import type {OrderRecord} from './model.js'
import {orderPdf} from './pdf.js'
import * as present from './present.js'
import {registerDrafts} from './drafts.js'
import {registerReceipts} from './receipt.js'
import {addressSchema, parse} from '../../core/validate.js'

const billingUpdate = z.object({
  billing_name: z.string().max(255).nullish(),
  billing_address: addressSchema.nullish(),
})

const STATUSES = ['draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void'] as const
const INVOICE_LINK_TTL_MS = 60 * 60 * 1000

export const findOrder = finder('orders')

const productName = (o: OrderRecord, ctx: Ctx) => (o.product_id ? (ctx.store.get('products', o.product_id)?.name ?? null) : null)
const netAmount = (o: OrderRecord) => o.subtotal_amount - o.discount_amount

/** Filters shared by the Core and Customer Portal order lists. */
export const orderListFilters = {
  product_id: byField('uuid', (o: OrderRecord) => o.product_id),
  subscription_id: byField('uuid', (o: OrderRecord) => o.subscription_id),
  product_billing_type: byField(['one_time', 'recurring'], (o: OrderRecord) => (o.subscription_id ? 'recurring' : 'one_time')),
}

/** Sort keys shared by the Core and Customer Portal order lists. */
export const orderListSorts = {
  created_at: (o: OrderRecord) => o.created_at,
  amount: netAmount,
  net_amount: netAmount,
  product: productName,
  subscription: (o: OrderRecord) => o.subscription_id,
}

/** The portal's free-text search of orders: the product's name or the invoice number. */
export const orderSearch = textSearch(productName, (o: OrderRecord) => o.invoice_number)

const customerOf = (o: OrderRecord, ctx: Ctx) => ctx.store.get('customers', o.customer_id)

/** PATCH of billing name and address: allowed until the invoice is generated (`orders:update`). */
type OrderView = (v: View, o: OrderRecord) => unknown

export function updateOrderBilling(ctx: Ctx, id: string, customerId?: string, view: OrderView = present.order): Reply {
  const input = parse(billingUpdate, ctx.body)
  const order = ctx.store.write(() => {
    const o = findOrder(ctx, id, customerId)
    if (o.invoice_requested_at !== null) {
      const field = input.billing_address !== undefined ? 'billing_address' : 'billing_name'
      throw ruleValidation(['body', field], 'This field cannot be updated after the invoice is generated.', input[field])
    }
    if (input.billing_address && o.billing_address) {
      for (const part of ['country', 'state'] as const) {
        if ((input.billing_address[part] ?? null) !== (o.billing_address[part] ?? null)) {
          const word = part === 'country' ? 'Country' : 'State'
          throw ruleValidation(['body', 'billing_address', part], `${word} cannot be changed`, input.billing_address[part])
        }
      }
    }
    if (input.billing_name !== undefined) o.billing_name = input.billing_name
    if (input.billing_address !== undefined) o.billing_address = input.billing_address
    o.modified_at = new Date(ctx.now).toISOString()
    return o
  })
  const body = present.order(ctx.view, order)
  emit(ctx.env, 'order.updated', body)
  return ok(customerId === undefined ? body : view(ctx.view, order))
}

/** POST /invoice: 202 with body null; the document exists `invoiceDelayMs` later. */
export function generateInvoice(ctx: Ctx, id: string, customerId?: string): Reply {
  ctx.store.write(() => {
    const o = findOrder(ctx, id, customerId)
    const status = present.orderStatus(o, ctx.now)
    if (status === 'draft' || status === 'void') {
      throw domainError(409, 'OrderNotEligibleForInvoice', `Order ${o.id} is not eligible for invoice generation (current status: ${status}).`)
    }
    // A repeated request is a no-op: billing details cannot change once the invoice was asked for.
    if (o.invoice_requested_at !== null) return
    if (!o.billing_name || !o.billing_address) {
      throw domainError(422, 'MissingInvoiceBillingDetails', 'Billing name and address are required to generate an invoice for this order.')
    }
    o.invoice_requested_at = new Date(ctx.now).toISOString()
    o.invoice_ready_at = new Date(ctx.now + ctx.env.options.invoiceDelayMs).toISOString()
    o.modified_at = o.invoice_requested_at
  })
  return ok(null, 202)
}

function signature(ctx: Ctx, orderId: string, expires: number): string {
  return createHmac('sha256', ctx.store.data.tokens[0]!.token).update(`${orderId}.${expires}`).digest('hex').slice(0, 32)
}

/**
 * GET /invoice: `{url}` of a temporary link to the PDF, or 404 `InvoiceDoesNotExist` before generation, as
 * the service answers (its document says ResourceNotFound: a departure listed in core/contract-known.ts).
 */
export function getInvoice(ctx: Ctx, id: string, customerId?: string): Reply {
  const o = findOrder(ctx, id, customerId)
  if (!present.isInvoiceGenerated(o, ctx.now)) {
    throw domainError(404, 'InvoiceDoesNotExist', `No invoice exists for order ${o.id}.`)
  }
  const expires = ctx.now + INVOICE_LINK_TTL_MS
  const url = new URL(`${ctx.env.origin}/files/invoices/${o.id}.pdf`)
  url.searchParams.set('expires', String(expires))
  url.searchParams.set('signature', signature(ctx, o.id, expires))
  return ok({url: url.toString()})
}

/** The document behind the temporary link; like a presigned storage URL, it needs no token. */
function serveInvoice(ctx: Ctx): Reply {
  const denied = (why: string) => new HttpError(403, {error: 'AccessDenied', detail: why})
  const match = /^([0-9a-f-]{36})\.pdf$/.exec(ctx.params.file ?? '')
  const expires = Number(ctx.query.get('expires'))
  const order = found(match && ctx.store.get('orders', match[1]!))
  if (!present.isInvoiceGenerated(order, ctx.now)) throw notFound()
  if (ctx.query.get('signature') !== signature(ctx, order.id, expires)) throw denied('The link signature does not match.')
  if (!(expires > ctx.now)) throw denied('The link has expired; request the invoice again.')
  const customer = ctx.store.get('customers', order.customer_id)
  return {status: 200, raw: {contentType: 'application/pdf', data: orderPdf('invoice', ctx.store.data.organization, order, customer ?? null)}}
}

export function register(r: Router): void {
  listRoute(r, 'orders:list', (ctx: Ctx) => ctx.store.all('orders'), {
    present: present.order,
    filters: {
      ...orderListFilters,
      organization_id: organizationScope,
      discount_id: byField('uuid', (o: OrderRecord) => o.discount_id),
      customer_id: byField('uuid', (o: OrderRecord) => o.customer_id),
      external_customer_id: byField('string', (o: OrderRecord, ctx) => customerOf(o, ctx)?.external_id ?? null),
      checkout_id: byField('uuid', (o: OrderRecord) => o.checkout_id),
      status: byField(STATUSES, (o: OrderRecord, ctx) => present.orderStatus(o, ctx.now)),
      created_after: after((o: OrderRecord) => o.created_at),
      created_before: before((o: OrderRecord) => o.created_at),
    },
    sorts: {
      ...orderListSorts,
      status: (o, ctx) => present.orderStatus(o, ctx.now),
      invoice_number: (o) => o.invoice_number,
      customer: (o, ctx) => customerOf(o, ctx)?.email ?? null,
      discount: (o) => o.discount_id,
    },
    defaultSort: ['-created_at'],
    metadata: (o) => o.metadata,
  })
  getRoute(r, 'orders:get', findOrder, present.order)
  r.patch('/orders/:id', 'organization', (ctx) => updateOrderBilling(ctx, pathId(ctx)))
  r.post('/orders/:id/invoice', 'organization', (ctx) => generateInvoice(ctx, pathId(ctx)))
  r.get('/orders/:id/invoice', 'organization', (ctx) => getInvoice(ctx, pathId(ctx)))
  r.addAbsolute('GET', '/files/invoices/:file', 'none', serveInvoice)
  registerReceipts(r)
  registerDrafts(r)
}
