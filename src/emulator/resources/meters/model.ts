// Meters over the ingested events: stored records and their collection in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    meters: MeterRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({meters: [] as MeterRecord[]})

export interface FilterClauseRecord {
  property: string
  operator: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'not_like'
  value: string | number | boolean
}

export interface FilterRecord {
  conjunction: 'and' | 'or'
  clauses: Array<FilterClauseRecord | FilterRecord>
}

export type AggregationRecord = {func: 'count'} | {func: 'sum' | 'max' | 'min' | 'avg'; property: string} | {func: 'unique'; property: string}

export interface MeterRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  unit: 'scalar' | 'token' | 'custom'
  custom_label: string | null
  custom_multiplier: number | null
  filter: FilterRecord
  aggregation: AggregationRecord
  metadata: Metadata
  archived_at: string | null
}
