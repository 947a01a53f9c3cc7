// Order receipts (GET /orders/{id}/receipt): a temporary signed link to the receipt's PDF, served by the
// emulator outside /v1 like a storage link; 202 with no body while the order is not paid yet.
import {createHmac} from '../../core/crypto.js'

import {HttpError} from '../../core/errors.js'
import {ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {found, lookup, pathId} from '../../core/toolkit.js'
import type {OrderRecord} from './model.js'
import {orderPdf} from './pdf.js'
import {orderStatus} from './present.js'

const RECEIPT_LINK_TTL_MS = 3_600_000

function receiptSignature(ctx: Ctx, orderId: string, expires: number): string {
  return createHmac('sha256', ctx.store.data.tokens[0]!.token).update(`receipt.${orderId}.${expires}`).digest('hex').slice(0, 32)
}

/** GET /orders/{id}/receipt: `{url}` once the order is paid; 202 (no body) while it is not yet. */
export function getReceipt(ctx: Ctx, order: OrderRecord): Reply {
  if (!['paid', 'refunded', 'partially_refunded'].includes(orderStatus(order, ctx.now))) return {status: 202}
  const expires = ctx.now + RECEIPT_LINK_TTL_MS
  const url = new URL(`${ctx.env.origin}/files/receipts/${order.id}.pdf`)
  url.searchParams.set('expires', String(expires))
  url.searchParams.set('signature', receiptSignature(ctx, order.id, expires))
  return ok({url: url.toString()})
}

function serveReceipt(ctx: Ctx): Reply {
  const denied = (why: string) => new HttpError(403, {error: 'AccessDenied', detail: why})
  const match = /^([0-9a-f-]{36})\.pdf$/.exec(ctx.params.file ?? '')
  const order = found(match && ctx.store.get('orders', match[1]!))
  const expires = Number(ctx.query.get('expires'))
  if (ctx.query.get('signature') !== receiptSignature(ctx, order.id, expires)) throw denied('The link signature does not match.')
  if (!(expires > ctx.now)) throw denied('The link has expired; request the receipt again.')
  const customer = ctx.store.get('customers', order.customer_id) ?? null
  return {status: 200, raw: {contentType: 'application/pdf', data: orderPdf('receipt', ctx.store.data.organization, order, customer)}}
}

export function registerReceipts(r: Router): void {
  r.get('/orders/:id/receipt', 'organization', (ctx) => {
    return getReceipt(ctx, lookup(ctx, 'orders', pathId(ctx)))
  })
  r.addAbsolute('GET', '/files/receipts/:file', 'none', serveReceipt)
}
