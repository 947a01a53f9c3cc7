import {describe, expect, it} from 'vitest'

import {parseRateLimit, RateLimiter, type Rule} from './limits.js'

function clock(start = 1_000_000) {
  let t = start
  return {now: () => t, advance: (ms: number) => (t += ms)}
}

describe('parseRateLimit', () => {
  it('reads N/WINDOW in several units and off', () => {
    expect(parseRateLimit('20/2s')).toEqual({limit: 20, windowMs: 2000})
    expect(parseRateLimit('500/60s')).toEqual({limit: 500, windowMs: 60_000})
    expect(parseRateLimit('100/1m')).toEqual({limit: 100, windowMs: 60_000})
    expect(parseRateLimit('3/s')).toEqual({limit: 3, windowMs: 1000})
    expect(parseRateLimit('off')).toBeNull()
  })

  it('rejects nonsense with the accepted forms', () => {
    expect(() => parseRateLimit('fast')).toThrow(/N\/WINDOW like 20\/2s/)
    expect(() => parseRateLimit('0/1s')).toThrow(/not a rate limit/)
  })
})

describe('RateLimiter', () => {
  const perTwoSeconds: Rule = {limit: 3, windowMs: 2000}

  it('allows the limit, then answers with the whole seconds left in the window', () => {
    const c = clock()
    const limiter = new RateLimiter(c.now)
    for (let i = 0; i < 3; i++) expect(limiter.take([['org', perTwoSeconds]])).toBe(0)
    c.advance(300)
    expect(limiter.take([['org', perTwoSeconds]])).toBe(2) // 1.7 s left -> 2
    c.advance(1000)
    expect(limiter.take([['org', perTwoSeconds]])).toBe(1) // 0.7 s left -> 1
  })

  it('is truthful: waiting exactly Retry-After seconds succeeds', () => {
    const c = clock()
    const limiter = new RateLimiter(c.now)
    for (let i = 0; i < 3; i++) limiter.take([['org', perTwoSeconds]])
    for (const step of [1, 250, 999, 1500]) {
      c.advance(step)
      const wait = limiter.take([['org', perTwoSeconds]])
      if (wait > 0) {
        c.advance(wait * 1000)
        expect(limiter.take([['org', perTwoSeconds]])).toBe(0)
        for (let i = 0; i < 2; i++) limiter.take([['org', perTwoSeconds]])
      }
    }
  })

  it('keeps keys apart and applies every rule at once, counting nothing when refused', () => {
    const c = clock()
    const limiter = new RateLimiter(c.now)
    const ip: Rule = {limit: 4, windowMs: 1000}
    for (let i = 0; i < 3; i++)
      expect(
        limiter.take([
          ['ip', ip],
          ['a', perTwoSeconds],
        ]),
      ).toBe(0)
    expect(
      limiter.take([
        ['ip', ip],
        ['a', perTwoSeconds],
      ]),
    ).toBe(2)
    expect(
      limiter.take([
        ['ip', ip],
        ['b', perTwoSeconds],
      ]),
    ).toBe(0) // the refused one did not count against ip
    expect(
      limiter.take([
        ['ip', ip],
        ['c', perTwoSeconds],
      ]),
    ).toBe(1) // ip exhausted now
  })

  it('blocks for blockMs after the limit is hit', () => {
    const c = clock()
    const limiter = new RateLimiter(c.now)
    const strict: Rule = {limit: 3, windowMs: 1000, blockMs: 60_000}
    for (let i = 0; i < 3; i++) limiter.take([['k', strict]])
    expect(limiter.take([['k', strict]])).toBe(60)
    c.advance(30_000)
    expect(limiter.take([['k', strict]])).toBe(30)
    c.advance(30_000)
    expect(limiter.take([['k', strict]])).toBe(0)
  })
})
