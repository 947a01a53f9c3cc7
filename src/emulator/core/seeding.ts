// Small helpers shared by the seed pieces of the resources (see ../seed.ts).
import type {Random} from './ids.js'

export const DAY = 86_400_000

export const iso = (ms: number) => new Date(ms).toISOString()
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!
