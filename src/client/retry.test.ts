import {describe, expect, it} from 'vitest'

import {backoffMs, neverSent, retryAfterMs} from './retry.js'

describe('what may be sent again', () => {
  it('a request that never left (connection refused, no such host) may be sent again, whatever its method', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT']) expect(neverSent(code)).toBe(true)
  })

  it('a request that may have reached the server is settled by its operation (src/client/settlement.ts)', () => {
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', undefined]) expect(neverSent(code)).toBe(false)
  })
})

describe('backoffMs', () => {
  it('grows exponentially up to the cap, scaled by the random draw', () => {
    const one = () => 1
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((a) => backoffMs(a, one))).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000])
    expect(backoffMs(3, () => 0.5)).toBe(500)
    expect(backoffMs(3, () => 0)).toBe(0)
  })
})

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z')
  it('reads seconds', () => {
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs(['7'], now)).toBe(7000)
  })
  it('reads an HTTP date', () => {
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000)
  })
  it('never waits under one second: 0, negative and past dates', () => {
    expect(retryAfterMs('Sat, 21 Nov 2026 09:59:00 GMT', now)).toBe(1000)
    expect(retryAfterMs('0', now)).toBe(1000)
    expect(retryAfterMs('-5', now)).toBe(1000)
  })
  it('backs off while the server keeps refusing, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryAfterMs('0', now, n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
    expect(retryAfterMs('10', now, 2)).toBe(10000)
  })
  it('falls back to one second when missing or unreadable', () => {
    expect(retryAfterMs(undefined, now)).toBe(1000)
    expect(retryAfterMs('soon', now)).toBe(1000)
  })
})
