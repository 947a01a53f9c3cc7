// Benefits and the grants that give them to customers: stored records and their collections in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    benefits: BenefitRecord[]
    benefit_grants: BenefitGrantRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({benefits: [] as BenefitRecord[], benefit_grants: [] as BenefitGrantRecord[]})

export interface BenefitRecord {
  id: string
  created_at: string
  modified_at: string | null
  type: 'custom' | 'discord' | 'github_repository' | 'downloadables' | 'license_keys' | 'meter_credit' | 'feature_flag'
  description: string
  selectable: boolean
  deletable: boolean
  is_deleted: boolean
  visibility: 'draft' | 'private' | 'public'
  metadata: Metadata
  properties: Record<string, unknown>
}

export interface BenefitGrantRecord {
  id: string
  created_at: string
  modified_at: string | null
  granted_at: string | null
  revoked_at: string | null
  subscription_id: string | null
  order_id: string | null
  customer_id: string
  benefit_id: string
  properties: Record<string, unknown>
}
