// What may be sent again after a network error, and how long to wait. Pure, so it is tested with a fixed
// random source. Whether a write whose answer was lost is sent again is its operation's (./settlement.ts).

/** Network errors raised before the request could reach the server: safe to send again, any method. */
const NOT_SENT = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

export const MAX_ATTEMPTS = 5

/** The code of an attempt given up at its deadline (the client's own, beside undici's codes). */
export const DEADLINE_CODE = 'TILL_DEADLINE'

/** Whether a network error code means the request never reached the server. */
export const neverSent = (code: string | undefined) => code !== undefined && NOT_SENT.has(code)

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

/** The network error of a request in words; for a write, that it may or may not have been done. */
export function describeNetworkError(code: string | undefined, error: Error, method: string, deadlineMs?: number): string {
  switch (code) {
    case DEADLINE_CODE:
      return `no whole answer within ${Math.round((deadlineMs ?? 0) / 100) / 10} s, the deadline of a request${method === 'GET' ? '' : '; the change may or may not have been made, check before trying again'}`
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)'
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'timed out connecting'
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `timed out waiting for the response${method === 'GET' ? '' : '; the change may or may not have been made, check before trying again'}`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found'
    default:
      return method === 'GET'
        ? `connection failed (${code ?? error.message})`
        : `the connection was lost after the request was sent (${code ?? error.message}); the change may or may not have been made, check before trying again`
  }
}
