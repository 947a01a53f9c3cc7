// Customers: stored records and their collections in the store.
import type {Address, EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    customers: CustomerRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({customers: [] as CustomerRecord[]})

export interface CustomerRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  external_id: string | null
  email: string | null
  email_verified: boolean
  type: 'individual' | 'team'
  name: string | null
  billing_name: string | null
  billing_address: Address | null
  tax_id: [string, string] | null
  locale: string | null
  deleted_at: string | null
  /** The payment method chosen as default in the portal (absent: the card of the first payment, if any). */
  default_payment_method_id?: string | null
}
