// Checkout links: reusable URLs that open a new checkout on each visit (server/polar/checkout_link/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {CheckoutLink, CheckoutLinkCreate, CheckoutLinkUpdate} from '../wire/index.js'
import {listItems, seg} from './common.js'

export interface CheckoutLinkFilters {
  productId?: string[]
  sorting?: string[]
}

export function listCheckoutLinks(client: ApiClient, f: CheckoutLinkFilters, page: PaginateOptions): AsyncGenerator<CheckoutLink> {
  return listItems<CheckoutLink>(client, '/checkout-links/', {product_id: f.productId, sorting: f.sorting}, page)
}

export const getCheckoutLink = (client: ApiClient, id: string) => client.get<CheckoutLink>(`/checkout-links/${seg(id)}`)

/** One product, or several (each by id), and `payment_processor: 'stripe'`, which every form requires. */
export type {CheckoutLinkCreate, CheckoutLinkUpdate}

export const createCheckoutLink = (client: ApiClient, body: CheckoutLinkCreate) => client.post<CheckoutLink>('/checkout-links/', body)

/** 204 on success. */
export const deleteCheckoutLink = (client: ApiClient, id: string) => client.delete<null>(`/checkout-links/${seg(id)}`)

/** Fields left out are kept; `products` replaces the link's products. */
export const updateCheckoutLink = (client: ApiClient, id: string, body: CheckoutLinkUpdate) => client.patch<CheckoutLink>(`/checkout-links/${seg(id)}`, body)
