// The emulator's request pipeline: routing (find-my-way), auth, body parsing, error bodies.
import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http'

import FindMyWay from 'find-my-way'

import {HttpError, invalidToken, methodNotAllowed, routeNotFound, unauthorized} from './errors.js'
import {KNOWN_PREFIXES} from './ids.js'
import type {EnvName} from './model.js'
import type {View} from './present.js'
import type {Store} from './store.js'
import {parseJsonBody} from './validate.js'

export interface EmulatorOptions {
  /** How long a created order stays `pending` before it counts as `paid`. */
  paymentDelayMs: number
  /** How long after POST /invoice the document exists. */
  invoiceDelayMs: number
  /** Lifetime of customer session tokens. */
  sessionTtlMs: number
  now: () => number
  /** One line per request, or nothing. */
  log: (line: string) => void
}

export type EventListener = (env: Env, type: string, data: unknown) => void

/** One environment: its store, options, public origin and event listeners. */
export interface Env {
  name: EnvName
  store: Store
  options: EmulatorOptions
  /** `http://127.0.0.1:PORT`, known once listening. */
  origin: string
  listeners: EventListener[]
}

export function emit(env: Env, type: string, data: unknown): void {
  for (const listener of env.listeners) listener(env, type, data)
}

export type Auth =
  | {kind: 'anonymous'}
  | {kind: 'organization'}
  | {kind: 'customer'; customerId: string}

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
  headers: IncomingHttpHeaders
  auth: Auth
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Non-JSON payload (documents, pages); `body` is ignored when set. */
  raw?: {contentType: string; data: Buffer | string}
}

export type Handler = (ctx: Ctx) => Reply
export type AuthMode = 'organization' | 'customer' | 'none'

interface RouteStore {
  auth: AuthMode
  handler: Handler
}

export const ok = (body: unknown, status = 200): Reply => ({status, body})
export const noContent = (): Reply => ({status: 204})

const MAX_BODY = 10 * 1024 * 1024
const VERSIONS = new Set(['2026-04', '2026-10', '2027-01'])
const DEFAULT_VERSION = '2026-04'
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])

export class Router {
  private fmw = FindMyWay({ignoreTrailingSlash: false, maxParamLength: 500})
  private methods = new Set<string>()

  /** API routes are registered relative to the version prefix: `get('/products/', ...)` is `/v1/products/`. */
  constructor(private readonly prefix = '/v1') {}

  add(method: string, path: string, auth: AuthMode, handler: Handler): this {
    return this.addAbsolute(method, `${this.prefix}${path}`, auth, handler)
  }

  /** A route outside the API prefix (documents and pages the emulator serves). */
  addAbsolute(method: string, path: string, auth: AuthMode, handler: Handler): this {
    this.fmw.on(method as FindMyWay.HTTPMethod, path, () => {}, {auth, handler} satisfies RouteStore)
    this.methods.add(method)
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

  match(method: string, path: string): {route: RouteStore; params: Record<string, string>} | {redirect: string} | {status: 404 | 405} {
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

/** Resolves the bearer token against this environment's store (api-facts §2). */
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
      return {kind: 'customer', customerId: session.customer_id}
    }
    throw invalidToken()
  }
  throw invalidToken()
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new HttpError(413, {error: 'RequestBodyTooLarge', detail: 'Request body is too large.'}))
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(env: Env, res: ServerResponse, reply: Reply, version: string): void {
  const headers: Record<string, string> = {
    'polar-version': version,
    'cache-control': 'private, no-store',
    ...(env.name === 'sandbox' ? {'x-polar-sandbox': '1'} : {}),
    ...reply.headers,
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

/** Handles one HTTP request for `env` with `router`. Never throws; unexpected failures become 500. */
export async function handle(env: Env, router: Router, req: IncomingMessage, res: ServerResponse, makeView: (env: Env, now: number) => View): Promise<number> {
  const method = (req.method ?? 'GET').toUpperCase()
  const url = new URL(req.url ?? '/', env.origin)
  let version = DEFAULT_VERSION
  let reply: Reply
  try {
    const asked = req.headers['polar-version']
    if (typeof asked === 'string') {
      if (!VERSIONS.has(asked)) throw routeNotFound()
      version = asked
    }
    if (BODY_METHODS.has(method) && req.headers['content-length'] === undefined) {
      req.resume()
      throw new HttpError(411, {error: 'LengthRequired', detail: 'A Content-Length header is required.'})
    }
    const raw = await readBody(req)
    const found = router.match(method, url.pathname)
    if ('redirect' in found) {
      reply = {status: 307, headers: {location: `${found.redirect}${url.search}`}, body: null}
    } else if ('status' in found) {
      throw found.status === 405 ? methodNotAllowed() : routeNotFound()
    } else {
      env.store.refresh()
      const now = env.options.now()
      let auth: Auth = {kind: 'anonymous'}
      if (found.route.auth !== 'none') {
        auth = resolveAuth(env, req.headers, now)
        if (auth.kind !== found.route.auth) throw unauthorized()
      }
      const body = BODY_METHODS.has(method) ? parseJsonBody(raw) : undefined
      reply = found.route.handler({
        env, store: env.store, now, view: makeView(env, now), params: found.params,
        query: url.searchParams, body, headers: req.headers, auth,
      })
    }
  } catch (error) {
    if (error instanceof HttpError) {
      reply = {status: error.status, body: error.body, headers: error.headers}
    } else {
      env.options.log(`[${env.name}] error handling ${method} ${url.pathname}: ${(error as Error).stack ?? error}`)
      reply = {status: 500, body: {error: 'InternalServerError', detail: 'Internal Server Error'}}
    }
  }
  send(env, res, reply, version)
  return reply.status
}
