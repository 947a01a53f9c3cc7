// Calendar periods in an IANA time zone, as the service's metrics build them: each period starts at the
// interval's truncation (hour, day, ISO week from Monday, month, year) of local wall time, and the next
// one starts one interval later on the local calendar. Pure functions of instants (ms since the epoch).
export const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const
export type Interval = (typeof INTERVALS)[number]

interface Wall {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** True when the runtime knows the zone name. */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name)
    return true
  } catch {
    return false
  }
}

function wallAt(ms: number, timeZone: string): Wall {
  const parts: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  return {year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second!}
}

const wallMs = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)

/** The zone's offset from UTC at an instant, in ms (east positive). */
export function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000
  return wallMs(wallAt(whole, timeZone)) - whole
}

/** The instant a local wall time names (the earlier one when a clock change repeats it). */
export function instantOf(w: Wall, timeZone: string): number {
  const guess = wallMs(w)
  let at = guess - offsetAt(guess, timeZone)
  const second = guess - offsetAt(at, timeZone)
  if (second !== at) at = Math.min(at, second)
  return at
}

/** Start of the period holding `ms`. */
export function truncate(ms: number, interval: Interval, timeZone: string): number {
  const w = wallAt(ms, timeZone)
  switch (interval) {
    case 'hour':
      return instantOf({...w, minute: 0, second: 0}, timeZone)
    case 'day':
      return instantOf({...w, hour: 0, minute: 0, second: 0}, timeZone)
    case 'week': {
      const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7 // Monday 0
      const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - weekday))
      return instantOf({year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate(), hour: 0, minute: 0, second: 0}, timeZone)
    }
    case 'month':
      return instantOf({...w, day: 1, hour: 0, minute: 0, second: 0}, timeZone)
    case 'year':
      return instantOf({...w, month: 1, day: 1, hour: 0, minute: 0, second: 0}, timeZone)
  }
}

/** Start of the period after the one starting at `start` (a truncated instant). */
export function nextStart(start: number, interval: Interval, timeZone: string): number {
  if (interval === 'hour') return start + 3_600_000
  const w = wallAt(start, timeZone)
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day))
  if (interval === 'day') d.setUTCDate(d.getUTCDate() + 1)
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7)
  else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1)
  else d.setUTCFullYear(d.getUTCFullYear() + 1)
  return instantOf({year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0}, timeZone)
}

/** First and last instant of a date range, whole days in the zone, both bounds inclusive. */
export function dayBounds(startDate: string, endDate: string, timeZone: string): {start: number; end: number} {
  const day = (s: string) => {
    const [year, month, date] = s.split('-').map(Number) as [number, number, number]
    return {year, month, day: date, hour: 0, minute: 0, second: 0}
  }
  const start = instantOf(day(startDate), timeZone)
  const last = day(endDate)
  const after = new Date(Date.UTC(last.year, last.month - 1, last.day + 1))
  const end = instantOf({year: after.getUTCFullYear(), month: after.getUTCMonth() + 1, day: after.getUTCDate(), hour: 0, minute: 0, second: 0}, timeZone) - 1
  return {start, end}
}

/** Period starts from the one holding `start` to the one holding `end`. */
export function periodStarts(start: number, end: number, interval: Interval, timeZone: string): number[] {
  const starts: number[] = []
  for (let t = truncate(start, interval, timeZone); t <= end; t = nextStart(t, interval, timeZone)) starts.push(t)
  return starts
}

/** An instant as the service writes a zoned timestamp: local time with its offset, `Z` for UTC. */
export function zonedIso(ms: number, timeZone: string): string {
  const offset = offsetAt(ms, timeZone)
  const local = new Date(ms + offset).toISOString().slice(0, 19)
  if (offset === 0) return `${local}Z`
  const minutes = Math.abs(offset) / 60_000
  const sign = offset > 0 ? '+' : '-'
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}
