import {describe, expect, it} from 'vitest'

import {intervalFor, partialEnds, previousRange, rangeBounds, resolveRange} from './range.js'

const NOW = Date.parse('2026-11-23T03:00:00Z')

describe('metrics ranges', () => {
  it('--last counts back from today, in the time zone, with an interval that suits the span', () => {
    expect(resolveRange({last: '30d'}, NOW)).toEqual({startDate: '2026-10-25', endDate: '2026-11-23', interval: 'day', timezone: 'UTC'})
    expect(resolveRange({last: '12w'}, NOW)).toMatchObject({startDate: '2026-09-01', endDate: '2026-11-23', interval: 'week'})
    expect(resolveRange({}, NOW)).toMatchObject({startDate: '2025-11-24', endDate: '2026-11-23', interval: 'month'})
    expect(resolveRange({last: '1d', timezone: 'America/Los_Angeles'}, NOW)).toMatchObject({startDate: '2026-11-22', endDate: '2026-11-22'})
    expect(resolveRange({start: '2026-01-31', end: '2026-02-02', interval: 'hour'}, NOW)).toMatchObject({interval: 'hour'})
    expect(intervalFor(2000)).toBe('year')
  })

  it('refuses what it cannot read, naming the flag', () => {
    expect(() => resolveRange({last: '12'}, NOW)).toThrow(/--last must be a count and a unit/)
    expect(() => resolveRange({start: '2026-02-30'}, NOW)).toThrow(/--start must be a date/)
    expect(() => resolveRange({start: '2026-03-01', end: '2026-02-01'}, NOW)).toThrow(/is after --end/)
    expect(() => resolveRange({timezone: 'Nowhere/Land'}, NOW)).toThrow(/unknown time zone/)
  })

  it('the previous range has the same length and ends the day before', () => {
    expect(previousRange({startDate: '2026-03-01', endDate: '2026-03-31', interval: 'day', timezone: 'UTC'})).toMatchObject({
      startDate: '2026-01-29',
      endDate: '2026-02-28',
    })
  })

  it('bounds are local midnights', () => {
    const {start, end} = rangeBounds({startDate: '2026-07-01', endDate: '2026-07-01', interval: 'day', timezone: 'Europe/Paris'})
    expect(new Date(start).toISOString()).toBe('2026-06-30T22:00:00.000Z')
    expect(new Date(end).toISOString()).toBe('2026-07-01T21:59:59.999Z')
  })
})

describe('partial periods', () => {
  it('the first and last periods are partial when the range cuts them short', () => {
    const at = (startDate: string, endDate: string, interval: 'day' | 'week' | 'month' | 'year') => partialEnds({startDate, endDate, interval, timezone: 'UTC'})
    expect(at('2025-11-27', '2026-11-26', 'month')).toEqual({first: true, last: true})
    expect(at('2025-12-01', '2026-11-30', 'month')).toEqual({first: false, last: false})
    expect(at('2026-02-01', '2026-02-28', 'month')).toEqual({first: false, last: false})
    expect(at('2026-03-02', '2026-03-15', 'week')).toEqual({first: false, last: false})
    expect(at('2026-03-03', '2026-03-14', 'week')).toEqual({first: true, last: true})
    expect(at('2025-01-01', '2025-12-31', 'year')).toEqual({first: false, last: false})
    expect(at('2025-01-02', '2025-12-30', 'year')).toEqual({first: true, last: true})
    expect(at('2025-01-02', '2025-12-30', 'day')).toEqual({first: false, last: false})
  })
})
