// The emulator's OAuth2 authorization server over HTTP: the authorize page and its answers, the token
// endpoint (PKCE, code reuse, refresh rotation, errors as the service's), scopes on the Core API,
// introspect, userinfo, revoke, and client registration.
import {createHash, randomBytes} from 'node:crypto'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'

const CLI_CLIENT = 'polar_ci_tillEmulatorPublicCliClient000000000147J9IL'
const REDIRECT = 'http://127.0.0.1:45678/oauth/callback'

let emu: Emulator
let origin: string

beforeAll(async () => {
  emu = await startEmulator()
  origin = new URL(emu.production.url).origin
})

afterAll(async () => {
  await emu?.stop()
})

const form = (fields: Record<string, string>) => ({
  token: null,
  headers: {'content-type': 'application/x-www-form-urlencoded'},
  rawBody: new URLSearchParams(fields).toString(),
})

function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return {verifier, challenge: createHash('sha256').update(verifier).digest('base64url')}
}

/** Allows on the consent form (what the page's Allow button posts) and returns the redirect. */
async function consent(fields: Record<string, string>, env: EnvHandle = emu.production): Promise<URL> {
  const res = await api(
    env,
    'POST',
    `${new URL(env.url).origin}/oauth2/authorize`,
    form({response_type: 'code', client_id: CLI_CLIENT, redirect_uri: REDIRECT, state: 's1', ...fields}),
  )
  expect(res.status, res.text).toBe(302)
  return new URL(res.headers.get('location')!)
}

async function signIn(scope: string, env: EnvHandle = emu.production) {
  const {verifier, challenge} = pkce()
  const back = await consent({scope, code_challenge: challenge, code_challenge_method: 'S256', action: 'allow'}, env)
  const code = back.searchParams.get('code')!
  const res = await api(
    env,
    'POST',
    '/oauth2/token',
    form({grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: CLI_CLIENT, code_verifier: verifier}),
  )
  expect(res.status, res.text).toBe(200)
  return res.body as {access_token: string; refresh_token: string; expires_in: number; scope: string; token_type: string}
}

describe('authorize page', () => {
  it('lists the scopes with Allow and Deny; an unknown client or redirect URI is shown, never redirected to', async () => {
    const {challenge} = pkce()
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: CLI_CLIENT,
      redirect_uri: REDIRECT,
      scope: 'openid products:read',
      state: 'x',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })
    const page = await api(emu.production, 'GET', `${origin}/oauth2/authorize?${query}`, {token: null})
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('<li><code>products:read</code></li>')
    expect(page.text).toContain('value="allow"')
    expect(page.text).toContain('value="deny"')

    query.set('client_id', 'polar_ci_unknown')
    const unknown = await api(emu.production, 'GET', `${origin}/oauth2/authorize?${query}`, {token: null})
    expect(unknown.status).toBe(400)
    expect(unknown.headers.get('location')).toBeNull()
    query.set('client_id', CLI_CLIENT)
    query.set('redirect_uri', 'https://evil.example/oauth/callback')
    const foreign = await api(emu.production, 'GET', `${origin}/oauth2/authorize?${query}`, {token: null})
    expect(foreign.status).toBe(400)
    expect(foreign.headers.get('location')).toBeNull()
  })

  it('Deny, a scope the client may not ask for, and a public client without PKCE go back as errors with the state', async () => {
    const {challenge} = pkce()
    const denied = await consent({scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', action: 'deny'})
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({error: 'access_denied', state: 's1'})
    const badScope = await consent({scope: 'openid admin:everything', code_challenge: challenge, code_challenge_method: 'S256', action: 'allow'})
    expect(badScope.searchParams.get('error')).toBe('invalid_scope')
    const noPkce = await consent({scope: 'openid', action: 'allow'})
    expect(noPkce.searchParams.get('error')).toBe('invalid_request')
  })
})

