// Orders (api-facts §3.1, §4.3).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'

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

export function listOrders(client: ApiClient, f: OrderFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/orders/', {
    status: f.status,
    customer_id: f.customerId,
    external_customer_id: f.externalCustomerId,
    product_id: f.productId,
    subscription_id: f.subscriptionId,
    checkout_id: f.checkoutId,
    product_billing_type: f.billingType,
    created_after: f.createdAfter,
    created_before: f.createdBefore,
    sorting: f.sorting,
    ...metadataQuery(f.metadata),
  }, page)
}

export const getOrder = (client: ApiClient, id: string) => client.get<Item>(`/orders/${seg(id)}`)

export interface Address {
  country: string
  line1?: string | null
  line2?: string | null
  postal_code?: string | null
  city?: string | null
  state?: string | null
}

export interface BillingUpdate {
  billing_name?: string | null
  billing_address?: Address | null
}

export const updateOrder = (client: ApiClient, id: string, body: BillingUpdate) => client.patch<Item>(`/orders/${seg(id)}`, body)

/** Starts invoice generation (202); the document exists a little later. */
export const generateInvoice = (client: ApiClient, id: string) => client.post<null>(`/orders/${seg(id)}/invoice`)

/** `{url}` of the invoice document; 404 before generation. */
export const getInvoice = (client: ApiClient, id: string) => client.get<{url: string}>(`/orders/${seg(id)}/invoice`)
