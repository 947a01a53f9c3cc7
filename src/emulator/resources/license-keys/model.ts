// License keys and their activations: stored records and their collections in the store.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    license_keys: LicenseKeyRecord[]
    license_key_activations: LicenseKeyActivationRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({license_keys: [] as LicenseKeyRecord[], license_key_activations: [] as LicenseKeyActivationRecord[]})

export interface LicenseKeyRecord {
  id: string
  created_at: string
  modified_at: string | null
  customer_id: string
  benefit_id: string
  key: string
  status: 'granted' | 'revoked' | 'disabled'
  limit_activations: number | null
  usage: number
  limit_usage: number | null
  validations: number
  last_validated_at: string | null
  expires_at: string | null
}

export interface LicenseKeyActivationRecord {
  id: string
  created_at: string
  modified_at: string | null
  license_key_id: string
  label: string
  meta: Record<string, string | number | boolean>
  /** Conditions given at activation; a later validate naming this activation must repeat them. */
  conditions?: Record<string, string | number | boolean>
}
