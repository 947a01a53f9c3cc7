// Refunds of orders: stored records and their collections in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    refunds: RefundRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({refunds: [] as RefundRecord[]})

export interface RefundRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  status: 'pending' | 'succeeded' | 'failed' | 'canceled'
  reason: string
  comment: string | null
  amount: number
  tax_amount: number
  currency: string
  order_id: string
  subscription_id: string | null
  customer_id: string
  revoke_benefits: boolean
}
