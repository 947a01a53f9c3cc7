// Discounts: stored records and their collections in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    discounts: DiscountRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({discounts: [] as DiscountRecord[]})

export type DiscountDuration = 'once' | 'forever' | 'repeating'

export interface DiscountRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  name: string
  code: string | null
  type: 'fixed' | 'percentage'
  duration: DiscountDuration
  duration_in_months: number | null
  /** Percentage discounts: 1/100 of a percent (2550 = 25.5%). */
  basis_points: number | null
  /** Fixed discounts: minor units by currency. */
  amounts: Record<string, number> | null
  starts_at: string | null
  ends_at: string | null
  max_redemptions: number | null
  /** How many times one customer may redeem it (absent in stores saved before it was kept). */
  max_redemptions_per_customer?: number | null
  redemptions_count: number
  product_ids: string[]
  /** Deleted discounts stay stored (soft delete) but are never shown. */
  deleted_at: string | null
}
