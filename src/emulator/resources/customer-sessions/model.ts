// Customer sessions (customer portal access tokens): stored records and their collections in the store.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    customer_sessions: CustomerSessionRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({customer_sessions: [] as CustomerSessionRecord[]})

export interface CustomerSessionRecord {
  id: string
  created_at: string
  modified_at: string | null
  token: string
  expires_at: string
  return_url: string | null
  customer_id: string
  /** The member the session acts as (absent in stores saved before members: none). */
  member_id?: string | null
}
