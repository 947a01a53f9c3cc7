// The clock's durations (`35d`, `1mo`, `1y2mo`, `2w3d`, `12h`): their parts, and how far a clock can go.
// Pure; shared by `till emulator clock advance` (which refuses what no clock can reach before it sends) and
// the emulator's clock, which does the calendar arithmetic.

/** The last moment a JavaScript date holds (+275760-09-13): no clock goes past it. */
export const LAST_TIME_MS = 8.64e15
export const LAST_DATE = '+275760-09-13'

const DAY = 86_400_000
export const DURATION_UNITS: Record<string, number> = {s: 1000, m: 60_000, h: 3_600_000, d: DAY, w: 7 * DAY}
/** The calendar's mean year and month. */
const YEAR = 365.2425 * DAY
const MONTH = YEAR / 12

export interface DurationPart {
  count: number
  unit: 'mo' | 'y' | 's' | 'm' | 'h' | 'd' | 'w'
}

/** The parts of a duration, in order; undefined when `text` is not one. Counts may be too large to use. */
export function durationParts(text: string): DurationPart[] | undefined {
  const parts = [...text.matchAll(/(\d+)(mo|y|w|d|h|m|s)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined
  return parts.map(([, n, unit]) => ({count: Number(n), unit: unit as DurationPart['unit']}))
}

/** About how long a duration is in ms (a month as the calendar's mean), Infinity when a count is not exact. */
export function roughDurationMs(parts: DurationPart[]): number {
  let ms = 0
  for (const {count, unit} of parts) {
    if (!Number.isSafeInteger(count)) return Number.POSITIVE_INFINITY
    ms += count * (unit === 'y' ? YEAR : unit === 'mo' ? MONTH : DURATION_UNITS[unit]!)
  }
  return ms
}