describe('token endpoint', () => {
  it("exchanges a code once, with the right verifier only; errors are the service's OAuth2 bodies", async () => {
    const {verifier, challenge} = pkce()
    const back = await consent({scope: 'openid products:read', code_challenge: challenge, code_challenge_method: 'S256', action: 'allow'})
    expect(back.searchParams.get('state')).toBe('s1')
    const code = back.searchParams.get('code')!
    expect(code).toMatch(/^polar_ac_/)
    const exchange = (fields: Record<string, string>) =>
      api(emu.production, 'POST', '/oauth2/token', form({grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: CLI_CLIENT, ...fields}))

    const wrong = await exchange({code_verifier: pkce().verifier})
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({error: 'invalid_grant', error_description: 'Code challenge failed.'})
    expect(wrong.headers.get('cache-control')).toBe('no-store')

    const ok = await exchange({code_verifier: verifier})
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({token_type: 'Bearer', expires_in: 3600, scope: 'openid products:read'})
    expect(ok.body.access_token).toMatch(/^polar_at_u_/)
    expect(ok.body.refresh_token).toMatch(/^polar_rt_u_/)

    const again = await exchange({code_verifier: verifier})
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('invalid_grant')

    const unsupported = await api(emu.production, 'POST', '/oauth2/token', form({grant_type: 'password', client_id: CLI_CLIENT}))
    expect(unsupported.status).toBe(400)
    expect(unsupported.body.error).toBe('unsupported_grant_type')
  })

  it('access tokens work on the Core API with the scopes granted only; refresh rotates; revoked tokens get 401', async () => {
    const tokens = await signIn('openid products:read')
    expect((await api(emu.production, 'GET', '/products/', {token: tokens.access_token})).status).toBe(200)
    const write = await api(emu.production, 'POST', '/products/', {
      token: tokens.access_token,
      body: {name: 'x', prices: [{amount_type: 'fixed', price_amount: 0, price_currency: 'usd'}]},
    })
    expect(write.status).toBe(403)
    expect(write.body.error).toBe('insufficient_scope')
    expect(write.headers.get('www-authenticate')).toContain('scope="products:write"')
    expect((await api(emu.production, 'GET', '/orders/', {token: tokens.access_token})).status).toBe(403)
    // the CLI's trigger routes take webhooks:read or webhooks:write (server/polar/cli/auth.py CLIRead)
    const trigger = (token: string) =>
      api(emu.production, 'POST', `/cli/trigger/${emu.production.organizationId}`, {token, body: {event: 'order.paid', deliver: false}})
    expect((await trigger(tokens.access_token)).body.error).toBe('insufficient_scope')
    expect((await api(emu.production, 'GET', '/cli/events', {token: tokens.access_token})).status).toBe(403)
    const webhooks = await signIn('openid webhooks:read')
    expect((await trigger(webhooks.access_token)).status).toBe(200)
    expect((await api(emu.production, 'GET', '/cli/events', {token: webhooks.access_token})).status).toBe(200)
    // Not valid in the other environment.
    expect((await api(emu.sandbox, 'GET', '/products/', {token: tokens.access_token})).status).toBe(401)

    const refreshed = await api(
      emu.production,
      'POST',
      '/oauth2/token',
      form({grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: CLI_CLIENT}),
    )
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token)
    expect((await api(emu.production, 'GET', '/products/', {token: tokens.access_token})).status).toBe(401)
    expect((await api(emu.production, 'GET', '/products/', {token: refreshed.body.access_token})).status).toBe(200)

    const revoked = await api(
      emu.production,
      'POST',
      '/oauth2/revoke',
      form({token: refreshed.body.refresh_token, token_type_hint: 'refresh_token', client_id: CLI_CLIENT}),
    )
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({})
    const refused = await api(emu.production, 'GET', '/products/', {token: refreshed.body.access_token})
    expect(refused.status).toBe(401)
    expect(refused.body.error).toBe('invalid_token')
  })

  it('introspect and userinfo describe a live token; a dead one is inactive', async () => {
    const tokens = await signIn('openid profile email products:read')
    const info = await api(emu.production, 'GET', '/oauth2/userinfo', {token: tokens.access_token})
    expect(info.status).toBe(200)
    expect(info.body).toMatchObject({email_verified: true})
    expect(info.body.sub).toMatch(/^[0-9a-f-]{36}$/)
    const live = await api(emu.production, 'POST', '/oauth2/introspect', form({token: tokens.access_token, client_id: CLI_CLIENT}))
    expect(live.body).toMatchObject({
      active: true,
      token_type: 'access_token',
      scope: 'openid profile email products:read',
      sub_type: 'user',
      organizations: [emu.production.organizationId],
    })
    await api(emu.production, 'POST', '/oauth2/revoke', form({token: tokens.access_token, token_type_hint: 'access_token', client_id: CLI_CLIENT}))
    const dead = await api(emu.production, 'POST', '/oauth2/introspect', form({token: tokens.access_token, client_id: CLI_CLIENT}))
    expect(dead.body).toEqual({active: false})
    expect((await api(emu.production, 'GET', '/oauth2/userinfo', {token: tokens.access_token})).status).toBe(401)
  })
})
