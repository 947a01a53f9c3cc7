// Errors of the client layer and the one mapping from them to till's exit codes and messages.
import {knownServiceError} from './service-errors.js'
import {ExitCode, TillError} from './till-error.js'

export interface ValidationDetail {
  loc?: Array<string | number>
  msg?: string
  type?: string
}

/** The error name of a service answer (`{"error": "InvoiceAlreadyExists", ...}`), if it has one. */
export function errorCode(body: unknown): string | undefined {
  const b = body as {error?: unknown} | null
  return b && typeof b === 'object' && typeof b.error === 'string' ? b.error : undefined
}

/** Whether a body (as text) is one of the service's named errors: `{"error": "Name", "detail": "..."}`. */
export function isNamedError(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false
  try {
    const body = JSON.parse(text) as {detail?: unknown}
    return errorCode(body) !== undefined && typeof body.detail === 'string'
  } catch {
    return false
  }
}

/** The API answered with an error status; `body` is its parsed JSON (or text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly method: string,
    readonly url: string,
    /** The `WWW-Authenticate` header of a 401 or 403 (it names the scopes a 403 insufficient_scope needed). */
    readonly challenge?: string | string[],
  ) {
    super(apiMessage(status, body))
    this.name = 'ApiError'
  }

  /** The service's error name (`ResourceNotFound`, `invalid_token`, ...), when it gave one. */
  get code(): string | undefined {
    return errorCode(this.body)
  }

  /** The 422 `detail` list, when there is one. */
  get details(): ValidationDetail[] {
    const d = (this.body as {detail?: unknown} | null)?.detail
    return Array.isArray(d) ? (d as ValidationDetail[]) : []
  }
}

/** The request could not be completed: connection refused or dropped, timeout. */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly url: string,
  ) {
    super(message)
    this.name = 'NetworkError'
  }
}

/**
 * A write was sent and its answer lost (a dropped connection, a timeout, a 5xx), and neither sending it
 * again nor a lookup can settle whether it was done (src/client/settlement.ts).
 */
export class OutcomeUnknownError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    /** What happened to the answer: `connection reset`, `HTTP 502`. */
    readonly reason: string,
    /** The till command that shows whether it was done. */
    readonly truth: string,
  ) {
    super(`the answer to ${method} ${url.replace(/\?.*$/, '')} was lost (${reason}): it may or may not have been done, so it was not sent again`)
    this.name = 'OutcomeUnknownError'
  }
}

/** Still rate limited after waiting as long as --max-wait allows. */
export class RateLimitedError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly waitedMs: number,
  ) {
    super(`the API is still rate limiting after waiting ${Math.round(waitedMs / 1000)}s (it asks for ${retryAfterSeconds}s more)`)
    this.name = 'RateLimitedError'
  }
}

function apiMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as {error?: unknown; detail?: unknown; error_description?: unknown}
    if (typeof b.detail === 'string') return b.detail
    if (typeof b.error_description === 'string') return b.error_description
    if (Array.isArray(b.detail)) return 'the request was rejected as invalid'
  }
  if (typeof body === 'string' && body.trim() !== '' && body.length < 200) return body.trim()
  return `HTTP ${status}`
}

