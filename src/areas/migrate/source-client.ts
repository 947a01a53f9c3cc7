// Reading a migration source's API (Lemon Squeezy, Paddle): GETs through the client's one retry loop
// (src/client/client.ts: pacing within the source's documented budget, 429 waits on Retry-After, 5xx and
// network errors retried), with the source's own words in the errors. The key goes only into the
// Authorization header of requests to the source's origin; no message carries it.
import {ApiClient, type Query} from '../../client/client.js'
import {ApiError, NetworkError, RateLimitedError} from '../../client/errors.js'
import {type Budget, Pacer} from '../../client/pace.js'
import {ExitCode, TillError} from '../../client/till-error.js'

export interface SourceClientOptions {
  /** The source's name in messages: `Lemon Squeezy`, `Paddle`. */
  label: string
  baseUrl: string
  key: string
  /** The environment variable or flag the key came from, named in the 401 hint. */
  keyName: string
  /** The source's documented rate limit (requests in a window). */
  budget: Budget
  /** The media type its answers come in. */
  accept?: string
  /** Longest total wait on 429s before giving up (exit 5); 5 minutes unless said. */
  maxWaitMs?: number
  /** The client's trace of each request, wait and retry (--debug), without the key. */
  debug?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  random?: () => number
}

export interface SourceClient {
  /** A GET of a path under the base URL, or of a whole URL on its origin (a `next` link), as JSON. */
  get<T>(pathOrUrl: string, query?: Query): Promise<T>
  close(): Promise<void>
}

export function sourceClient(options: SourceClientOptions): SourceClient {
  const client = new ApiClient({
    baseUrl: options.baseUrl,
    token: options.key,
    userAgent: 'till-migrate',
    budgets: [options.budget],
    pacer: new Pacer({now: options.now, sleep: options.sleep}),
    maxWaitMs: options.maxWaitMs ?? 300_000,
    label: options.label,
    debug: options.debug,
    sleep: options.sleep,
    now: options.now,
    random: options.random,
  })
  return {
    async get<T>(pathOrUrl: string, query?: Query): Promise<T> {
      try {
        // api-coverage: any path (the migration source's own API, another service than Polar's)
        return await client.get<T>(pathOrUrl, {query, accept: options.accept})
      } catch (error) {
        throw sourceError(error, options)
      }
    },
    close: () => client.close(),
  }
}

/** A failed read in the source's words, one line, with the key masked wherever it might have been echoed. */
export function sourceError(error: unknown, options: Pick<SourceClientOptions, 'label' | 'key' | 'keyName'>): Error {
  const scrub = (text: string) => (options.key.length >= 4 ? text.split(options.key).join('…') : text)
  const {label} = options
  if (error instanceof ApiError) {
    const where = scrub(`GET ${pathOf(error.url)}`)
    if (error.status === 401 || error.status === 403) {
      return new TillError(
        `${label} refused the API key (HTTP ${error.status} to ${where})`,
        ExitCode.auth,
        `check ${options.keyName}: a read-only key of the right account and environment (live or test)`,
      )
    }
    if (error.status === 404) return new TillError(`${label} has no ${where} (HTTP 404)`, ExitCode.notFound, 'check --api-base and the store or account id')
    const detail = scrub(sourceDetail(error.body))
    return new TillError(
      `${label} answered HTTP ${error.status} to ${where}${detail ? `: ${detail}` : ''}`,
      error.status >= 500 ? ExitCode.unavailable : ExitCode.error,
      error.status >= 500 ? `${label} kept failing after several tries; run the migration again later` : undefined,
    )
  }
  if (error instanceof RateLimitedError) {
    return new TillError(`${label} is still rate limiting: ${error.message}`, ExitCode.rateLimited, 'run the migration again in a few minutes')
  }
  if (error instanceof NetworkError) {
    return new TillError(scrub(`could not reach ${label} (${pathOf(error.url)}): ${error.message}`), ExitCode.unavailable, 'check the network and --api-base')
  }
  if (error instanceof Error && !(error instanceof TillError)) error.message = scrub(error.message)
  return error as Error
}

const pathOf = (url: string) => {
  try {
    const u = new URL(url)
    return u.pathname + u.search
  } catch {
    return url
  }
}

/** The error text of a JSON:API (`errors[].detail`), Paddle (`error.detail`) or Stripe (`error.message`) answer. */
function sourceDetail(body: unknown): string {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body.slice(0, 200) : ''
  const b = body as {errors?: Array<{detail?: unknown; title?: unknown}>; error?: {detail?: unknown; message?: unknown}}
  const first = b.errors?.[0]
  const text = first?.detail ?? first?.title ?? b.error?.detail ?? b.error?.message
  return typeof text === 'string' ? text.slice(0, 200) : ''
}
