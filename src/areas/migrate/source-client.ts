// Reading a migration source's API (Stripe, Lemon Squeezy, Paddle): GETs through the client's one retry
// loop (src/client/client.ts: pacing within the source's documented budget, 429 waits on Retry-After, 5xx
// and network errors retried, a deadline on each request), with the source's own words in the errors. The
// key goes only into the Authorization header of requests to the source's origin; no message or --debug
// line carries it, even when the source echoes it in a URL. What a source answers is checked before it is
// used: JSON (not an HTML page or a cut answer), a list where a list is read, a next page on its own origin.
import {ApiClient, buildUrl, type Query} from '../../client/client.js'
import {ApiError, NetworkError, RateLimitedError} from '../../client/errors.js'
import {absoluteUrl} from '../../client/origin.js'
import {type Budget, Pacer} from '../../client/pace.js'
import {DEADLINE_CODE} from '../../client/retry.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {PageGuard} from './paging.js'

export interface SourceClientOptions {
  /** The source's name in messages: `Lemon Squeezy`, `Paddle`. */
  label: string
  baseUrl: string
  key: string
  /** Where the key came from, named in the 401 hint: `STRIPE_API_KEY`, `the key in FILE`. */
  keyName: string
  /** The source's documented rate limit (requests in a window). */
  budget: Budget
  /** The media type its answers come in. */
  accept?: string
  /** Longest total wait on 429s before giving up (exit 5); 5 minutes unless said. */
  maxWaitMs?: number
  /** Longest time one request may take, to its answer's last byte (the client's default unless said). */
  deadlineMs?: number
  /** The client's trace of each request, wait and retry (--debug), without the key. */
  debug?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  random?: () => number
}

export interface SourceClient {
  /** A GET of a path under the base URL, or of a whole URL on its origin (a `next` link), as JSON. */
  get<T>(pathOrUrl: string, query?: Query): Promise<T>
  /** A GET of one page of a list: an answer whose `data` is a list of objects. */
  page<T extends {data: unknown[]}>(pathOrUrl: string, query?: Query): Promise<T>
  /** What checks the paging of the list at `path` (one per reading of it). */
  guard(path: string): PageGuard
  close(): Promise<void>
}

export function sourceClient(options: SourceClientOptions): SourceClient {
  const scrub = scrubber(options.key)
  const client = new ApiClient({
    baseUrl: options.baseUrl,
    token: options.key,
    userAgent: 'till-migrate',
    // another platform's API: no Polar-Version
    apiVersion: null,
    budgets: [options.budget],
    pacer: new Pacer({now: options.now, sleep: options.sleep}),
    maxWaitMs: options.maxWaitMs ?? 300_000,
    deadlineMs: options.deadlineMs,
    label: options.label,
    // the client masks Polar's tokens; a source that echoes its key in a URL (a redirect) is masked here
    debug: options.debug && ((line) => options.debug!(scrub(line))),
    sleep: options.sleep,
    now: options.now,
    random: options.random,
  })
  const {label} = options
  const origin = new URL(options.baseUrl).origin
  const get = async <T>(pathOrUrl: string, query?: Query): Promise<{body: T; where: string}> => {
    const elsewhere = linkOrigin(pathOrUrl, origin)
    if (elsewhere !== origin) {
      // a next link elsewhere would be fetched without the key, and its answer taken as the source's data
      throw new TillError(
        scrub(
          elsewhere
            ? `${label} gave a link to another site for its next page (${elsewhere}, not ${origin}): not followed`
            : `${label} gave a malformed link for its next page (${pathOrUrl.slice(0, 100)}): not followed`,
        ),
        ExitCode.unavailable,
        `nothing was written; run the migration again later, and if it happens again, tell ${label}'s support`,
      )
    }
    let answer
    try {
      // api-coverage: any path (the migration source's own API, another service than Polar's)
      answer = await client.request<T>('GET', pathOrUrl, {query, accept: options.accept})
    } catch (error) {
      throw sourceError(error, options)
    }
    // api-coverage: any path (the migration source's own API, another service than Polar's)
    const where = scrub(`GET ${pathOf(buildUrl(options.baseUrl, pathOrUrl, query).toString())}`)
    if (answer.body === null || typeof answer.body !== 'object') {
      const type = String(answer.headers['content-type'] ?? 'no content type').split(';')[0]
      const start = typeof answer.body === 'string' ? answer.body.replace(/\s+/g, ' ').trim().slice(0, 60) : String(answer.body)
      throw new TillError(
        scrub(`${label} answered ${where} with something that is not JSON (${type}: "${start}")`),
        ExitCode.unavailable,
        `the answer was cut off, or something between (a proxy, a captive portal) answered instead of ${label}; run the migration again later`,
      )
    }
    return {body: answer.body, where}
  }
  return {
    async get<T>(pathOrUrl: string, query?: Query): Promise<T> {
      return (await get<T>(pathOrUrl, query)).body
    },
    async page<T extends {data: unknown[]}>(pathOrUrl: string, query?: Query): Promise<T> {
      const {body, where} = await get<T>(pathOrUrl, query)
      const data = (body as {data?: unknown}).data
      if (!Array.isArray(data) || data.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) {
        throw new TillError(
          `${label} answered ${where} without the list it reads (a "data" list of objects)`,
          ExitCode.unavailable,
          `${label}'s API may have changed or be having trouble; run the migration again later`,
        )
      }
      return body
    },
    guard: (path) => new PageGuard(label, path, scrub),
    close: () => client.close(),
  }
}

/** Masks `key` in a text: as it is, and as a URL carries it (percent-encoded). */
function scrubber(key: string): (text: string) => string {
  const forms = [...new Set([key, encodeURIComponent(key)])].filter((k) => k.length >= 4)
  return (text) => forms.reduce((t, k) => t.split(k).join('…'), text)
}

/** A failed read in the source's words, one line, with the key masked wherever it might have been echoed. */
export function sourceError(error: unknown, options: Pick<SourceClientOptions, 'label' | 'key' | 'keyName'>): Error {
  const scrub = scrubber(options.key)
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
    if (error.status === 404) {
      return new TillError(
        `${label} has no ${where} (HTTP 404)`,
        ExitCode.notFound,
        `check ${options.keyName}: a key of the right account and environment (live or test)`,
      )
    }
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
  if (error instanceof NetworkError && error.code === DEADLINE_CODE) {
    return new TillError(
      scrub(`${label} did not answer GET ${pathOf(error.url)} in time: ${error.message}`),
      ExitCode.unavailable,
      'run the migration again later, or give each request longer with TILL_REQUEST_DEADLINE (seconds)',
    )
  }
  if (error instanceof NetworkError) {
    return new TillError(
      scrub(`could not reach ${label} (${originOf(error.url)}${pathOf(error.url)}): ${error.message}`),
      ExitCode.unavailable,
      `check the network, and that ${originOf(error.url)} can be reached from here; then run the migration again`,
    )
  }
  // a redirect not followed names its Location, which may carry the key
  if (error instanceof TillError) return new TillError(scrub(error.message), error.exitCode, error.hint === undefined ? undefined : scrub(error.hint))
  if (error instanceof Error) error.message = scrub(error.message)
  return error as Error
}

/** The origin a path or link is read from (the client's rule of what is a URL); '' for a malformed link. */
function linkOrigin(pathOrUrl: string, origin: string): string {
  try {
    return absoluteUrl(pathOrUrl)?.origin ?? origin
  } catch {
    return ''
  }
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
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
