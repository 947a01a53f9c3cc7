// Products and their prices: stored records and their collections in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    products: ProductRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({products: [] as ProductRecord[]})

export type PriceRecord =
  | (PriceBase & {amount_type: 'fixed'; price_amount: number})
  | (PriceBase & {amount_type: 'custom'; minimum_amount: number; maximum_amount: number | null; preset_amount: number | null})

export interface PriceBase {
  id: string
  created_at: string
  modified_at: string | null
  source: 'catalog' | 'ad_hoc'
  price_currency: string
  tax_behavior: 'location' | 'inclusive' | 'exclusive' | null
  is_archived: boolean
  product_id: string
}

export interface ProductRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  description: string | null
  visibility: 'draft' | 'private' | 'public'
  recurring_interval: 'day' | 'week' | 'month' | 'year' | null
  recurring_interval_count: number | null
  is_archived: boolean
  metadata: Metadata
  prices: PriceRecord[]
  benefit_ids: string[]
  /** Custom checkout fields, in order; absent on products stored before they existed. */
  attached_custom_fields?: Array<{custom_field_id: string; required: boolean}>
}
