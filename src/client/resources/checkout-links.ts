// Checkout links: reusable URLs that open a new checkout on each visit (api-facts §3.1, §4.7).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, seg, type Item} from './common.js'

export interface CheckoutLinkFilters {
  productId?: string[]
  sorting?: string[]
}

export function listCheckoutLinks(client: ApiClient, f: CheckoutLinkFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/checkout-links/', {product_id: f.productId, sorting: f.sorting}, page)
}

export const getCheckoutLink = (client: ApiClient, id: string) => client.get<Item>(`/checkout-links/${seg(id)}`)

export interface CheckoutLinkCreate {
  products: string[]
  label?: string
  success_url?: string
  return_url?: string
  allow_discount_codes?: boolean
  require_billing_address?: boolean
  /** A discount applied to every checkout opened from the link. */
  discount_id?: string
  metadata?: Record<string, string>
}

export const createCheckoutLink = (client: ApiClient, body: CheckoutLinkCreate) => client.post<Item & {url: string}>('/checkout-links/', body)

/** 204 on success. */
export const deleteCheckoutLink = (client: ApiClient, id: string) => client.delete<null>(`/checkout-links/${seg(id)}`)

/** Fields left out are kept; `products` replaces the link's products. */
export interface CheckoutLinkUpdate {
  products?: string[]
  label?: string | null
  success_url?: string | null
  return_url?: string | null
  allow_discount_codes?: boolean
  require_billing_address?: boolean
  discount_id?: string | null
  metadata?: Record<string, unknown>
}

export const updateCheckoutLink = (client: ApiClient, id: string, body: CheckoutLinkUpdate) => client.patch<Item>(`/checkout-links/${seg(id)}`, body)
