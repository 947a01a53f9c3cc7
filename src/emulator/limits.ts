// Rate limits of the service (spec §8, api-facts §7): fixed windows per key, several rules at once.
// A limited request gets 429 with an empty body and a truthful `Retry-After` in whole seconds:
// waiting that long always lands in a fresh window.

export interface Rule {
  /** Requests allowed per window. */
  limit: number
  windowMs: number
  /** After the limit is hit, further requests are refused until this much time has passed. */
  blockMs?: number
}

interface Window {
  start: number
  count: number
  blockedUntil: number
}

/** Parses `off`, `N/WINDOW` (`20/2s`, `500/60s`, `100/1m`) into a rule, or null for off. */
export function parseRateLimit(text: string): Rule | null {
  if (text.trim().toLowerCase() === 'off') return null
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h|min)?\s*$/.exec(text)
  if (!match || Number(match[1]) <= 0) throw new Error(`"${text}" is not a rate limit; use N/WINDOW like 20/2s, 500/60s or 100/1m, or off`)
  const unit = {ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000}[match[3] ?? 's']!
  const windowMs = Math.round(Number(match[2] ?? 1) * unit)
  if (windowMs <= 0) throw new Error(`"${text}" has an empty window`)
  return {limit: Number(match[1]), windowMs}
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
