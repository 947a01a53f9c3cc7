// till's API client as a library: `import {createClient, listOrders} from 'till-cli/client'`.
// Transport, pacing within the rate budget (shared across processes through a file when given one),
// Retry-After waits, safe retries, streaming pagination, typed errors and one module per resource.
// Nothing here reads flags, argv or the terminal: callers pass what they want and get callbacks.
import {ApiClient, type ClientOptions} from './client.js'
import {Pacer, type Budget} from './pace.js'
import {parseRateLimit} from './rate-limit.js'
import {API_VERSION} from './version.js'

export {ApiClient, buildUrl, RedirectError, type ClientOptions, type Query, type RequestOptions, type Response} from './client.js'
export {ApiError, NetworkError, RateLimitedError, toTillError, type ErrorContext, type ValidationDetail} from './errors.js'
export {ExitCode, TillError} from './till-error.js'
export {absoluteUrl, assertSafeBaseUrl, isLoopbackHost, mayCarryCredentials, originOf} from './origin.js'
export {
  authorizeUrl,
  EMULATOR_CLIENT_ID,
  OAuthCredentials,
  pkcePair,
  TILL_SCOPES,
  tokensFrom,
  type OAuthCredentialsOptions,
  type OAuthTokens,
  type TokenProvider,
  type TokenResponse,
} from './oauth.js'
export {Pacer, type Budget, type Held, type HoldGate, type PacerOptions} from './pace.js'
export {paginate, MAX_LIMIT, type FetchPage, type PageResult, type PaginateOptions} from './paginate.js'
export {parseRateLimit, ruleText, type Rule} from './rate-limit.js'
export {redact} from './redact.js'
export {API_VERSION, API_VERSIONS, isApiVersion, isKnownApiVersion, type ApiVersion} from './version.js'
export {
  decodeListenMessage,
  forwardEvent,
  listen,
  reconnectDelayMs,
  type ForwardResult,
  type ListenMessage,
  type ListenOptions,
  type ListenState,
} from './listen.js'
export * from './resources/index.js'
/** The wire types, generated from the service's OpenAPI document: `import type {wire} from 'till-cli/client'`. */
export type * as wire from './wire/index.js'

/** The service's limits (server/polar/rate_limit.py): 500 requests a minute per organization, 100 a second per IP. */
export const DEFAULT_BUDGETS: Budget[] = [
  {name: 'minute', limit: 500, windowMs: 60_000},
  {name: 'ip', limit: 100, windowMs: 1000},
]

export interface CreateClientOptions extends Partial<Omit<ClientOptions, 'budgets' | 'pacer'>> {
  baseUrl: string
  token?: string
  /** `N/WINDOW` (`500/60s`), a list of budgets, or `off`; default: the service's documented limits. */
  budget?: string | Budget[]
  /** A file shared by every process that should count against the same budget. */
  paceFile?: string
  /** Called with each pacing wait (ms, budget name). */
  onPace?: (ms: number, budget: string) => void
}

/** An API client with sensible defaults for scripts: `createClient({baseUrl, token})` (pinned to API_VERSION unless `apiVersion` says otherwise). */
export function createClient(options: CreateClientOptions): ApiClient {
  const {budget, paceFile, onPace, ...rest} = options
  let budgets = DEFAULT_BUDGETS
  if (Array.isArray(budget)) budgets = budget
  else if (typeof budget === 'string') {
    const rule = parseRateLimit(budget)
    budgets = rule ? [{name: 'custom', ...rule}] : []
  }
  return new ApiClient({
    userAgent: 'till-client',
    apiVersion: API_VERSION,
    maxWaitMs: 120_000,
    label: new URL(options.baseUrl).host,
    ...rest,
    budgets,
    pacer: new Pacer({statePath: paceFile, onWait: onPace}),
  })
}
