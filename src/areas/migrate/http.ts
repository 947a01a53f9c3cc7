// Reading a migration source's API: GET only (safe to send again), retried on 429 (after `Retry-After`,
// seconds or an HTTP date) and on 5xx or a dropped connection (capped exponential backoff), as the
// sources document. The key goes in a header only: it is never part of a message, a URL or a debug line.
import {backoffMs, retryAfterMs} from '../../client/retry.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export interface SourceHttp {
  /** The API's base URL, e.g. https://api.stripe.com (a fake server's in tests: --api-base). */
  base: string
  headers: Record<string, string>
  /** What the source is called in messages (`Stripe`). */
  label: string
  /** How long to wait (injected in tests); defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>
  /** Called with each wait, for --debug (no URL query, no key). */
  onWait?: (line: string) => void
  /** Attempts in all per request. */
  attempts?: number
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** GETs `path` (with `query`) and parses its JSON, retrying what the source says may be retried. */
export async function getJson<T>(http: SourceHttp, path: string, query: Record<string, string | string[]> = {}): Promise<T> {
  const url = new URL(path, http.base.endsWith('/') ? http.base : `${http.base}/`)
  for (const [name, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, v)
  const sleep = http.sleep ?? defaultSleep
  const attempts = http.attempts ?? 6
  let refusals = 0
  for (let attempt = 1; ; attempt++) {
    let response: Response
    try {
      // api-coverage: another service
      response = await fetch(url, {headers: {accept: 'application/json', ...http.headers}})
    } catch (error) {
      if (attempt >= attempts) {
        throw new TillError(
          `${http.label} cannot be reached at ${url.origin} (${(error as Error).message})`,
          ExitCode.unavailable,
          'check the network, or --api-base',
        )
      }
      const ms = backoffMs(attempt, Math.random, 500, 10_000)
      http.onWait?.(`${http.label}: connection failed on ${path}; retrying in ${ms}ms`)
      await sleep(ms)
      continue
    }
    if (response.ok) return (await response.json()) as T
    const text = await response.text().catch(() => '')
    if (response.status === 429 && attempt < attempts) {
      refusals++
      const ms = retryAfterMs(response.headers.get('retry-after') ?? undefined, Date.now(), refusals)
      http.onWait?.(`${http.label}: rate limited on ${path}; waiting ${ms}ms (Retry-After)`)
      await sleep(ms)
      continue
    }
    if (response.status >= 500 && attempt < attempts) {
      const ms = backoffMs(attempt, Math.random, 500, 10_000)
      http.onWait?.(`${http.label}: ${response.status} on ${path}; retrying in ${ms}ms`)
      await sleep(ms)
      continue
    }
    throw sourceError(http.label, response.status, path, text)
  }
}

/** The source's refusal in one line: what it said (never the key), and what to do. */
function sourceError(label: string, status: number, path: string, body: string): TillError {
  let said = ''
  try {
    const parsed = JSON.parse(body) as {error?: {message?: unknown} | string; message?: unknown; errors?: Array<{detail?: unknown}>}
    const message = typeof parsed.error === 'object' ? parsed.error?.message : (parsed.error ?? parsed.message ?? parsed.errors?.[0]?.detail)
    if (typeof message === 'string') said = `: ${message.replace(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]+/g, '$1_$2_…').slice(0, 200)}`
  } catch {
    // not JSON: the status alone
  }
  if (status === 401 || status === 403)
    return new TillError(
      `${label} refused the API key (${status})${said}`,
      ExitCode.auth,
      `give a read-only key that can read products, prices, coupons and customers`,
    )
  if (status === 429) return new TillError(`${label} kept answering 429 (rate limited) on ${path}`, ExitCode.rateLimited, 'wait a minute and run it again')
  if (status >= 500) return new TillError(`${label} answered ${status} on ${path}, again and again`, ExitCode.unavailable, 'run it again later')
  return new TillError(`${label} answered ${status} on ${path}${said}`, ExitCode.error)
}
