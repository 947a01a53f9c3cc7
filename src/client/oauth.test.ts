import {describe, expect, it} from 'vitest'

import {authorizePageUrl, authorizeUrl, OAuthCredentials, pkcePair, s256, tokensFrom, type OAuthTokens, type TokenResponse} from './oauth.js'
import {ExitCode, TillError} from './till-error.js'

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
    const bytes = Buffer.from([
      116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ])
    expect(pkcePair(bytes)).toEqual({verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'})
  })
})

describe('authorize URL', () => {
  it('is on the dashboard host of the service, and on the emulator itself', () => {
    expect(authorizePageUrl('https://api.polar.sh/v1')).toBe('https://polar.sh/oauth2/authorize')
    expect(authorizePageUrl('https://sandbox-api.polar.sh/v1')).toBe('https://sandbox.polar.sh/oauth2/authorize')
    expect(authorizePageUrl('http://127.0.0.1:4010/v1')).toBe('http://127.0.0.1:4010/oauth2/authorize')
    const url = new URL(
      authorizeUrl('https://api.polar.sh/v1', {
        clientId: 'polar_ci_x',
        redirectUri: 'http://127.0.0.1:1234/oauth/callback',
        scopes: ['openid', 'products:read'],
        state: 'st',
        challenge: 'ch',
      }),
    )
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'polar_ci_x',
      redirect_uri: 'http://127.0.0.1:1234/oauth/callback',
      scope: 'openid products:read',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    })
  })
})

const T0 = Date.parse('2026-01-01T00:00:00Z')
const stored = (expiresAt: number, n = 1): OAuthTokens => ({
  access_token: `at${n}`,
  refresh_token: `rt${n}`,
  expires_at: new Date(expiresAt).toISOString(),
  scope: 'a b',
  client_id: 'polar_ci_x',
})

function harness(tokens: OAuthTokens, answer: (form: Record<string, string>) => TokenResponse | Error) {
  let now = T0
  const forms: Array<Record<string, string>> = []
  const saved: OAuthTokens[] = []
  const credentials = new OAuthCredentials({
    tokens,
    requestToken: async (form) => {
      forms.push(form)
      const a = answer(form)
      if (a instanceof Error) throw a
      return a
    },
    save: async (t) => void saved.push(t),
    signInHint: 'till auth login --web',
    now: () => now,
  })
  return {credentials, forms, saved, advance: (ms: number) => (now += ms)}
}

describe('OAuthCredentials', () => {
  it('keeps a live token, renews one about to expire (refresh_token grant), and shares one renewal between callers', async () => {
    const h = harness(stored(T0 + 3600_000), () => ({access_token: 'at2', refresh_token: 'rt2', expires_in: 3600, token_type: 'Bearer', scope: 'a b'}))
    expect(await h.credentials.current()).toBe('at1')
    expect(h.forms).toEqual([])
    h.advance(3600_000 - 10_000) // within the 30 s margin
    const [a, b] = await Promise.all([h.credentials.current(), h.credentials.renew('at1')])
    expect([a, b]).toEqual(['at2', 'at2'])
    expect(h.forms).toEqual([{grant_type: 'refresh_token', refresh_token: 'rt1', client_id: 'polar_ci_x'}])
    expect(h.saved).toEqual([{...stored(T0 + 3590_000 + 3600_000, 2)}])
  })

  it("processes sharing a profile renew one at a time: the second takes the first one's new token", async () => {
    let store = stored(T0 - 1)
    let chain = Promise.resolve()
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = chain.then(fn)
      chain = run.then(
        () => undefined,
        () => undefined,
      )
      return run
    }
    let calls = 0
    const make = () =>
      new OAuthCredentials({
        tokens: stored(T0 - 1),
        requestToken: async () => ({access_token: `at${++calls + 1}`, refresh_token: `rt${calls + 1}`, expires_in: 3600, token_type: 'Bearer', scope: 'a b'}),
        save: async (t) => void (store = t),
        reload: () => store,
        exclusive,
        signInHint: 'till auth login --web',
        now: () => T0,
      })
    const [a, b] = await Promise.all([make().current(), make().current()])
    expect(calls).toBe(1)
    expect([a, b]).toEqual(['at2', 'at2'])
  })

  it('a refused refresh is an auth error naming the way back in', async () => {
    const h = harness(stored(T0 - 1), () => Object.assign(new Error('invalid_grant'), {status: 400}))
    const error = await h.credentials.current().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TillError)
    expect((error as TillError).exitCode).toBe(ExitCode.auth)
    expect((error as TillError).hint).toBe('sign in again: till auth login --web')
  })

  it('a renewal without a new refresh token keeps the old one', () => {
    const t = tokensFrom({access_token: 'at2', expires_in: 60, token_type: 'Bearer', scope: 'a'}, 'polar_ci_x', T0, stored(T0))
    expect(t).toEqual({access_token: 'at2', refresh_token: 'rt1', expires_at: new Date(T0 + 60_000).toISOString(), scope: 'a', client_id: 'polar_ci_x'})
  })
})
