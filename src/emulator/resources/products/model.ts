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
  | (PriceBase & {amount_type: 'seat_based'; seat_tiers: SeatTiers})
  | (PriceBase & {amount_type: 'metered_unit'; unit_amount: string; cap_amount: number | null; meter_id: string})

/** Seat-based pricing: a price per seat by tier, and the allowed number of seats. */
export interface SeatTiers {
  /** How the tiers price seats: `volume` (every seat at the tier the count falls in) or `graduated`; absent: volume. */
  seat_tier_type?: 'volume' | 'graduated'
  tiers: Array<{min_seats: number; max_seats: number | null; price_per_seat: number}>
  minimum_seats: number
  maximum_seats: number | null
}

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
