// Disputes of payments: stored records and their collections in the store.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    disputes: DisputeRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({disputes: [] as DisputeRecord[]})

export type DisputeStatus = 'prevented' | 'early_warning' | 'needs_response' | 'under_review' | 'lost' | 'won'

export interface DisputeRecord {
  id: string
  created_at: string
  modified_at: string | null
  status: DisputeStatus
  /** Pre-tax amount disputed, and its tax share (minor units). */
  amount: number
  tax_amount: number
  currency: string
  reason: string | null
  evidence_due_by: string | null
  order_id: string
  customer_id: string
}
