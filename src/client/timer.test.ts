import {afterEach, describe, expect, it, vi} from 'vitest'

import {MAX_TIMER_MS, sleep} from './timer.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('sleep', () => {
  it('waits the whole of a wait longer than one timer holds, in parts, instead of firing at once', async () => {
    vi.useFakeTimers()
    let done = false
    void sleep(MAX_TIMER_MS + 5000).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(1000)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(4000)
    expect(done).toBe(true)
  })
})
