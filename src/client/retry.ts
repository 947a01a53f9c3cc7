// What may be retried, and how long to wait. Pure, so it is tested with a fixed random source.

/** Network errors raised before the request could reach the server: safe to send again, any method. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

export const MAX_ATTEMPTS = 5

/** GET and HEAD may be repeated; a POST, PATCH or DELETE that may have reached the server never is. */
export const isIdempotent = (method: string) => method === 'GET' || method === 'HEAD'

/** Whether a failed attempt may be sent again: only if it cannot have had an effect, or cannot matter. */
export function mayRetryNetworkError(method: string, code: string | undefined): boolean {
  return (code !== undefined && NOT_SENT.has(code)) || isIdempotent(method)
}

export function mayRetryStatus(method: string, status: number): boolean {
  return status >= 500 && isIdempotent(method)
}

/** Capped exponential backoff with full jitter: a random delay up to min(cap, base * 2^(attempt-1)). */
export function backoffMs(attempt: number, random: () => number = Math.random, baseMs = 250, capMs = 8000): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)))
}

/** The shortest wait on a 429, whatever `Retry-After` says (0, negative, a past date). */
export const MIN_RATE_LIMIT_WAIT_MS = 1000

/**
 * How long to wait on the `refusals`-th 429 in a row: `Retry-After` (seconds or an HTTP date) from `now`,
 * never under 1 s, and doubling from 1 s (up to 30 s) while the server keeps refusing.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number, refusals = 1): number {
  const value = Array.isArray(header) ? header[0] : header
  let asked = MIN_RATE_LIMIT_WAIT_MS
  if (value !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(value)) asked = Math.ceil(Number(value) * 1000)
  else if (value !== undefined && value.trim() !== '' && !Number.isNaN(Date.parse(value))) asked = Date.parse(value) - now
  const backoff = Math.min(30_000, MIN_RATE_LIMIT_WAIT_MS * 2 ** (Math.max(1, refusals) - 1))
  return Math.max(asked, backoff)
}
