// The date range and interval of `till metrics` and `till report`: --start/--end or --last, days in a
// time zone, and the interval that suits the span when none is given (within the service's limits).
import {usageError} from '../../client/till-error.js'
import {whenDate} from '../../cli/input/when.js'
import type {MetricInterval} from '../../client/resources/metrics.js'

export interface MetricsRange {
  startDate: string
  endDate: string
  interval: MetricInterval
  timezone: string
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/
const LAST_RE = /^(\d+)([dwmy])$/
const DAY = 86_400_000

const toDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`)

/** Today's date in a time zone, YYYY-MM-DD. */
export function todayIn(timezone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', {timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit'}).format(new Date(now))
}

function checkTimezone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', {timeZone: timezone})
  } catch {
    throw usageError(`unknown time zone "${timezone}"`, 'pass an IANA name such as UTC, Europe/Paris or America/New_York')
  }
}

/** A day of --start/--end: YYYY-MM-DD, or the other forms every date flag takes (today, 30d...; src/cli/input/when.ts). */
function checkDate(flag: string, value: string, now: number): string {
  if (!DATE_RE.test(value)) return whenDate(value, flag, {now})
  if (Number.isNaN(dayMs(value)) || toDate(dayMs(value)) !== value) {
    throw usageError(`${flag} must be a date as YYYY-MM-DD, got "${value}"`, `e.g. ${flag} 2025-01-31`)
  }
  return value
}

/** Days in the range, both ends included. */
export const spanDays = (startDate: string, endDate: string) => (dayMs(endDate) - dayMs(startDate)) / DAY + 1

/** The interval that gives a readable chart for a span: days up to a month, weeks up to half a year, then months, then years. */
export function intervalFor(days: number): MetricInterval {
  if (days <= 31) return 'day'
  if (days <= 183) return 'week'
  if (days <= 4 * 365) return 'month'
  return 'year'
}

/** Moves a date by whole days or months (months keep the day, clamped to the month's end). */
function shift(date: string, unit: 'd' | 'w' | 'm' | 'y', n: number): string {
  if (unit === 'd' || unit === 'w') return toDate(dayMs(date) + n * (unit === 'w' ? 7 : 1) * DAY)
  const d = new Date(dayMs(date))
  const months = unit === 'm' ? n : 12 * n
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d.getUTCDate(), last))
  return toDate(target.getTime())
}

export interface RangeFlags {
  start?: string
  end?: string
  last?: string
  interval?: string
  timezone?: string
}

/** The range the flags name; the last 12 months by default. */
export function resolveRange(flags: RangeFlags, now: number): MetricsRange {
  const timezone = flags.timezone ?? 'UTC'
  checkTimezone(timezone)
  if (flags.last !== undefined && (flags.start !== undefined || flags.end !== undefined)) {
    throw usageError('give --last or --start/--end, not both', 'e.g. --last 90d, or --start 2025-01-01 --end 2025-03-31')
  }
  const today = todayIn(timezone, now)
  let startDate: string
  let endDate: string
  if (flags.start !== undefined || flags.end !== undefined) {
    endDate = flags.end === undefined ? today : checkDate('--end', flags.end, now)
    startDate = flags.start === undefined ? shift(endDate, 'm', -12) : checkDate('--start', flags.start, now)
    if (startDate > endDate) throw usageError(`--start ${startDate} is after --end ${endDate}`, 'give a start on or before the end')
  } else {
    const match = LAST_RE.exec(flags.last ?? '12m')
    if (!match || Number(match[1]) < 1)
      throw usageError(`--last must be a count and a unit (d, w, m or y), got "${flags.last}"`, 'e.g. --last 30d, --last 12w, --last 12m')
    endDate = today
    startDate = shift(shift(today, match[2] as 'd' | 'w' | 'm' | 'y', -Number(match[1])), 'd', 1)
  }
  const interval = (flags.interval as MetricInterval | undefined) ?? intervalFor(spanDays(startDate, endDate))
  return {startDate, endDate, interval, timezone}
}

/** The range of the same length just before this one. */
export function previousRange(range: MetricsRange): MetricsRange {
  const days = spanDays(range.startDate, range.endDate)
  const endDate = shift(range.startDate, 'd', -1)
  return {...range, startDate: shift(endDate, 'd', -(days - 1)), endDate}
}

/** The instant a day starts in a time zone (midnight local time). */
export function dayStart(date: string, timezone: string): number {
  const guess = dayMs(date)
  const offset = (at: number) => {
    const parts: Record<string, number> = {}
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    for (const p of f.formatToParts(new Date(at))) if (p.type !== 'literal') parts[p.type] = Number(p.value)
    return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - Math.floor(at / 1000) * 1000
  }
  const first = guess - offset(guess)
  return guess - offset(first)
}

/** First and last instant of the range (whole days in its time zone). */
export function rangeBounds(range: MetricsRange): {start: number; end: number} {
  return {start: dayStart(range.startDate, range.timezone), end: dayStart(shift(range.endDate, 'd', 1), range.timezone) - 1}
}

/**
 * Whether the first and last periods of the range are partial: the range starts after the first
 * period's start, or ends before the last period's end (a month, ISO week from Monday, or year cut short).
 */
export function partialEnds(range: MetricsRange): {first: boolean; last: boolean} {
  const start = new Date(dayMs(range.startDate))
  const end = new Date(dayMs(range.endDate))
  const nextDay = new Date(dayMs(range.endDate) + DAY)
  switch (range.interval) {
    case 'week':
      return {first: start.getUTCDay() !== 1, last: nextDay.getUTCDay() !== 1}
    case 'month':
      return {first: start.getUTCDate() !== 1, last: nextDay.getUTCDate() !== 1}
    case 'year':
      return {first: range.startDate.slice(5) !== '01-01', last: end.getUTCMonth() !== 11 || end.getUTCDate() !== 31}
    default:
      return {first: false, last: false}
  }
}
