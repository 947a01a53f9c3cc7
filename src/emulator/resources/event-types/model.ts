// Event types: one per event name the organization ingested, with a label it may change.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    event_types: EventTypeRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({event_types: [] as EventTypeRecord[]})

export interface EventTypeRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  label: string
  label_property_selector: string | null
}
