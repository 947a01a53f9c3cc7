import {describe, expect, it} from 'vitest'

import {calendarProblem, parseIsoTime} from './iso-time.js'

describe('calendar dates', () => {
  it('refuses days and months a calendar does not have, as the service does', () => {
    expect(calendarProblem('2024-02-30T00:00:00Z')).toBe('day value is outside expected range')
    expect(calendarProblem('2023-02-29')).toBe('day value is outside expected range')
    expect(calendarProblem('2024-04-31')).toBe('day value is outside expected range')
    expect(calendarProblem('2024-00-10')).toBe('month value is outside expected range')
    expect(calendarProblem('2024-13-01')).toBe('month value is outside expected range')
    expect(calendarProblem('2024-02-29')).toBeUndefined()
    expect(calendarProblem('2000-02-29')).toBeUndefined()
    expect(calendarProblem('1900-02-29')).toBe('day value is outside expected range')
    expect(calendarProblem('yesterday')).toBeUndefined()
  })

  it('parses ISO 8601 times with a real date, and nothing else', () => {
    expect(parseIsoTime('2026-01-31')).toBe(Date.UTC(2026, 0, 31))
    expect(parseIsoTime('2026-01-31T09:30:00+01:00')).toBe(Date.UTC(2026, 0, 31, 8, 30))
    expect(parseIsoTime('2024-02-30')).toBeNaN()
    expect(parseIsoTime('yesterday')).toBeNaN()
    expect(parseIsoTime('1700000000')).toBeNaN()
    expect(parseIsoTime('2026-01-31Tnonsense')).toBeNaN()
  })
})