function unauthenticated(error: ApiError, ctx: ErrorContext, where: string): TillError {
  if (ctx.surface !== 'portal' && ctx.tokenKind === 'customer') {
    return new TillError(
      'this is a customer access token: it belongs to the Customer Portal API (till portal ...), not to the Core API',
      ExitCode.auth,
      'Core commands need an organization access token: unset TILL_TOKEN or sign in with: till auth login',
    )
  }
  if (ctx.surface === 'portal' && error.code === 'invalid_token') {
    return new TillError(
      'the customer access token is expired or invalid (customer sessions last one hour)',
      ExitCode.auth,
      'create a new one with: till sessions create --customer-id ID --token-only, or let till do it with --as-customer EXTERNAL_ID',
    )
  }
  if (ctx.emulatorData) return otherEmulatorData(ctx.baseUrl, ctx.emulatorData, 'does not take the token of')
  if (ctx.otherEnvironment) {
    const other = ctx.otherEnvironment
    return new TillError(
      `not authenticated: this token is the one of profile "${other.profile}" (${other.environment}), but it was sent to ${ctx.environment} (${ctx.baseUrl}); a token of one environment is not valid in the other`,
      ExitCode.auth,
      `use --profile ${other.profile}, or store a ${ctx.environment} token with: till auth login`,
    )
  }
  const why = error.code === 'invalid_token' ? 'the token is invalid, expired or revoked' : 'this token is not accepted on this route'
  if (ctx.tokenVariable) {
    // signing in cannot help while the variable overrides the profile's token
    return new TillError(
      `not authenticated: ${why} (the token in ${ctx.tokenVariable})`,
      ExitCode.auth,
      `${ctx.tokenVariable} overrides the profile's token: set it to a valid organization token, or unset it to use ${where}`,
    )
  }
  return new TillError(`not authenticated: ${why}`, ExitCode.auth, `used ${where}; store a valid organization token with: till auth login (or set TILL_TOKEN)`)
}

/**
 * The local profile's emulator answers, but not with the store of the default data folder (whose token the
 * profile uses): it was started with `--data` elsewhere. Signing in is not the fix.
 */
export function otherEmulatorData(baseUrl: string, folder: string, relation: string): TillError {
  return new TillError(
    `the emulator at ${baseUrl} ${relation} the default data folder (${folder}): it was started with another data folder (--data)`,
    ExitCode.auth,
    'use the token it printed when it started (TILL_TOKEN=... till ...), or keep it as a profile with the "till profiles add" line it printed; or stop it and start it again without --data',
  )
}

/** The scopes a 403 names (`WWW-Authenticate: Bearer ..., error="insufficient_scope", scope="a b"`). */
function neededScopes(error: ApiError): string[] {
  const header = Array.isArray(error.challenge) ? error.challenge.join(', ') : (error.challenge ?? '')
  return /\bscope="([^"]*)"/.exec(header)?.[1]?.split(/\s+/).filter(Boolean) ?? []
}

/** A token without the scope a route needs: name the scope, and how to get a token that has it. */
function insufficientScope(error: ApiError, ctx: ErrorContext, where: string): TillError {
  const scopes = neededScopes(error)
  const lacks = scopes.length > 0 ? `this token lacks the scope ${scopes.join(' or ')}` : 'this token lacks a scope this request needs'
  if (ctx.tokenKind === 'oauth') {
    return new TillError(
      `${lacks}; sign in again to grant it: till auth login -p ${ctx.profile} --web`,
      ExitCode.auth,
      ctx.signingIn
        ? `nothing was saved: grant every scope the sign-in page asks for; used ${where}`
        : `till auth status -p ${ctx.profile} lists the scopes this sign-in lacks; used ${where}`,
    )
  }
  if (ctx.tokenKind === 'organization') {
    return new TillError(
      `${lacks}; create an organization access token with that scope in the organization's settings instead`,
      ExitCode.auth,
      `then store it: till auth login -p ${ctx.profile} --token-stdin; used ${where}`,
    )
  }
  return new TillError(`${lacks}; use a token that has it`, ExitCode.auth, `used ${where}`)
}

const formatLoc = (loc: Array<string | number> | undefined) => (loc && loc.length > 0 ? loc.join('.') : 'request')

/** Facts the messages need about where the request went. */
export interface ErrorContext {
  profile: string
  environment: string
  baseUrl: string
  /** The kind of token the request used, to explain 401s (a customer token on a Core route, ...) and 403s. */
  tokenKind?: 'organization' | 'oauth' | 'customer' | 'other'
  /** Which API surface the command talks to. */
  surface?: 'core' | 'portal'
  /** Set when the token is stored in a profile of another environment. */
  otherEnvironment?: {profile: string; environment: string}
  /** The token came from this environment variable (TILL_TOKEN), not from the profile. */
  tokenVariable?: string
  /** The local profile's token came from the emulator's default data folder, this one. */
  emulatorData?: string
  /** The request checked the tokens of a sign-in not yet saved (`profile` is the one it signs in to). */
  signingIn?: boolean
}

