// OAuth2 sign-in as the service's own CLI does it (`oauth2:authorize`): authorization code with PKCE S256 on
// the dashboard host of each environment, tokens from `/v1/oauth2/token`, refreshed with
// `grant_type=refresh_token`. Pure pieces (PKCE, state, URLs, token bookkeeping) and the token provider
// the client asks for its Authorization header; nothing here reads the terminal or the config file.
import {createHash, randomBytes} from 'node:crypto'

import {ExitCode, TillError} from './till-error.js'
import {TILL_API_SCOPES} from './till-scopes.generated.js'

/** The public client built into the local emulator (both environments); a `polar_ci_` id like any other. */
export const EMULATOR_CLIENT_ID = 'polar_ci_tillEmulatorPublicCliClient000000000147J9IL'

/** Where the loopback redirect lands (any free port on 127.0.0.1, RFC 8252 §7.3). */
export const CALLBACK_PATH = '/oauth/callback'

/** Who signed in (OpenID Connect): asked for with every sign-in. */
export const IDENTITY_SCOPES = ['openid', 'profile', 'email']

/**
 * What till asks for: who signed in, and the scopes of the operations its commands send, derived from
 * the service's document and till's own requests (till-scopes.generated.ts, `npm run operations`).
 */
export const TILL_SCOPES = [...IDENTITY_SCOPES, ...TILL_API_SCOPES]

const base64url = (data: Buffer) => data.toString('base64url')

/** A PKCE pair: a 43-character verifier and its S256 challenge (RFC 7636 §4.1, §4.2). */
export function pkcePair(bytes: Buffer = randomBytes(32)): {verifier: string; challenge: string} {
  const verifier = base64url(bytes)
  return {verifier, challenge: s256(verifier)}
}

export const s256 = (verifier: string) => base64url(createHash('sha256').update(verifier).digest())

/** An unguessable `state` for one sign-in. */
export const newState = (bytes: Buffer = randomBytes(24)) => base64url(bytes)

/**
 * The authorize page of the environment the API base URL belongs to: the dashboard host for the
 * service (`api.polar.sh` -> `polar.sh`, `sandbox-api.polar.sh` -> `sandbox.polar.sh`), the API's own
 * origin otherwise (the emulator serves its page itself).
 */
export function authorizePageUrl(apiBaseUrl: string): string {
  const url = new URL(apiBaseUrl)
  const dashboard = url.hostname === 'api.polar.sh' ? 'polar.sh' : url.hostname === 'sandbox-api.polar.sh' ? 'sandbox.polar.sh' : undefined
  return dashboard ? `https://${dashboard}/oauth2/authorize` : `${url.origin}/oauth2/authorize`
}

export interface AuthorizeRequest {
  clientId: string
  redirectUri: string
  scopes: string[]
  state: string
  challenge: string
}

export function authorizeUrl(apiBaseUrl: string, r: AuthorizeRequest): string {
  const url = new URL(authorizePageUrl(apiBaseUrl))
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: r.clientId,
    redirect_uri: r.redirectUri,
    scope: r.scopes.join(' '),
    state: r.state,
    code_challenge: r.challenge,
    code_challenge_method: 'S256',
  }).toString()
  return url.toString()
}

/** The answer of `/v1/oauth2/token`. */
export interface TokenResponse {
  access_token: string
  token_type: string
  expires_in: number
  refresh_token?: string | null
  scope: string
}

/** What a profile keeps of a sign-in (the config file is mode 0600). */
export interface OAuthTokens {
  access_token: string
  refresh_token?: string
  /** When the access token expires (ISO). */
  expires_at: string
  scope: string
  client_id: string
}

export function tokensFrom(answer: TokenResponse, clientId: string, now: number, previous?: OAuthTokens): OAuthTokens {
  if (typeof answer?.access_token !== 'string' || typeof answer.expires_in !== 'number') {
    throw new TillError('the token endpoint answered without an access token', ExitCode.auth, 'sign in again: till auth login --web')
  }
  return {
    access_token: answer.access_token,
    // A refresh answer without a new refresh token keeps the old one (RFC 6749 §6).
    refresh_token: answer.refresh_token ?? previous?.refresh_token,
    expires_at: new Date(now + answer.expires_in * 1000).toISOString(),
    scope: answer.scope ?? previous?.scope ?? '',
    client_id: clientId,
  }
}

/** Supplies the bearer token of each request and renews it after a 401; see `ClientOptions.credentials`. */
export interface TokenProvider {
  /** The token to send now (renewed first when it is about to expire). */
  current(): Promise<string | undefined>
  /** A new token after `rejected` was refused (401), or undefined when there is none to try. */
  renew(rejected: string): Promise<string | undefined>
}

export interface OAuthCredentialsOptions {
  tokens: OAuthTokens
  /** Sends one form to `/v1/oauth2/token` (without credentials) and returns its answer. */
  requestToken: (form: Record<string, string>) => Promise<TokenResponse>
  /** Keeps renewed tokens (the profile). */
  save: (tokens: OAuthTokens) => Promise<void>
  /** The tokens as stored now: another process may have renewed them meanwhile. */
  reload?: () => OAuthTokens | undefined | Promise<OAuthTokens | undefined>
  /** Runs a renewal alone among the processes sharing the profile (a refresh token is good for one use). */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>
  /** Names the way back in a failed renewal's message (`till auth login -p sandbox --web`). */
  signInHint: string
  now?: () => number
  /** Renew this long before the expiry (clock skew, the request's own time). */
  skewMs?: number
}

/** An access token that renews itself from its refresh token: before it expires, and once after a 401. */
export class OAuthCredentials implements TokenProvider {
  private tokens: OAuthTokens
  private renewing?: Promise<string>
  private readonly now: () => number

  constructor(private readonly options: OAuthCredentialsOptions) {
    this.tokens = options.tokens
    this.now = options.now ?? Date.now
  }

  get scope(): string {
    return this.tokens.scope
  }

  async current(): Promise<string> {
    if (Date.parse(this.tokens.expires_at) - (this.options.skewMs ?? 30_000) > this.now()) return this.tokens.access_token
    return this.renew(this.tokens.access_token)
  }

  renew(rejected: string): Promise<string> {
    // Concurrent requests share one renewal: a refresh token is good for one use only (rotation).
    const exclusive = this.options.exclusive ?? ((fn) => fn())
    this.renewing ??= exclusive(() => this.refresh(rejected)).finally(() => {
      this.renewing = undefined
    })
    return this.renewing
  }

  private async refresh(rejected: string): Promise<string> {
    const stored = await this.options.reload?.()
    if (stored && stored.access_token !== rejected && Date.parse(stored.expires_at) > this.now()) {
      this.tokens = stored
      return stored.access_token
    }
    if (stored) this.tokens = stored
    if (!this.tokens.refresh_token) throw this.expired('it has no refresh token')
    let answer: TokenResponse
    try {
      answer = await this.options.requestToken({grant_type: 'refresh_token', refresh_token: this.tokens.refresh_token, client_id: this.tokens.client_id})
    } catch (error) {
      const status = (error as {status?: number}).status
      if (status === 400 || status === 401) throw this.expired('the service no longer accepts its refresh token (expired or revoked)')
      throw error
    }
    this.tokens = tokensFrom(answer, this.tokens.client_id, this.now(), this.tokens)
    await this.options.save(this.tokens)
    return this.tokens.access_token
  }

  private expired(why: string): TillError {
    return new TillError(`the browser sign-in has ended: ${why}`, ExitCode.auth, `sign in again: ${this.options.signInHint}`)
  }
}
