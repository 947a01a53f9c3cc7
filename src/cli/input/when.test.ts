import {describe, expect, it} from 'vitest'

import {nowFor, whenDate, whenIso} from './when.js'

const NOW = Date.parse('2026-11-28T10:30:00Z')

describe('date flags: one rule', () => {
  it('takes dates, times and times ago, parsed here', () => {
    expect(whenIso('2026-11-28T09:00:00Z', '--since', {now: NOW})).toBe('2026-11-28T09:00:00.000Z')
    expect(whenIso('2026-11-20', '--since', {now: NOW})).toBe('2026-11-20T00:00:00.000Z')
    expect(whenIso('7d', '--since', {now: NOW})).toBe('2026-11-21T10:30:00.000Z')
    expect(whenIso('12h', '--since', {now: NOW})).toBe('2026-11-27T22:30:00.000Z')
    expect(whenIso('30min', '--since', {now: NOW})).toBe('2026-11-28T10:00:00.000Z')
    expect(whenIso('2w', '--since', {now: NOW})).toBe('2026-11-14T10:30:00.000Z')
    expect(whenIso('3m', '--since', {now: NOW})).toBe('2026-08-28T10:30:00.000Z')
    expect(whenIso('1y', '--since', {now: NOW})).toBe('2025-11-28T10:30:00.000Z')
    expect(whenIso('today', '--since', {now: NOW})).toBe('2026-11-28T00:00:00.000Z')
    expect(whenIso('yesterday', '--since', {now: NOW})).toBe('2026-11-27T00:00:00.000Z')
  })

  it('an end date is inclusive: the end of that day', () => {
    expect(whenIso('2026-11-28', '--end', {end: true, now: NOW})).toBe('2026-11-28T23:59:59.999Z')
    expect(whenIso('today', '--until', {end: true, now: NOW})).toBe('2026-11-28T23:59:59.999Z')
    // a time is the time
    expect(whenIso('2026-11-28T09:00:00Z', '--end', {end: true, now: NOW})).toBe('2026-11-28T09:00:00.000Z')
    expect(whenDate('30d', '--start', {now: NOW})).toBe('2026-10-29')
  })

  it('refuses anything else, naming the flag and the forms', () => {
    expect(() => whenIso('last tuesday', '--since')).toThrow(
      /^--since must be a date \(2026-11-28, today, yesterday\), a time .* or a time ago \(12h, 7d, 2w, 3m\), not "last tuesday"$/,
    )
    expect(() => whenIso('2026-02-30', '--until', {end: true})).toThrow('--until 2026-02-30: day value is outside expected range')
  })
})

describe('the time date flags count from', () => {
  const clock = async () => Date.parse('2030-01-01T12:00:00Z')

  it('is the environment clock when a value counts from now, else none is asked for', async () => {
    expect(await nowFor(clock, {'--since': 'yesterday', '--until': undefined})).toBe(Date.parse('2030-01-01T12:00:00Z'))
    expect(await nowFor(clock, {'--since': '7d'})).toBe(Date.parse('2030-01-01T12:00:00Z'))
    const never = async (): Promise<number> => {
      throw new Error('the clock was asked for')
    }
    expect(await nowFor(never, {'--since': '2026-11-01', '--until': '2026-11-28T09:00:00Z'})).toBeUndefined()
  })

  it('checks every value before asking the clock', async () => {
    let asked = false
    const counting = async () => {
      asked = true
      return 0
    }
    await expect(nowFor(counting, {'--since': 'yesterday', '--until': 'soon'})).rejects.toThrow(/--until must be/)
    expect(asked).toBe(false)
  })
})
