import {describe, expect, it} from 'vitest'

import {parseDuration} from './duration.js'

describe('parseDuration', () => {
  it('reads each unit and treats a bare number as seconds', () => {
    expect(parseDuration('250ms')).toBe(250)
    expect(parseDuration('2s')).toBe(2000)
    expect(parseDuration('1.5s')).toBe(1500)
    expect(parseDuration('5m')).toBe(300_000)
    expect(parseDuration('1h')).toBe(3_600_000)
    expect(parseDuration('3')).toBe(3000)
    expect(parseDuration('0')).toBe(0)
  })

  it('rejects other text with a message naming the accepted forms', () => {
    expect(() => parseDuration('soon')).toThrow(/500ms, 2s, 5m or 1h/)
    expect(() => parseDuration('-1s')).toThrow(/not a duration/)
    expect(() => parseDuration('2 days')).toThrow(/not a duration/)
  })

  it('refuses a duration longer than a timer holds (2^31-1 ms), which would fire at once', () => {
    expect(parseDuration('596h')).toBe(596 * 3_600_000)
    expect(parseDuration('2147483647ms')).toBe(2 ** 31 - 1)
    expect(() => parseDuration('2147483648ms')).toThrow(/^"2147483648ms" is longer than a timer can wait; give at most 596h \(about 24 days\)$/)
    expect(() => parseDuration('3000000')).toThrow(/longer than a timer can wait/)
  })
})
