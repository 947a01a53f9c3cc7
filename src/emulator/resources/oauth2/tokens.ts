// The token endpoints of the authorization server (RFC 6749, 7009, 7662; errors as the service's
// authlib answers them: `{"error", "error_description"}`), the access tokens' resolution on the Core
// API, and userinfo.
import {createHash, timingSafeEqual} from '../../core/crypto.js'
import type {IncomingHttpHeaders} from 'node:http'

import {HttpError, invalidToken} from '../../core/errors.js'
import {ok, registerBearerKind, type Ctx, type Env, type Reply, type Router} from '../../core/http.js'
import {token, uuid} from '../../core/ids.js'
import type {Organization} from '../../core/model.js'
import {findClient} from './clients.js'
import type {OAuth2ClientRecord, OAuth2TokenRecord, SubType} from './model.js'

/** Lifetime of an access token, in seconds. */
export const ACCESS_TOKEN_TTL_S = 3600

const NO_STORE = {'cache-control': 'no-store', pragma: 'no-cache'}

export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, {error, error_description: description}, {...NO_STORE, ...headers})
}

/** The form fields of a request (the OAuth2 endpoints take `application/x-www-form-urlencoded`). */
export const formOf = (ctx: Ctx) => new URLSearchParams(typeof ctx.body === 'string' ? ctx.body : '')

const iso = (ms: number) => new Date(ms).toISOString()

/** The one user of an emulated environment: the organization's owner, who signs in on the authorize page. */
export function operator(org: Organization) {
  const hex = createHash('sha256').update(`operator:${org.id}`).digest('hex')
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
  return {id, name: `${org.name} owner`, email: org.email ?? `owner@${org.slug}.example`}
}

/** Checks the client's credentials as its `token_endpoint_auth_method` says (Basic, form, or none). */
function authenticateClient(ctx: Ctx, form: URLSearchParams, headers: IncomingHttpHeaders): OAuth2ClientRecord {
  let id = form.get('client_id') ?? ''
  let secret = form.get('client_secret')
  const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '')
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    id = decodeURIComponent(decoded.slice(0, colon))
    secret = decodeURIComponent(decoded.slice(colon + 1))
  }
  const client = id ? findClient(ctx, id) : undefined
  const fail = () =>
    basic
      ? oauthError(401, 'invalid_client', 'Invalid client', {'www-authenticate': 'Basic error="invalid_client"'})
      : oauthError(400, 'invalid_client', 'Invalid client')
  if (!client) throw fail()
  if (client.token_endpoint_auth_method === 'none') return client
  if (!secret || !safeEqual(secret, client.client_secret)) throw fail()
  return client
}

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

function issue(ctx: Ctx, client: OAuth2ClientRecord, scope: string, subType: SubType, sub: string): Reply {
  const kind = subType === 'user' ? 'u' : 'o'
  const record: OAuth2TokenRecord = {
    id: uuid(),
    client_id: client.id,
    access_token: token(`polar_at_${kind}_`),
    refresh_token: token(`polar_rt_${kind}_`),
    scope,
    sub_type: subType,
    sub,
    issued_at: iso(ctx.now),
    expires_at: iso(ctx.now + ACCESS_TOKEN_TTL_S * 1000),
    access_revoked_at: null,
    refresh_revoked_at: null,
  }
  ctx.store.insert('oauth2_tokens', record)
  const body = {access_token: record.access_token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: record.refresh_token, scope}
  return {status: 200, body, headers: NO_STORE}
}

function authorizationCodeGrant(ctx: Ctx, form: URLSearchParams, client: OAuth2ClientRecord): Reply {
  const code = form.get('code')
  if (!code) throw oauthError(400, 'invalid_request', 'Missing "code" in request.')
  return ctx.store.write(() => {
    const found = ctx.store.all('oauth2_codes').find((c) => c.code === code)
    if (!found || found.used || found.client_id !== client.id || Date.parse(found.expires_at) <= ctx.now) {
      throw oauthError(400, 'invalid_grant', 'Invalid "code" in request.')
    }
    if ((form.get('redirect_uri') ?? '') !== found.redirect_uri) throw oauthError(400, 'invalid_grant', 'Invalid "redirect_uri" in request.')
    const verifier = form.get('code_verifier')
    if (found.code_challenge) {
      if (!verifier) throw oauthError(400, 'invalid_request', 'Missing "code_verifier"')
      if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) throw oauthError(400, 'invalid_request', 'Invalid "code_verifier"')
      const computed = createHash('sha256').update(verifier).digest('base64url')
      if (!safeEqual(computed, found.code_challenge)) throw oauthError(400, 'invalid_grant', 'Code challenge failed.')
    } else if (verifier) {
      throw oauthError(400, 'invalid_request', 'Missing "code_challenge"')
    }
    found.used = true
    return issue(ctx, client, found.scope, found.sub_type, found.sub)
  })
}

