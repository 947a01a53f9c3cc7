// What may be retried, and how long to wait. Pure, so it is tested with a fixed random source.

/** Network errors raised before the request could reach the server: safe to send again, any method. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

export const MAX_ATTEMPTS = 5

/** Whether a network error code means the request never reached the server. */
export const neverSent = (code: string | undefined) => code !== undefined && NOT_SENT.has(code)

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

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from `now`; at least 1 s when unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return 1000
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now)
}
