// Orders (server/polar/order/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Address, Order, OrderInvoice, OrderUpdate, Schema} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

export const ORDER_STATUSES = ['draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void'] as const

export interface OrderFilters {
  status?: string[]
  customerId?: string[]
  externalCustomerId?: string[]
  productId?: string[]
  subscriptionId?: string
  checkoutId?: string
  billingType?: string
  createdAfter?: string
  createdBefore?: string
  sorting?: string[]
  metadata?: string[]
}

export function listOrders(client: ApiClient, f: OrderFilters, page: PaginateOptions): AsyncGenerator<Order> {
  return listItems<Order>(
    client,
    '/orders/',
    {
      status: f.status,
      customer_id: f.customerId,
      external_customer_id: f.externalCustomerId,
      product_id: f.productId,
      subscription_id: f.subscriptionId,
      checkout_id: f.checkoutId,
      product_billing_type: f.billingType,
      created_after: dateTime(f.createdAfter),
      created_before: dateTime(f.createdBefore),
      sorting: f.sorting,
      ...metadataQuery(f.metadata),
    },
    page,
  )
}

/** The document takes date-times: a bare date (`2026-01-01`) is the start of that day in UTC. */
const dateTime = (value: string | undefined) => (value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)

export const getOrder = (client: ApiClient, id: string) => client.get<Order>(`/orders/${seg(id)}`)

/** An address as the service takes it (`AddressInput`): the country, and the rest optional. */
export type {Address}

/** The billing details of an order (the portal's customer and orders take the same two fields). */
export type BillingUpdate = OrderUpdate

export const updateOrder = (client: ApiClient, id: string, body: BillingUpdate) => client.patch<Order>(`/orders/${seg(id)}`, body)

/** Starts invoice generation (202); the document exists a little later. */
export const generateInvoice = (client: ApiClient, id: string) => client.post<null>(`/orders/${seg(id)}/invoice`)

/** `{url}` of the invoice document; 404 before generation. */
export const getInvoice = (client: ApiClient, id: string) => client.get<OrderInvoice>(`/orders/${seg(id)}/invoice`)

/** A draft order for an off-session charge (`OrderCreate`): a customer, a one-time product, optionally an amount. */
export type OrderCreate = Schema<'OrderCreate'>

/** Creates a draft order (no charge yet, no invoice number); finalizing it charges the customer's saved payment method. */
export const createOrder = (client: ApiClient, body: OrderCreate) => client.post<Order>('/orders/', body)

/** Charges a draft order off-session now: the given payment method, else the customer's default one. */
export const finalizeOrder = (client: ApiClient, id: string, body: Schema<'OrderFinalize'> = {}) => client.post<Order>(`/orders/${seg(id)}/finalize`, body)
