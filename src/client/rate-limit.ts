// Rate limits written as `N/WINDOW` (`20/2s`, `500/60s`, `1000/1m`) or `off`.

export interface Rule {
  /** Requests allowed per window. */
  limit: number
  windowMs: number
  /** After the limit is hit, further requests are refused until this much time has passed. */
  blockMs?: number
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

/** `500/min`, `100/s`, `20/2s`. */
export function ruleText(rule: Rule): string {
  if (rule.windowMs === 60_000) return `${rule.limit}/min`
  if (rule.windowMs === 1000) return `${rule.limit}/s`
  return `${rule.limit}/${rule.windowMs / 1000}s`
}
