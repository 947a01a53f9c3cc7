// Checkout sessions (server/polar/checkout/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Checkout, CheckoutCreate, CheckoutUpdate, Schema} from '../wire/index.js'
import {listItems, seg} from './common.js'

export const CHECKOUT_STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'] as const

export interface CheckoutFilters {
  productId?: string[]
  customerId?: string[]
  externalCustomerId?: string[]
  status?: string[]
  query?: string
  sorting?: string[]
}

export function listCheckouts(client: ApiClient, f: CheckoutFilters, page: PaginateOptions): AsyncGenerator<Checkout> {
  return listItems<Checkout>(
    client,
    '/checkouts/',
    {
      product_id: f.productId,
      customer_id: f.customerId,
      external_customer_id: f.externalCustomerId,
      status: f.status,
      query: f.query,
      sorting: f.sorting,
    },
    page,
  )
}

export const getCheckout = (client: ApiClient, id: string) => client.get<Checkout>(`/checkouts/${seg(id)}`)

export type {CheckoutCreate, CheckoutUpdate}

export const createCheckout = (client: ApiClient, body: CheckoutCreate) => client.post<Checkout>('/checkouts/', body)

/** What an open checkout can still change (PATCH); `discount_id: null` removes the discount. */
export const updateCheckout = (client: ApiClient, id: string, body: CheckoutUpdate) => client.patch<Checkout>(`/checkouts/${seg(id)}`, body)

/** The checkout as its buyer sees it (CheckoutPublic), by its client secret: no token is sent. */
export const getClientCheckout = (client: ApiClient, clientSecret: string) =>
  client.get<Schema<'CheckoutPublic'>>(`/checkouts/client/${seg(clientSecret)}`, {auth: 'none'})

/** What the buyer may change on an open checkout (product, amount, discount code, their details), by its client secret. */
export const updateClientCheckout = (client: ApiClient, clientSecret: string, body: Schema<'CheckoutUpdatePublic'>) =>
  client.patch<Schema<'CheckoutPublic'>>(`/checkouts/client/${seg(clientSecret)}`, body, {auth: 'none'})