/** The kind of a token, from its prefix (server/polar/auth/dependencies.py). */
export function tokenKind(token: string | undefined): ErrorContext['tokenKind'] {
  if (!token) return undefined
  if (token.startsWith('polar_oat_')) return 'organization'
  if (token.startsWith('polar_at_')) return 'oauth'
  if (token.startsWith('polar_cst_') || token.startsWith('polar_mst_')) return 'customer'
  return 'other'
}

/** The URL of a request to another origin than the API's (without its query), or undefined. */
function requestedElsewhere(url: string, baseUrl: string): string | undefined {
  try {
    const target = new URL(url)
    if (target.origin === new URL(baseUrl).origin) return undefined
    return `${target.origin}${target.pathname}`
  } catch {
    return undefined
  }
}

/** The one place where client errors become a message, a hint and an exit code. */
export function toTillError(error: unknown, ctx: ErrorContext): TillError {
  if (error instanceof TillError) return error
  const where = `profile "${ctx.profile}" (${ctx.environment}, ${ctx.baseUrl})`
  if (error instanceof RateLimitedError) {
    return new TillError(error.message, ExitCode.rateLimited, 'raise --max-wait, or slow down (a negotiated limit can be set on the profile with --rate-limit)')
  }
  if (error instanceof OutcomeUnknownError) return new TillError(error.message, ExitCode.unknown, `see whether it was done with: ${error.truth}`)
  if (error instanceof NetworkError) {
    // a URL of another origin (`till api URL --no-auth`): the one requested, not the profile's
    const requested = requestedElsewhere(error.url, ctx.baseUrl)
    if (requested) return new TillError(`cannot reach ${requested}: ${error.message}`, ExitCode.unavailable, 'check the URL and the network')
    return new TillError(`cannot reach the API at ${ctx.baseUrl}: ${error.message}`, ExitCode.unavailable, `check the network and the profile's URL; ${where}`)
  }
  if (error instanceof ApiError) {
    const s = error.status
    if (s === 401) return unauthenticated(error, ctx, where)
    if (s === 403 && error.code === 'insufficient_scope') return insufficientScope(error, ctx, where)
    const known = knownServiceError(s, error.code, error.message, error.url, `${ctx.environment} (profile ${ctx.profile})`)
    if (known) return known
    if (s === 403 && (error.code === 'NotPermitted' || error.code === undefined)) {
      return new TillError(`not permitted: ${error.message}`, ExitCode.auth, `used ${where}; the token may lack a scope for this action`)
    }
    if (s === 404) return new TillError(`not found: ${error.message}`, ExitCode.notFound)
    if (s === 422 || s === 400) {
      const lines = error.details.map((d) => `  ${formatLoc(d.loc)}: ${d.msg ?? d.type ?? 'invalid'}`)
      const head = error.details.length > 0 ? 'the API rejected the input' : `the API rejected the input: ${error.message}`
      return new TillError([head, ...lines].join('\n'), ExitCode.usage)
    }
    if (s === 431)
      return new TillError(
        `the API refused the request's headers as too large (HTTP 431): the token of ${where} is likely malformed`,
        ExitCode.auth,
        'check the token (till auth status), or sign in again: till auth login',
      )
    if (s === 429) return new TillError('rate limited by the API', ExitCode.rateLimited)
    if (s >= 500) return new TillError(`the API failed with HTTP ${s}: ${error.message}`, ExitCode.unavailable, 'try again later')
    return new TillError(`the API refused the request (HTTP ${s}${error.code ? ` ${error.code}` : ''}): ${error.message}`, ExitCode.error)
  }
  return new TillError((error as Error)?.message ?? String(error), ExitCode.error)
}
