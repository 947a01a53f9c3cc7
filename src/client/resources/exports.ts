// Order receipts, the service's CSV exports, and customers' saved payment methods.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {ExitCode, TillError} from '../till-error.js'
import type {PaymentMethod} from '../wire/index.js'
import {listItems, seg} from './common.js'

/** The temporary URL of an order's receipt; exit 1 while the service is still making it (202). */
export async function receiptUrl(client: ApiClient, orderId: string): Promise<string> {
  const res = await client.request<{url: string} | null>('GET', `/orders/${seg(orderId)}/receipt`)
  if (res.status === 202 || !res.body?.url) {
    throw new TillError(
      `the receipt of order ${orderId} is not ready yet (the order is not paid, or the receipt is being made)`,
      ExitCode.error,
      `try again later: till orders receipt ${orderId}`,
    )
  }
  return res.body.url
}

export const EXPORTS = {orders: '/orders/export', subscriptions: '/subscriptions/export', customers: '/customers/export'} as const
export type ExportKind = keyof typeof EXPORTS

/** A CSV export, made by the service, as text. */
export async function exportCsv(client: ApiClient, kind: ExportKind, productId?: string[]): Promise<string> {
  const body = await client.get<unknown>(EXPORTS[kind], {query: {product_id: productId}, accept: 'text/csv'})
  return typeof body === 'string' ? body : JSON.stringify(body)
}

export function listPaymentMethods(client: ApiClient, customer: {id?: string; externalId?: string}, page: PaginateOptions): AsyncGenerator<PaymentMethod> {
  const path =
    customer.externalId === undefined ? `/customers/${seg(customer.id!)}/payment-methods` : `/customers/external/${seg(customer.externalId)}/payment-methods`
  return listItems<PaymentMethod>(client, path, {}, page)
}