function refreshTokenGrant(ctx: Ctx, form: URLSearchParams, client: OAuth2ClientRecord): Reply {
  const refresh = form.get('refresh_token')
  if (!refresh) throw oauthError(400, 'invalid_request', 'Missing "refresh_token" in request.')
  return ctx.store.write(() => {
    const found = ctx.store.all('oauth2_tokens').find((t) => t.refresh_token === refresh)
    if (!found || found.refresh_revoked_at !== null || found.client_id !== client.id)
      throw oauthError(400, 'invalid_grant', 'Invalid "refresh_token" in request.')
    const asked = form.get('scope')
    const scope = asked ?? found.scope
    if (asked && !asked.split(/\s+/).every((s) => found.scope.split(' ').includes(s)))
      throw oauthError(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.')
    // Rotation: the old pair is revoked; its refresh token is good for this one use.
    found.access_revoked_at ??= iso(ctx.now)
    found.refresh_revoked_at = iso(ctx.now)
    return issue(ctx, client, scope, found.sub_type, found.sub)
  })
}

function tokenEndpoint(ctx: Ctx): Reply {
  const form = formOf(ctx)
  const grant = form.get('grant_type')
  if (!grant) throw oauthError(400, 'invalid_request', 'Missing "grant_type" in request.')
  if (grant !== 'authorization_code' && grant !== 'refresh_token') throw oauthError(400, 'unsupported_grant_type', `grant_type=${grant} is not supported`)
  const client = authenticateClient(ctx, form, ctx.headers)
  if (!client.grant_types.includes(grant)) throw oauthError(400, 'unauthorized_client', `The client is not authorized to use "grant_type=${grant}"`)
  return grant === 'authorization_code' ? authorizationCodeGrant(ctx, form, client) : refreshTokenGrant(ctx, form, client)
}

/** The token record `value` is the access or refresh token of (as `hint` says, or either). */
function findToken(ctx: Ctx, value: string, hint: string | null): OAuth2TokenRecord | undefined {
  return ctx.store
    .all('oauth2_tokens')
    .find((t) => (hint !== 'refresh_token' && t.access_token === value) || (hint !== 'access_token' && t.refresh_token === value))
}

function revokeEndpoint(ctx: Ctx): Reply {
  const form = formOf(ctx)
  const value = form.get('token')
  if (!value) throw oauthError(400, 'invalid_request', 'Missing "token" in request.')
  const client = authenticateClient(ctx, form, ctx.headers)
  const hint = form.get('token_type_hint')
  ctx.store.write(() => {
    const found = findToken(ctx, value, hint === 'access_token' || hint === 'refresh_token' ? hint : null)
    // An unknown token, or another client's, is answered as revoked (RFC 7009 §2.2), and left alone.
    if (!found || found.client_id !== client.id) return
    found.access_revoked_at ??= iso(ctx.now)
    if (hint !== 'access_token') found.refresh_revoked_at ??= iso(ctx.now)
  })
  return {status: 200, body: {}, headers: NO_STORE}
}

function introspectEndpoint(ctx: Ctx): Reply {
  const form = formOf(ctx)
  const value = form.get('token')
  if (!value) throw oauthError(400, 'invalid_request', 'Missing "token" in request.')
  const client = authenticateClient(ctx, form, ctx.headers)
  const found = findToken(ctx, value, form.get('token_type_hint'))
  const isAccess = found?.access_token === value
  const live =
    found &&
    found.client_id === client.id &&
    (isAccess ? found.access_revoked_at === null && Date.parse(found.expires_at) > ctx.now : found.refresh_revoked_at === null)
  if (!found || !live) return {status: 200, body: {active: false}, headers: NO_STORE}
  return {
    status: 200,
    headers: NO_STORE,
    body: {
      active: true,
      client_id: found.client_id,
      token_type: isAccess ? 'access_token' : 'refresh_token',
      scope: found.scope,
      sub_type: found.sub_type,
      sub: found.sub,
      organizations: [ctx.store.data.organization.id],
      aud: found.client_id,
      iss: ctx.env.origin,
      exp: Math.floor(Date.parse(found.expires_at) / 1000),
      iat: Math.floor(Date.parse(found.issued_at) / 1000),
    },
  }
}

/** The live access token record of a bearer value, if any. */
function liveAccessToken(env: Env, value: string, now: number): OAuth2TokenRecord | undefined {
  const found = env.store.all('oauth2_tokens').find((t) => t.access_token === value)
  return found && found.access_revoked_at === null && Date.parse(found.expires_at) > now ? found : undefined
}

function userinfoEndpoint(ctx: Ctx): Reply {
  const value = /^Bearer\s+(\S+)\s*$/i.exec(ctx.headers.authorization ?? '')?.[1]
  const found = value ? liveAccessToken(ctx.env, value, ctx.now) : undefined
  if (!found) throw invalidToken()
  const scopes = found.scope.split(' ')
  if (found.sub_type === 'organization') return ok({sub: found.sub, ...(scopes.includes('profile') ? {name: ctx.store.data.organization.name} : {})})
  const user = operator(ctx.store.data.organization)
  return ok({
    sub: found.sub,
    ...(scopes.includes('profile') ? {name: user.name} : {}),
    ...(scopes.includes('email') ? {email: user.email, email_verified: true} : {}),
  })
}

export function registerTokens(r: Router): void {
  // OAuth access tokens open the Core API of the environment's organization, with the scopes granted.
  registerBearerKind({
    prefixes: ['polar_at_u_', 'polar_at_o_'],
    resolve(env, value, now) {
      const found = liveAccessToken(env, value, now)
      return found ? {kind: 'organization', scopes: found.scope.split(' '), clientId: found.client_id} : null
    },
    identity(env, value) {
      const found = env.store.all('oauth2_tokens').find((t) => t.access_token === value)
      return found ? `oauth2-client:${found.client_id}` : undefined
    },
  })
  r.post('/oauth2/token', 'none', tokenEndpoint)
  r.post('/oauth2/revoke', 'none', revokeEndpoint)
  r.post('/oauth2/introspect', 'none', introspectEndpoint)
  r.get('/oauth2/userinfo', 'none', userinfoEndpoint)
  r.post('/oauth2/userinfo', 'none', userinfoEndpoint)
}
