// Small helpers shared by the seed pieces of the resources (see ../seed.ts).
import type {Random} from './ids.js'

export const DAY = 86_400_000

export const iso = (ms: number) => new Date(ms).toISOString()
/**
 * Oldest first by `created_at` (ISO times, which sort as text). Not localeCompare: the first one in a
 * process loads ICU's collation data, a cost to every emulator's start, for the same order.
 */
export const oldestFirst = (a: {created_at: string}, b: {created_at: string}): number =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!
