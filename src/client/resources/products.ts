// Products (api-facts §3.1, §4.1).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'

export interface ProductFilters {
  query?: string
  archived?: boolean
  recurring?: boolean
  benefitId?: string
  visibility?: string[]
  sorting?: string[]
  metadata?: string[]
}

export function listProducts(client: ApiClient, f: ProductFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/products/', {
    query: f.query,
    is_archived: f.archived,
    is_recurring: f.recurring,
    benefit_id: f.benefitId,
    visibility: f.visibility,
    sorting: f.sorting,
    ...metadataQuery(f.metadata),
  }, page)
}

export const getProduct = (client: ApiClient, id: string) => client.get<Item>(`/products/${seg(id)}`)

/** A price to create (api-facts §4.2): fixed (0 = free) or custom (pay what you want). */
export type PriceCreate =
  | {amount_type: 'fixed'; price_amount: number; price_currency?: string}
  | {amount_type: 'custom'; minimum_amount?: number; maximum_amount?: number; preset_amount?: number; price_currency?: string}
  /** Usage billed per unit of a meter: `unit_amount` in minor units (decimals allowed), `cap_amount` the most per period. */
  | {amount_type: 'metered_unit'; meter_id: string; unit_amount: string; cap_amount?: number | null; price_currency?: string}

export interface ProductCreate {
  name: string
  description?: string
  recurring_interval?: string
  recurring_interval_count?: number
  visibility?: string
  prices: PriceCreate[]
  metadata?: Record<string, string>
  /** Custom fields asked at checkout, in order. */
  attached_custom_fields?: Array<{custom_field_id: string; required: boolean}>
}

/** `prices` mixes `{id}` (keep) and new prices; existing prices left out are archived by the service. */
export interface ProductUpdate {
  name?: string
  description?: string | null
  visibility?: string
  is_archived?: boolean
  metadata?: Record<string, string>
  prices?: Array<{id: string} | PriceCreate>
  /** The whole list, in order. */
  attached_custom_fields?: Array<{custom_field_id: string; required: boolean}>
}

export const createProduct = (client: ApiClient, body: ProductCreate) => client.post<Item>('/products/', body)

export const updateProduct = (client: ApiClient, id: string, body: ProductUpdate) => client.patch<Item>(`/products/${seg(id)}`, body)

/** Replaces the product's benefits with `benefitIds`; returns the product. */
export const setProductBenefits = (client: ApiClient, id: string, benefitIds: string[]) =>
  client.post<Item>(`/products/${seg(id)}/benefits`, {benefits: benefitIds})
