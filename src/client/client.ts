// The HTTP client: the only code that imports undici. Base URL, bearer auth, user agent, timeouts,
// a keep-alive pool, pacing within the rate budget, Retry-After waits, safe retries and typed errors.
import {Agent, request} from 'undici'

import {redact} from './redact.js'
import {ApiError, errorCode, isNamedError, NetworkError, RateLimitedError} from './errors.js'
import type {TokenProvider} from './oauth.js'
import {absoluteUrl, mayCarryCredentials} from './origin.js'
import type {Budget, Held, Pacer} from './pace.js'
import {MAX_TIMER_MS} from './timer.js'
import {backoffMs, DEADLINE_CODE, describeNetworkError, MAX_ATTEMPTS, neverSent, retryAfterMs} from './retry.js'
import {IDEMPOTENT, settleLost, settlementOf} from './settlement.js'
import {currentAttempt, markAlreadyDone} from './attempt.js'
import {Deadline, type Try} from './deadline.js'
import {MAX_REDIRECTS, parseBody, REDIRECTS, RedirectError, redirectTarget, refusedVersion, VersionNotServedError, type VersionPin} from './answers.js'
import {API_VERSION} from './version.js'

export type QueryValue = string | number | boolean | undefined | null | Array<string | number | boolean>
export type Query = Record<string, QueryValue>

export interface RequestOptions {
  query?: Query
  body?: unknown
  /** A form body (`application/x-www-form-urlencoded`), as the OAuth2 endpoints take; instead of `body`. */
  form?: Record<string, string>
  /** The media type to ask for (`Accept`); `application/json` unless said (the CSV exports answer only `text/csv`). */
  accept?: string
  /** `none` for the unauthenticated routes (no Authorization header, their own budget). */
  auth?: 'token' | 'none'
  /** Extra budgets for this route (the 3/s license-key routes). */
  budgets?: Budget[]
  signal?: AbortSignal
  /** Gives the request up unsent (NotSentError) while it waits for its rate budget; once sent it runs to its answer. */
  unsent?: AbortSignal
  /** The body already serialized as JSON (large bulk bodies built from pre-serialized parts); replaces `body`. */
  json?: string
  /** A write the service deduplicates (events that all carry an `external_id`): safe to send again after a 5xx or a dropped connection. */
  replayable?: boolean
  /** This request's deadline (from sending it to its answer's last byte, every try together), for the client's own. */
  deadlineMs?: number
  /** The caller's own headers (`till api -H`), names in lower case; never Authorization, which the client alone sets. */
  headers?: Record<string, string>
}

export interface ClientOptions {
  baseUrl: string
  token?: string
  /**
   * Supplies the token instead of `token` (an OAuth sign-in): asked before each request, and once more
   * after a 401, when it may renew the token. Its token goes only where `token` would.
   */
  credentials?: TokenProvider
  userAgent: string
  /** Rate budgets every request must fit (per-minute and per-IP). */
  budgets: Budget[]
  pacer: Pacer
  /** Longest total time to wait on 429s before giving up (exit 5). */
  maxWaitMs: number
  /** Sent as `Polar-Version` on every request: API_VERSION (the service's current) unless told another; null: none. */
  apiVersion?: string | null
  /** Who pins `apiVersion` and how to move it, for the error when the service does not serve it. */
  versionPin?: VersionPin
  /** Label for debug lines: `profile (environment)`. */
  label: string
  /** One line per request/response/wait, already redacted; only with --debug. */
  debug?: (line: string) => void
  /** Shows a rate-limit wait to the user (stderr); `own`: this process was refused, not another one. */
  onRateLimitWait?: (seconds: number, own: boolean) => Promise<void> | void
  connectTimeoutMs?: number
  responseTimeoutMs?: number
  /**
   * Longest time a request may take, from sending it to the last byte of its answer, its tries and the
   * pauses between them together (./deadline.ts; a server that trickles a byte every few seconds never
   * trips undici's timeouts, which measure the gaps); 60 s unless said. A try past it is given up as a
   * network error, a write settled as one whose answer was lost, and no other try is made.
   */
  deadlineMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  random?: () => number
}

export interface Response<T> {
  status: number
  body: T
  headers: Record<string, string | string[] | undefined>
}

const sleepReal = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** The deadline of a request unless the client is told another (TILL_REQUEST_DEADLINE in the CLI). */
export const DEFAULT_DEADLINE_MS = 60_000

