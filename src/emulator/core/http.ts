// The emulator's request pipeline: routing (find-my-way), auth, body parsing, error bodies.
import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http'

import FindMyWay from 'find-my-way'

import {type BodyDigest, digestBody, readBody, requestBody} from './body.js'
import {refuseTarget, requestUrl} from './request-target.js'
import {HttpError, insufficientScope, invalidToken, methodNotAllowed, routeNotFound, ruleValidation, unauthorized} from './errors.js'
import {KNOWN_PREFIXES, type Random} from './ids.js'
import type {RateLimiter, Rule} from './limits.js'
import type {EnvData, EnvName} from './model.js'
import type {Auth, Env} from './env.js'
import type {View} from './present.js'
import {bearerKindOf} from './bearer-kinds.js'
import {acceptedScopes} from './scopes.js'
import type {Store} from './store.js'
import type {Operation} from './contract.js'
import type {ContractMode} from './contract-mode.js'
import {API_VERSIONS, type ApiVersion} from '../../client/version.js'

export {registerBearerKind, type BearerKind} from './bearer-kinds.js'
export {type Auth, type EmulatorOptions, type Env, type EventListener, emit} from './env.js'

export interface Ctx {
  env: Env
  store: Store
  now: number
  /** Presenter context for this request. */
  view: View
  params: Record<string, string>
  query: URLSearchParams
  /** Parsed JSON body, `undefined` when empty. */
  body: unknown
  /** The body's size and digests, on routes registered with `rawBody` (upload parts, never held whole). */
  rawBody?: BodyDigest
  headers: IncomingHttpHeaders
  auth: Auth
  /** Aborted when the request's client goes away before its answer is sent (a long walk of the clock stops). */
  signal?: AbortSignal
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Non-JSON payload (documents, pages); `body` is ignored when set. */
  raw?: {contentType: string; data: Buffer | string}
  /** A long-lived response (server-sent events): called with the response once the headers are sent. */
  stream?: {contentType: string; open: (res: ServerResponse) => void}
}

/** A reply, or a promise of one (a handler that waits for its write to reach the disk). */
export type Handler = (ctx: Ctx) => Reply | Promise<Reply>

/** Limits and injected faults, shared by both environments' servers. */
export interface Guards {
  limiter: RateLimiter
  /** Per organization, customer or anonymous IP; null when turned off. */
  perMinute: Record<EnvName, Rule | null>
  perIp: Rule | null
  licenseKeys: Rule
  latencyMs: number
  failRate: number
  resetRate: number
  random: Random
  /** The contract mode: the published document checks each API request and answer. */
  contract?: ContractMode
  /** The API versions served (`Polar-Version`); every version the service knows unless told fewer. */
  versions: ReadonlySet<string>
}

const UNAUTHENTICATED_LICENSE_KEY_ROUTE = /^\/v1\/customer-portal\/license-keys\/(validate|activate|deactivate)\/?$/
/**
 * The token a route takes. `user`: a user's own (the dashboard's session or a personal token), which the
 * emulator never issues: any token it knows is refused as the service refuses a subject a route does not
 * take, 401 Unauthorized (auth/dependencies.py).
 */
export type AuthMode = 'organization' | 'customer' | 'user' | 'none'

interface RouteStore {
  auth: AuthMode
  handler: Handler
  /** The body is bytes (file uploads), given as its digests in `rawBody` instead of parsed as JSON. */
  rawBody?: boolean
}

export const ok = (body: unknown, status = 200): Reply => ({status, body})
export const noContent = (): Reply => ({status: 204})

// Without Polar-Version, the service's default (2026-10 since 2026-10-01), which it always serves.
export const DEFAULT_VERSION: ApiVersion = '2026-10'
export const SERVED_VERSIONS: ReadonlySet<string> = new Set<string>(API_VERSIONS)
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])

/** One registered route, as `till`'s API coverage report reads it (`Router.table`). */
export interface RouteEntry {
  method: string
  /** The full path with find-my-way parameters, e.g. `/v1/orders/:id`. */
  path: string
  auth: AuthMode
}

/** What a request's method and path lead to: a route, a redirect to the path with(out) its trailing slash, or an error status. */
type Match = {route: RouteStore; params: Record<string, string>} | {redirect: string} | {status: 404 | 405}

export class Router {
  private fmw = FindMyWay({ignoreTrailingSlash: false, maxParamLength: 500})
  private methods = new Set<string>()
  /** Every route that answers (reserved paths excluded), in registration order. */
  readonly table: RouteEntry[] = []

