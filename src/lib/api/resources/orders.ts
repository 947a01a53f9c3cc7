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