/** The URL of a request: `path` under the base URL, or the absolute URL it is (origin.ts's one rule). */
export function buildUrl(baseUrl: string, path: string, query?: Query): URL {
  const url = absoluteUrl(path) ?? new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`))
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v))
  }
  return url
}

export {RedirectError} from './answers.js'

export class ApiClient {
  private readonly agent: Agent
  private readonly sleep: (ms: number) => Promise<void>
  private readonly now: () => number
  private readonly random: () => number
  /** The latest 429 deadline shown to the user. */
  private shownHold = 0

  constructor(readonly options: ClientOptions) {
    this.agent = new Agent({
      connect: {timeout: options.connectTimeoutMs ?? 10_000},
      headersTimeout: options.responseTimeoutMs ?? 30_000,
      bodyTimeout: options.responseTimeoutMs ?? 30_000,
      keepAliveTimeout: 4_000,
      connections: 16,
      // Node's default for its own HTTP parser, set here: undici would otherwise read it from node:http,
      // which a command then loads (with eight more Node modules) for that one number
      maxHeaderSize: 16 * 1024,
    })
    this.sleep = options.sleep ?? sleepReal
    this.now = options.now ?? Date.now
    this.random = options.random ?? Math.random
  }

  get baseUrl(): string {
    return this.options.baseUrl
  }

  /** The token requests carry now (a browser sign-in's is renewed first when it is about to expire). */
  async bearerToken(): Promise<string | undefined> {
    return this.options.credentials ? this.options.credentials.current() : this.options.token
  }

  async get<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('GET', path, opts)).body
  }

  async post<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('POST', path, {...opts, body})).body
  }

  async patch<T>(path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('PATCH', path, {...opts, body})).body
  }

  async delete<T>(path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('DELETE', path, opts)).body
  }

  private debug(line: string): void {
    this.options.debug?.(redact(line))
  }

  /**
   * Sends one request, paced within the budget. Waits out 429s (up to maxWaitMs in total), retries GETs
   * on 5xx and network errors, and re-sends a write only when it cannot have reached the server.
   */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    let url = buildUrl(this.options.baseUrl, path, opts.query)
    const headers: Record<string, string> = {'user-agent': this.options.userAgent, accept: opts.accept ?? 'application/json'}
    Object.assign(headers, opts.headers)
    const provider = opts.auth === 'none' ? undefined : this.options.credentials
    let bearer = provider && mayCarryCredentials(url, this.options.baseUrl) ? await provider.current() : this.options.token
    let renewed = false
    const authorize = () => {
      if (opts.auth !== 'none' && bearer && mayCarryCredentials(url, this.options.baseUrl)) headers.authorization = `Bearer ${bearer}`
      else delete headers.authorization
    }
    authorize()
    let redirects = 0
    const version = this.options.apiVersion === undefined ? API_VERSION : this.options.apiVersion
    if (version) headers['polar-version'] = version
    const payload = opts.form ? new URLSearchParams(opts.form).toString() : (opts.json ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)))
    if (opts.form) headers['content-type'] = 'application/x-www-form-urlencoded'
    else if (payload !== undefined) headers['content-type'] = 'application/json'
    const budgets = [...this.options.budgets, ...(opts.budgets ?? [])]
    let waited = 0
    let refusals = 0
    // a write whose answer is lost is sent again only as its operation declares (src/client/settlement.ts)
    const settlement = opts.replayable ? IDEMPOTENT : settlementOf(method, path)
    let lost = false
    // lost only by an earlier run of a resumed job (nothing lost in this one): what settles it was done then
    let lostEarlier = false
    const afterLoss = async (reason: string) => {
      const next = await settleLost(settlement, this, opts.body, {method, url: url.toString(), reason})
      if ('found' in next) this.debug(`  the lost ${method} was done: a lookup found what it made`)
      if ('found' in next && lostEarlier) markAlreadyDone('done by an earlier run (found by a lookup)')
      lost = true
      return next
    }
    // A write of an input that a stopped run may have sent is settled as one whose answer was lost.
    if (method !== 'GET' && method !== 'HEAD' && currentAttempt()?.earlier) {
      lostEarlier = true
      const next = await afterLoss('an earlier run of this job stopped before its answer was recorded')
      if ('found' in next) return {status: 200, body: next.found as T, headers: {}}
    }
    // Every 429 wait, this process's own or one another process of the profile was told about, counts
    // against --max-wait, and is shown before it starts.
    // Requests of this process waiting on one deadline show it once.
    const holdGate = async ({ms, until, own}: Held) => {
      if (waited + ms > this.options.maxWaitMs) throw new RateLimitedError(Math.ceil(ms / 1000), waited)
      waited += ms
      if (until <= this.shownHold) return
      this.shownHold = until
      this.debug(`  rate limited: waiting ${ms}ms (${own ? 'Retry-After' : 'Retry-After told to another process of this profile'})`)
      await this.options.onRateLimitWait?.(Math.ceil(ms / 1000), own)
    }
    // a deadline past what a timer holds (about 24.8 days) would end each attempt at once: as good as none
    const deadlineMs = Math.min(opts.deadlineMs ?? this.options.deadlineMs ?? DEFAULT_DEADLINE_MS, MAX_TIMER_MS)
    const deadline = new Deadline(deadlineMs)
    // a deadline of the request's own also lifts the agent's wait for the answer's first and next bytes
    const waits = opts.deadlineMs === undefined ? {} : {headersTimeout: deadlineMs, bodyTimeout: deadlineMs}
    for (let attempt = 1; ; attempt++) {
      const ticket = await this.options.pacer.acquire(budgets, holdGate, opts.unsent)
      const started = this.now()
      this.debug(`→ ${method} ${url} [${this.options.label}${version ? `, Polar-Version ${version}` : ''}]${attempt > 1 ? ` attempt ${attempt}` : ''}`)
      let status: number
      let responseHeaders: Record<string, string | string[] | undefined>
      let text: string
      // what is left of the request's deadline, to the last byte of this try's answer
      const late = deadline.start()
      try {
        const signal = opts.signal ? AbortSignal.any([opts.signal, late.signal]) : late.signal
        const res = await request(url, {method: method as 'GET', headers, body: payload, dispatcher: this.agent, signal, ...waits})
        status = res.statusCode
        responseHeaders = res.headers
        text = await res.body.text()
      } catch (error) {
        await this.options.pacer.settle(ticket)
        late.end()
        const pastDeadline = late.late && !opts.signal?.aborted
        const code = pastDeadline ? DEADLINE_CODE : ((error as {code?: string}).code ?? (error as {cause?: {code?: string}}).cause?.code)
        if (!pastDeadline && (error as Error).name === 'AbortError') throw error
        this.debug(`← ${method} ${url} failed after ${this.now() - started}ms: ${code ?? (error as Error).message}`)
        if (attempt < MAX_ATTEMPTS && !neverSent(code)) {
          lostEarlier = false
          const next = await afterLoss(code === undefined ? 'the connection failed' : `connection error ${code}`)
          if ('found' in next) return {status: 200, body: next.found as T, headers: {}}
        }
        const again = attempt < MAX_ATTEMPTS && !pastDeadline
        const delay = again ? backoffMs(attempt, this.random) : 0
        if (again && deadline.allows(delay)) {
          this.debug(`  retrying in ${delay}ms (${code ?? 'network error'})`)
          await this.sleep(delay)
          continue
        }
        throw new NetworkError(describeNetworkError(code, error as Error, method, deadlineMs), code, url.toString())
      } finally {
        late.end()
      }
      await this.options.pacer.settle(ticket)
      this.debug(`← ${status} ${method} ${url} in ${this.now() - started}ms`)
      if (REDIRECTS.has(status)) {
        const target = redirectTarget(url, responseHeaders.location)
        // A GET follows a redirect on the same origin; anything else stops, and a body is never re-sent.
        if (method === 'GET' && target && target.origin === url.origin && redirects < MAX_REDIRECTS) {
          redirects++
          this.debug(`  following redirect to ${target}`)
          url = target
          authorize()
          attempt = 0
          continue
        }
        throw new RedirectError(status, method, url.toString(), target?.toString() ?? String(responseHeaders.location ?? ''))
      }
      // A 429 is a rate limit to wait out (another service's too), unless it is a named error: an answer.
      if (status === 429 && !isNamedError(text)) {
        refusals++
        // The deadline goes to the pace state, shared with the other processes of the profile; the
        // next acquire waits it out (or gives up past --max-wait) like theirs do.
        const now = this.now()
        await this.options.pacer.hold(budgets, now + retryAfterMs(responseHeaders['retry-after'], now, refusals))
        continue
      }
      // A refused token is renewed once (an OAuth access token that expired early or was rotated); the
      // service refused the request before doing anything, so sending it again cannot repeat a write.
      if (status === 401 && provider && bearer && headers.authorization && !renewed) {
        renewed = true
        const next = await provider.renew(bearer)
        if (next && next !== bearer) {
          this.debug('  the access token was refused; renewed it, sending again')
          bearer = next
          authorize()
          attempt = 0
          continue
        }
      }
      const body = parseBody(text, responseHeaders['content-type'])
      if (lost && settlement.kind === 'idempotent' && settlement.done?.(status, errorCode(body))) {
        this.debug(`  HTTP ${status} to the second ${method}: the first one was done`)
        if (lostEarlier) markAlreadyDone('done by an earlier run')
        return {status: 200, body: null as T, headers: responseHeaders}
      }
      if (attempt < MAX_ATTEMPTS && status >= 500) {
        lostEarlier = false
        const next = await afterLoss(`HTTP ${status}`)
        if ('found' in next) return {status: 200, body: next.found as T, headers: responseHeaders}
        const delay = backoffMs(attempt, this.random)
        if (deadline.allows(delay)) {
          this.debug(`  retrying in ${delay}ms (HTTP ${status})`)
          await this.sleep(delay)
          continue
        }
      }
      const echoed = responseHeaders['polar-version']
      const pin = this.options.versionPin
      if (status === 404 && version && refusedVersion(echoed, body)) throw new VersionNotServedError(version, pin)
      if (status >= 400) throw new ApiError(status, body, method, url.toString(), responseHeaders['www-authenticate'])
      return {status, body: body as T, headers: responseHeaders}
    }
  }

  /** Downloads `url` (a document link) to a buffer, with the same retries as a GET. */
  async download(link: string): Promise<Buffer> {
    // A document link is handed out by the API and may point anywhere: it is fetched without credentials.
    let url = link
    let redirects = 0
    const deadline = new Deadline(this.options.deadlineMs ?? DEFAULT_DEADLINE_MS)
    for (let attempt = 1; ; attempt++) {
      const late = deadline.start()
      try {
        const res = await request(url, {method: 'GET', dispatcher: this.agent, headers: {'user-agent': this.options.userAgent}, signal: late.signal})
        const data = Buffer.from(await res.body.arrayBuffer())
        if (REDIRECTS.has(res.statusCode)) {
          const target = redirectTarget(new URL(url), res.headers.location)
          if (!target || redirects >= MAX_REDIRECTS) throw new RedirectError(res.statusCode, 'GET', url, String(res.headers.location ?? ''))
          redirects++
          url = target.toString()
          attempt = 0
          continue
        }
        if (res.statusCode >= 500 && attempt < MAX_ATTEMPTS) continue
        if (res.statusCode >= 400) throw new ApiError(res.statusCode, data.toString('utf8').slice(0, 300), 'GET', url)
        return data
      } catch (error) {
        if (error instanceof ApiError || error instanceof RedirectError) throw error
        const {code, delay} = this.lostTry(late, deadline, attempt, error)
        if (delay === undefined) throw new NetworkError(describeNetworkError(code, error as Error, 'GET', deadline.ms), code, url)
        await this.sleep(delay)
      } finally {
        late.end()
      }
    }
  }

  /**
   * PUTs `data` to a presigned storage URL the API handed out (a file part): a plain request, without the
   * token. Returns the response headers (ETag, checksum). Retried on 5xx and network errors: the same
   * bytes to the same part URL replace each other.
   */
  async uploadPart(url: string, data: Buffer, headers: Record<string, string> = {}): Promise<Record<string, string | string[] | undefined>> {
    const deadline = new Deadline(this.options.deadlineMs ?? DEFAULT_DEADLINE_MS)
    for (let attempt = 1; ; attempt++) {
      const late = deadline.start()
      try {
        const res = await request(url, {
          method: 'PUT',
          signal: late.signal,
          dispatcher: this.agent,
          headers: {'user-agent': this.options.userAgent, 'content-type': 'application/octet-stream', ...headers},
          body: data,
        })
        const text = await res.body.text()
        if (res.statusCode >= 500 && attempt < MAX_ATTEMPTS) {
          await this.sleep(backoffMs(attempt, this.random))
          continue
        }
        if (res.statusCode >= 400) throw new ApiError(res.statusCode, parseBody(text, res.headers['content-type']), 'PUT', url.replace(/\?.*$/, ''))
        return res.headers
      } catch (error) {
        if (error instanceof ApiError) throw error
        const {code, delay} = this.lostTry(late, deadline, attempt, error)
        if (delay === undefined) throw new NetworkError(describeNetworkError(code, error as Error, 'GET', deadline.ms), code, url.replace(/\?.*$/, ''))
        await this.sleep(delay)
      } finally {
        late.end()
      }
    }
  }

  /** A try of a download or an upload that failed: its error code, and the pause before the next try, if any. */
  private lostTry(late: Try, deadline: Deadline, attempt: number, error: unknown): {code?: string; delay?: number} {
    late.end()
    const code = late.late ? DEADLINE_CODE : (error as {code?: string}).code
    const delay = attempt < MAX_ATTEMPTS && !late.late ? backoffMs(attempt, this.random) : undefined
    return {code, delay: delay !== undefined && deadline.allows(delay) ? delay : undefined}
  }

  async close(): Promise<void> {
    await this.agent.close()
  }
}
