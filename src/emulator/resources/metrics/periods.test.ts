import {describe, expect, it} from 'vitest'

import {dayBounds, nextStart, periodStarts, truncate, zonedIso} from './periods.js'

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number) => new Date(ms).toISOString()

describe('periods in a time zone', () => {
  it('truncates to the local day, ISO week (Monday), month and year', () => {
    const t = at('2026-03-05T02:30:00Z') // Thursday; 21:30 on Wednesday the 4th in New York
    expect(iso(truncate(t, 'day', 'UTC'))).toBe('2026-03-05T00:00:00.000Z')
    expect(iso(truncate(t, 'day', 'America/New_York'))).toBe('2026-03-04T05:00:00.000Z')
    expect(iso(truncate(t, 'week', 'UTC'))).toBe('2026-03-02T00:00:00.000Z')
    expect(iso(truncate(t, 'month', 'Europe/Paris'))).toBe('2026-02-28T23:00:00.000Z')
    expect(iso(truncate(t, 'year', 'Asia/Tokyo'))).toBe('2025-12-31T15:00:00.000Z')
    expect(iso(truncate(t, 'hour', 'Asia/Kolkata'))).toBe('2026-03-05T02:30:00.000Z')
  })

  it('steps on the local calendar across a clock change', () => {
    // Paris moves to summer time on 2026-03-29: that day is 23 hours long
    const day = truncate(at('2026-03-29T10:00:00Z'), 'day', 'Europe/Paris')
    expect(iso(day)).toBe('2026-03-28T23:00:00.000Z')
    expect(iso(nextStart(day, 'day', 'Europe/Paris'))).toBe('2026-03-29T22:00:00.000Z')
    expect(zonedIso(nextStart(day, 'day', 'Europe/Paris'), 'Europe/Paris')).toBe('2026-03-30T00:00:00+02:00')
  })

  it('covers whole days, both ends included, and lists the periods they touch', () => {
    const {start, end} = dayBounds('2026-01-15', '2026-03-10', 'UTC')
    expect(iso(start)).toBe('2026-01-15T00:00:00.000Z')
    expect(iso(end)).toBe('2026-03-10T23:59:59.999Z')
    expect(periodStarts(start, end, 'month', 'UTC').map((t) => zonedIso(t, 'UTC'))).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-02-01T00:00:00Z',
      '2026-03-01T00:00:00Z',
    ])
    const week = dayBounds('2026-01-01', '2026-01-14', 'America/New_York')
    expect(periodStarts(week.start, week.end, 'week', 'America/New_York').map((t) => zonedIso(t, 'America/New_York'))).toEqual([
      '2025-12-29T00:00:00-05:00',
      '2026-01-05T00:00:00-05:00',
      '2026-01-12T00:00:00-05:00',
    ])
  })
})
