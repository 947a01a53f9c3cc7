// Checkout sessions (api-facts §3.1, §3.3, §4.7).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, seg, type Item} from './common.js'

export const CHECKOUT_STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'] as const

export interface CheckoutFilters {
  productId?: string[]
  customerId?: string[]
  externalCustomerId?: string[]
  status?: string[]
  query?: string
  sorting?: string[]
}

export function listCheckouts(client: ApiClient, f: CheckoutFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/checkouts/', {
    product_id: f.productId,
    customer_id: f.customerId,
    external_customer_id: f.externalCustomerId,
    status: f.status,
    query: f.query,
    sorting: f.sorting,
  }, page)
}

export const getCheckout = (client: ApiClient, id: string) => client.get<Item>(`/checkouts/${seg(id)}`)

export interface CheckoutCreate {
  products: string[]
  customer_id?: string
  customer_email?: string
  customer_name?: string
  external_customer_id?: string
  success_url?: string
  return_url?: string
  metadata?: Record<string, string>
  discount_id?: string
  allow_discount_codes?: boolean
  /** Values of the product's custom fields by slug (checked by the service; required ones only on confirmation). */
  custom_field_data?: Record<string, unknown>
}

export const createCheckout = (client: ApiClient, body: CheckoutCreate) => client.post<Item & {url: string}>('/checkouts/', body)

/** What an open checkout can still change (PATCH); `discount_id: null` removes the discount. */
export interface CheckoutUpdate {
  product_id?: string
  amount?: number
  discount_id?: string | null
  allow_discount_codes?: boolean
  customer_email?: string
  customer_name?: string
  success_url?: string
  return_url?: string
  metadata?: Record<string, unknown>
  /** Replaces the checkout's custom field data. */
  custom_field_data?: Record<string, unknown>
}

export const updateCheckout = (client: ApiClient, id: string, body: CheckoutUpdate) => client.patch<Item & {url: string}>(`/checkouts/${seg(id)}`, body)