  /** API routes are registered relative to the version prefix: `get('/products/', ...)` is `/v1/products/`. */
  constructor(private readonly prefix = '/v1') {}

  add(method: string, path: string, auth: AuthMode, handler: Handler): this {
    return this.addAbsolute(method, `${this.prefix}${path}`, auth, handler)
  }

  /** A route outside the API prefix (documents and pages the emulator serves). */
  addAbsolute(method: string, path: string, auth: AuthMode, handler: Handler, options: {rawBody?: boolean} = {}): this {
    this.fmw.on(method as FindMyWay.HTTPMethod, path, () => {}, {auth, handler, rawBody: options.rawBody} satisfies RouteStore)
    this.methods.add(method)
    this.table.push({method, path, auth})
    return this
  }

  get(path: string, auth: AuthMode, handler: Handler) {
    return this.add('GET', path, auth, handler)
  }

  post(path: string, auth: AuthMode, handler: Handler) {
    return this.add('POST', path, auth, handler)
  }

  patch(path: string, auth: AuthMode, handler: Handler) {
    return this.add('PATCH', path, auth, handler)
  }

  delete(path: string, auth: AuthMode, handler: Handler) {
    return this.add('DELETE', path, auth, handler)
  }

  match(method: string, path: string): Match {
    const found = this.fmw.find(method as FindMyWay.HTTPMethod, path)
    if (found) return {route: found.store as RouteStore, params: found.params as Record<string, string>}
    const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`
    if (this.fmw.find(method as FindMyWay.HTTPMethod, other)) return {redirect: other}
    for (const m of this.methods) if (m !== method && this.fmw.find(m as FindMyWay.HTTPMethod, path)) return {status: 405}
    return {status: 404}
  }
}

function bearer(headers: IncomingHttpHeaders): string | null {
  const value = headers.authorization
  if (!value) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value)
  return match ? match[1]! : null
}

/** Resolves the bearer token against this environment's store (server/polar/auth/dependencies.py). */
export function resolveAuth(env: Env, headers: IncomingHttpHeaders, now: number): Auth {
  const token = bearer(headers)
  if (token === null) return {kind: 'anonymous'}
  if (!KNOWN_PREFIXES.some((p) => token.startsWith(p))) throw invalidToken()
  const live = (expires: string | null) => expires === null || Date.parse(expires) > now
  if (token.startsWith('polar_oat_')) {
    const record = env.store.data.tokens.find((t) => t.token === token)
    if (record && live(record.expires_at)) return {kind: 'organization'}
    throw invalidToken()
  }
  if (token.startsWith('polar_cst_')) {
    const session = env.store.all('customer_sessions').find((s) => s.token === token)
    const customer = session && env.store.get('customers', session.customer_id)
    if (session && live(session.expires_at) && customer && customer.deleted_at === null) {
      const member = session.member_id ? env.store.get('members', session.member_id) : undefined // a member session ends with its member
      if (!session.member_id || member?.deleted_at === null) return {kind: 'customer', customerId: session.customer_id, memberId: member?.id}
    }
    throw invalidToken()
  }
  const resolved = bearerKindOf(token)?.resolve(env, token, now)
  if (resolved) return resolved
  throw invalidToken()
}

function send(env: Env, res: ServerResponse, reply: Reply, version: string): void {
  if (reply.status === 429 && reply.body === undefined) {
    // A rate limit refuses before the cache and sandbox middlewares: Polar-Version only, empty body
    // (server/polar/rate_limit.py). A route's own 429 (ManualRetryLimitExceeded) has the service's error body.
    res.writeHead(429, {'polar-version': version, ...reply.headers, 'content-length': '0'})
    res.end()
    return
  }
  const headers: Record<string, string> = {
    'polar-version': version,
    'cache-control': 'private, no-store',
    ...(env.name === 'sandbox' ? {'x-polar-sandbox': '1'} : {}),
    ...reply.headers,
  }
  if (reply.stream) {
    res.writeHead(reply.status, {...headers, 'content-type': reply.stream.contentType, connection: 'keep-alive', 'x-accel-buffering': 'no'})
    res.flushHeaders()
    reply.stream.open(res)
    return
  }
  if (reply.raw) {
    const data = typeof reply.raw.data === 'string' ? Buffer.from(reply.raw.data) : reply.raw.data
    res.writeHead(reply.status, {...headers, 'content-type': reply.raw.contentType, 'content-length': String(data.length)})
    res.end(data)
    return
  }
  if (reply.status === 204 || reply.status === 304) {
    res.writeHead(reply.status, headers)
    res.end()
    return
  }
  const data = Buffer.from(JSON.stringify(reply.body === undefined ? null : reply.body))
  res.writeHead(reply.status, {...headers, 'content-type': 'application/json', 'content-length': String(data.length)})
  res.end(data)
}

/** Who a request counts against: the organization, the customer, or the client's IP address. */
function identity(env: Env, headers: IncomingHttpHeaders, ip: string): string {
  const token = bearer(headers)
  if (token?.startsWith('polar_oat_') && env.store.data.tokens.some((t) => t.token === token)) return 'org'
  if (token?.startsWith('polar_cst_')) {
    const session = env.store.all('customer_sessions').find((s) => s.token === token)
    if (session) return `customer:${session.customer_id}`
  }
  const other = token ? bearerKindOf(token)?.identity?.(env, token) : undefined
  return other ?? `ip:${ip}`
}

/** 429 with an empty body and Retry-After, or null when every limit allows the request. */
function rateLimit(env: Env, guards: Guards, req: IncomingMessage, path: string): Reply | null {
  const ip = req.socket.remoteAddress ?? 'unknown'
  const checks: Array<[string, Rule]> = guards.perIp ? [[`${env.name}:ip:${ip}`, guards.perIp]] : []
  if (UNAUTHENTICATED_LICENSE_KEY_ROUTE.test(path)) checks.push([`${env.name}:license-keys:${ip}`, guards.licenseKeys])
  const perMinute = guards.perMinute[env.name]
  if (perMinute) checks.push([`${env.name}:${identity(env, req.headers, ip)}`, perMinute])
  const wait = guards.limiter.take(checks)
  return wait > 0 ? {status: 429, headers: {'retry-after': String(wait)}} : null
}

const FAULT_STATUSES = [500, 502, 503] as const

/** Handles one HTTP request for `env` with `router`. Never throws; unexpected failures become 500. */
export async function handle(
  env: Env,
  router: Router,
  req: IncomingMessage,
  res: ServerResponse,
  makeView: (env: Env, now: number) => View,
  guards: Guards,
): Promise<number> {
  const method = (req.method ?? 'GET').toUpperCase()
  const url = requestUrl(req.url, env.origin)
  if (!url) return refuseTarget(req, res)
  // Draw both fault decisions for every request, so a seed gives the same run whatever happens.
  const fail = guards.random() < guards.failRate
  const failStatus = FAULT_STATUSES[Math.floor(guards.random() * FAULT_STATUSES.length)]!
  const reset = guards.random() < guards.resetRate
  const gone = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) gone.abort()
  })
  let version: ApiVersion = DEFAULT_VERSION
  let reply: Reply
  // the operation the request was checked as, for checking its answer
  const checked: {operation?: Operation} = {}
  // APIVersionMiddleware (server/polar/kit/versioning.py): an empty header is no header; a version it does
  // not serve, malformed or unknown or removed, is refused before routing, with no Polar-Version echo.
  const asked = req.headers['polar-version']
  if (typeof asked === 'string' && asked !== '') {
    if (!guards.versions.has(asked)) return refuseVersion(req, res)
    version = asked as ApiVersion
  }
  try {
    if (BODY_METHODS.has(method) && req.headers['content-length'] === undefined) {
      req.resume()
      throw new HttpError(411, {error: 'LengthRequired', detail: 'A Content-Length header is required.'})
    }
    // found before the body is read: an upload part's body is digested as it arrives, not held
    const found = router.match(method, url.pathname)
    const raw = 'route' in found && found.route.rawBody ? await digestBody(req) : await readBody(req)
    env.store.refresh()
    const limited = fail ? null : rateLimit(env, guards, req, url.pathname)
    if (fail) {
      reply = {status: failStatus, body: {detail: failStatus === 500 ? 'Internal Server Error' : failStatus === 502 ? 'Bad Gateway' : 'Service Unavailable'}}
    } else if (limited) {
      reply = limited
    } else {
      const view = (e: Env, now: number) => ({...makeView(e, now), version})
      reply = await route(env, found, method, url, raw, req.headers, view, guards.contract, checked, gone.signal)
    }
  } catch (error) {
    reply = errorReply(env, error, method, url)
  }
  if (checked.operation) guards.contract?.answer(checked.operation, reply)
  if (guards.latencyMs > 0) await new Promise((r) => setTimeout(r, guards.latencyMs))
  if (reset && !fail && !reply.stream) {
    try {
      dropMidResponse(res, reply)
    } catch {
      res.socket?.destroy()
    }
    return 0
  }
  try {
    send(env, res, reply, version)
  } catch (error) {
    // Nothing in sending an answer may escape the request: a 500 if nothing was sent yet, else a cut.
    env.options.log(`[${env.name}] error sending the answer to ${method} ${url.pathname}: ${(error as Error).message}`)
    if (res.headersSent) res.socket?.destroy()
    else send(env, res, {status: 500, body: {error: 'InternalServerError', detail: 'Internal Server Error'}}, version)
    return 500
  }
  return reply.status
}

/** The service's refusal of an API version: its bare JSONResponse, 404 `{"detail":"Not Found"}`, and nothing else. */
function refuseVersion(req: IncomingMessage, res: ServerResponse): number {
  req.resume()
  const data = Buffer.from(JSON.stringify({detail: 'Not Found'}))
  res.writeHead(404, {'content-type': 'application/json', 'content-length': String(data.length)})
  res.end(data)
  return 404
}

function route(
  env: Env,
  found: Match,
  method: string,
  url: URL,
  raw: Buffer | BodyDigest,
  headers: IncomingHttpHeaders,
  makeView: (env: Env, now: number) => View,
  contract: Guards['contract'],
  checked: {operation?: Operation},
  signal: AbortSignal,
): Reply | Promise<Reply> {
  if ('redirect' in found) return {status: 307, headers: {location: `${found.redirect}${url.search}`}, body: null}
  if ('status' in found) throw found.status === 405 ? methodNotAllowed() : routeNotFound()
  const now = env.now()
  let auth: Auth = {kind: 'anonymous'}
  if (found.route.auth !== 'none') {
    auth = resolveAuth(env, headers, now)
    if (auth.kind !== found.route.auth) throw unauthorized()
    const granted = auth.kind === 'organization' ? auth.scopes : undefined
    const accepted = granted ? acceptedScopes(method, url.pathname) : undefined
    if (granted && accepted && !accepted.some((s) => granted.includes(s))) throw insufficientScope(accepted)
  }
  const body = BODY_METHODS.has(method) && Buffer.isBuffer(raw) ? requestBody(raw.toString('utf8'), headers['content-type']) : undefined
  const rawBody = Buffer.isBuffer(raw) ? undefined : raw
  const ctx: Ctx = {env, store: env.store, now, view: makeView(env, now), params: found.params, query: url.searchParams, body, rawBody, headers, auth, signal}
  if (!contract || !url.pathname.startsWith('/v1/')) return found.route.handler(ctx)
  const {operation, refusal} = contract.request(method, url, headers, body)
  checked.operation = operation
  return refusal ? contract.refuse(refusal, () => found.route.handler(ctx)) : found.route.handler(ctx)
}

function errorReply(env: Env, error: unknown, method: string, url: URL): Reply {
  if (error instanceof HttpError) return {status: error.status, body: error.body, headers: error.headers}
  env.options.log(`[${env.name}] error handling ${method} ${url.pathname}: ${(error as Error).stack ?? error}`)
  return {status: 500, body: {error: 'InternalServerError', detail: 'Internal Server Error'}}
}

/** Sends the headers and part of the body, then cuts the connection (a reset after the state change). */
function dropMidResponse(res: ServerResponse, reply: Reply): void {
  const data = Buffer.from(JSON.stringify(reply.body ?? null))
  res.writeHead(reply.status, {'content-type': 'application/json', 'content-length': String(data.length + 64)})
  res.write(data.subarray(0, Math.floor(data.length / 2)))
  setImmediate(() => res.socket?.destroy())
}

/** An `organization_id` in a body must be this environment's own organization. */
export function checkOrganization(ctx: Ctx, organizationId: string | null | undefined): void {
  if (organizationId && organizationId !== ctx.store.data.organization.id) {
    throw ruleValidation(['body', 'organization_id'], 'Organization not found.', organizationId)
  }
}

/** What one resource module (`resources/<resource>/index.ts`) gives the emulator; see resources/index.ts. */
export interface Resource {
  /** Adds the resource's routes. */
  register(router: Router): void
  /** The resource's collections, empty: for new stores and for stores saved before the resource existed. */
  collections?(): Partial<EnvData>
  /** Raises the events of timed changes that have fallen due (called about every 100 ms). */
  settle?(env: Env): void
}
