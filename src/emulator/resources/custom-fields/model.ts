// Custom checkout fields: stored records and their collections in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    custom_fields: CustomFieldRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({custom_fields: [] as CustomFieldRecord[]})

export interface CustomFieldRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  type: 'text' | 'number' | 'date' | 'checkbox' | 'select'
  slug: string
  name: string
  properties: Record<string, unknown>
}
