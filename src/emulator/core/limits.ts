// Rate limits of the service (server/polar/rate_limit.py): fixed windows per key, several rules at once.
// A limited request gets 429 with an empty body and a truthful `Retry-After` in whole seconds:
// waiting that long always lands in a fresh window.

import type {Rule} from '../../client/rate-limit.js'

export type {Rule} from '../../client/rate-limit.js'
export {parseRateLimit} from '../../client/rate-limit.js'

interface Window {
  start: number
  count: number
  blockedUntil: number
}

export class RateLimiter {
  private windows = new Map<string, Window>()

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Counts one request against every `[key, rule]` pair. Returns 0 when allowed, else the seconds
   * to wait (and the request is not counted anywhere).
   */
  take(checks: Array<[string, Rule]>): number {
    const now = this.now()
    let wait = 0
    const windows = checks.map(([key, rule]) => {
      let w = this.windows.get(key)
      if (!w || now >= w.start + rule.windowMs) {
        w = {start: now, count: 0, blockedUntil: w && w.blockedUntil > now ? w.blockedUntil : 0}
        this.windows.set(key, w)
      }
      if (w.blockedUntil > now) wait = Math.max(wait, w.blockedUntil - now)
      else if (w.count >= rule.limit) {
        if (rule.blockMs) w.blockedUntil = now + rule.blockMs
        wait = Math.max(wait, rule.blockMs ?? w.start + rule.windowMs - now)
      }
      return w
    })
    if (wait > 0) return Math.max(1, Math.ceil(wait / 1000))
    for (const w of windows) w.count++
    if (this.windows.size > 10_000) this.sweep(now)
    return 0
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start > 3_600_000 && w.blockedUntil <= now) this.windows.delete(key)
  }
}
