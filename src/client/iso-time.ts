// Calendar checks that Date.parse does not make: it takes 2024-02-30 as March 1st, where the service
// (pydantic) refuses a day or month out of range. Pure; shared by till's flags and the emulator.

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

/** What is wrong with the calendar date that `text` starts with (YYYY-MM-DD...), in pydantic's words; undefined when fine or not of that shape. */
export function calendarProblem(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim())
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12) return 'month value is outside expected range'
  const days = month === 2 && leap(year) ? 29 : DAYS[month - 1]!
  if (day < 1 || day > days) return 'day value is outside expected range'
  return undefined
}

/** Milliseconds of an ISO 8601 date or time (`2026-01-31`, `2026-01-31T09:00:00Z`), NaN unless it is one with a real calendar date. */
export function parseIsoTime(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim()) || calendarProblem(text) !== undefined) return Number.NaN
  return Date.parse(text.trim())
}
