// Discounts: percentage or fixed amounts off, once, forever or for some months, by code or by id.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Discount, DiscountCreate, DiscountUpdate} from '../wire/index.js'
import {listItems, seg} from './common.js'

export const DISCOUNT_DURATIONS = ['once', 'forever', 'repeating'] as const
export type DiscountDuration = (typeof DISCOUNT_DURATIONS)[number]

export interface DiscountFilters {
  query?: string
  sorting?: string[]
}

export function listDiscounts(client: ApiClient, f: DiscountFilters, page: PaginateOptions): AsyncGenerator<Discount> {
  return listItems<Discount>(client, '/discounts/', {query: f.query, sorting: f.sorting}, page)
}

export const getDiscount = (client: ApiClient, id: string) => client.get<Discount>(`/discounts/${seg(id)}`)

export type {DiscountCreate, DiscountUpdate}

export const createDiscount = (client: ApiClient, body: DiscountCreate) => client.post<Discount>('/discounts/', body)

export const updateDiscount = (client: ApiClient, id: string, body: DiscountUpdate) => client.patch<Discount>(`/discounts/${seg(id)}`, body)

/** Deletes a discount (204): it can no longer be redeemed; orders that used it keep it. */
export const deleteDiscount = (client: ApiClient, id: string) => client.delete<null>(`/discounts/${seg(id)}`)
