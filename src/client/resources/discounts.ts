// Discounts: percentage or fixed amounts off, once, forever or for some months, by code or by id.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, seg, type Item} from './common.js'

export const DISCOUNT_DURATIONS = ['once', 'forever', 'repeating'] as const
export type DiscountDuration = (typeof DISCOUNT_DURATIONS)[number]

export interface DiscountFilters {
  query?: string
  sorting?: string[]
}

export function listDiscounts(client: ApiClient, f: DiscountFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/discounts/', {query: f.query, sorting: f.sorting}, page)
}

export const getDiscount = (client: ApiClient, id: string) => client.get<Item>(`/discounts/${seg(id)}`)

interface DiscountCommon {
  name: string
  code?: string
  duration: DiscountDuration
  duration_in_months?: number
  starts_at?: string
  ends_at?: string
  max_redemptions?: number
  products?: string[]
  metadata?: Record<string, unknown>
}

export type DiscountCreate =
  | (DiscountCommon & {type: 'percentage'; basis_points: number})
  | (DiscountCommon & {type: 'fixed'; amounts: Record<string, number>})

export const createDiscount = (client: ApiClient, body: DiscountCreate) => client.post<Item>('/discounts/', body)

export type DiscountUpdate = Partial<Omit<DiscountCommon, 'duration' | 'code' | 'starts_at' | 'ends_at' | 'max_redemptions'>> & {
  code?: string | null
  starts_at?: string | null
  ends_at?: string | null
  max_redemptions?: number | null
  basis_points?: number
  amounts?: Record<string, number>
}

export const updateDiscount = (client: ApiClient, id: string, body: DiscountUpdate) => client.patch<Item>(`/discounts/${seg(id)}`, body)

/** Deletes a discount (204): it can no longer be redeemed; orders that used it keep it. */
export const deleteDiscount = (client: ApiClient, id: string) => client.delete<null>(`/discounts/${seg(id)}`)
