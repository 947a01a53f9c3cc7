// One rule for every date flag (--since/--until, --start/--end, --starts-at/--ends-at, --expires-at),
// parsed here before anything is sent, so that the service never answers for a parameter the user did
// not type. Pure.
//
// - a time, ISO 8601: `2026-11-28T09:00:00Z` (an offset, or Z);
// - a calendar date: `2026-11-28`, `today`, `yesterday`: the day in UTC, from its start, or to its end
//   when the flag ends a range (an end date is inclusive);
// - a time ago: `90s`, `30min`, `12h`, `7d`, `2w`, `3m` (months, as `metrics --last 3m`), `1y`, `now`.
import {calendarProblem, parseIsoTime} from '../../client/iso-time.js'
import {usageError} from '../../client/till-error.js'

const DAY = 86_400_000
const AGO = /^(\d+)\s*(s|sec|min|h|d|w|m|mo|y)$/
const UNIT_MS: Record<string, number> = {s: 1000, sec: 1000, min: 60_000, h: 3_600_000, d: DAY, w: 7 * DAY}

/** The words a date flag's help names. */
export const WHEN_HELP = 'a date (2026-11-28, today, yesterday), a time (2026-11-28T09:00:00Z) or a time ago (12h, 7d, 2w, 3m)'

export interface WhenOptions {
  /** The flag ends a range: a date means the end of that day (inclusive). */
  end?: boolean
  now?: number
}

/** Months back from `now`, the day kept (clamped to the month's end). */
function monthsAgo(now: number, months: number): number {
  const d = new Date(now)
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d.getUTCDate(), last))
  target.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds())
  return target.getTime()
}

/** The instant (milliseconds) a date flag's value names; throws a usage error naming the flag and the forms it takes. */
export function whenMs(text: string, flag: string, options: WhenOptions = {}): number {
  const value = text.trim().toLowerCase()
  const now = options.now ?? Date.now()
  const day = (start: number) => (options.end ? start + DAY - 1 : start)
  const midnight = (ms: number) => Math.floor(ms / DAY) * DAY
  if (value === 'now') return now
  if (value === 'today') return day(midnight(now))
  if (value === 'yesterday') return day(midnight(now) - DAY)
  const ago = AGO.exec(value)
  if (ago) {
    const n = Number(ago[1])
    const unit = ago[2]!
    if (unit === 'm' || unit === 'mo') return monthsAgo(now, n)
    if (unit === 'y') return monthsAgo(now, 12 * n)
    return now - n * UNIT_MS[unit]!
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const problem = calendarProblem(value)
    if (problem) throw usageError(`${flag} ${text}: ${problem}`, `give ${WHEN_HELP}`)
    return day(Date.parse(`${value}T00:00:00Z`))
  }
  const ms = /^\d{4}-\d{2}-\d{2}t/.test(value) ? parseIsoTime(text.trim()) : Number.NaN
  if (Number.isNaN(ms)) throw usageError(`${flag} must be ${WHEN_HELP}, not "${text}"`, `e.g. ${flag} 7d or ${flag} 2026-11-01`)
  return ms
}

/** Whether a date flag's value counts from now (`today`, `yesterday`, `now`, a time ago): the environment's clock decides it. */
export function fromNow(text: string | undefined): boolean {
  const value = text?.trim().toLowerCase() ?? ''
  return value === 'now' || value === 'today' || value === 'yesterday' || AGO.test(value)
}

/**
 * The time date flags (by flag name) count from: the environment's (`clock`, an emulator's clock on an
 * emulator profile), asked for only when a value counts from now; undefined (this machine's time) otherwise.
 * Every value is checked first, so that a bad one is said before any request.
 */
export async function nowFor(clock: () => Promise<number>, values: Record<string, string | undefined>): Promise<number | undefined> {
  const given = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined)
  for (const [flag, text] of given) whenMs(text, flag)
  return given.some(([, text]) => fromNow(text)) ? clock() : undefined
}

/** A date flag's value as an ISO 8601 time for the API. */
export function whenIso(text: string, flag: string, options: WhenOptions = {}): string {
  return new Date(whenMs(text, flag, options)).toISOString()
}

/** A date flag's value as a calendar date, YYYY-MM-DD (UTC): for flags that take days (metrics --start/--end). */
export function whenDate(text: string, flag: string, options: WhenOptions = {}): string {
  return new Date(whenMs(text, flag, {...options, end: false})).toISOString().slice(0, 10)
}
