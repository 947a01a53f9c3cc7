// The environment's clock: kept in its store, so that every process serving the store reads the same time.
import type {EnvData} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    clock: ClockRecord
  }
}

export interface ClockRecord {
  /** How far the environment's time runs ahead of the wall clock (ms); 0: the wall clock's time. */
  offset_ms: number
  /** The environment's time the last advance settled everything up to; the clock never goes back past it. */
  settled_to: string | null
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({clock: {offset_ms: 0, settled_to: null}})

/** The store's clock (a store's data without one, the wall clock's). */
export const clockOf = (data: EnvData): ClockRecord => data.clock ?? {offset_ms: 0, settled_to: null}
