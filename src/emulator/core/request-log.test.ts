import {describe, expect, it} from 'vitest'

import {RequestLog} from './request-log.js'

const facts = (url: string, status = 200) =>
  ({environment: 'production', time: '2026-12-08T00:00:00.000Z', method: 'GET', url, status, duration_ms: 1}) as const

describe('the request log', () => {
  it('keeps the last entries only, numbered in order, read after a cursor', () => {
    const log = new RequestLog(3)
    for (let n = 1; n <= 5; n++) log.add(facts(`/v1/orders/?page=${n}`))
    expect(log.after(0).map((e) => e.id)).toEqual([3, 4, 5])
    expect(log.after(4).map((e) => e.query)).toEqual(['page=5'])
    expect(log.after(3, 1).map((e) => e.id)).toEqual([4])
    expect(log.after(5)).toEqual([])
    expect(log.lastId).toBe(5)
  })

  it('splits path and query and masks a token in either', () => {
    const log = new RequestLog()
    const e = log.add(facts('/v1/customer-seats/claim/abcdef123456?customer_session_token=polar_cst_abcdefghijklmnop'))
    expect(e.path).toBe('/v1/customer-seats/claim/…')
    expect(e.query).toBe('customer_session_token=polar_cst_…')
    expect(e.request_id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('a wait ends when a later entry comes, or at its time', async () => {
    const log = new RequestLog()
    const waited = log.waitAfter(0, 60_000)
    log.add(facts('/v1/orders/'))
    await waited
    const started = performance.now()
    await log.waitAfter(1, 20)
    expect(performance.now() - started).toBeGreaterThanOrEqual(15)
    await log.waitAfter(0, 60_000)
  })
})
