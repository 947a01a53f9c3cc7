// The organization-side OAuth2 and organization operations: GET /v1/oauth2/authorize in the
// emulator as the document has it (the consent screen's JSON), `till auth status --introspect` (RFC 7662
// introspection and OpenID Connect userinfo of a browser sign-in's token) and `till org show ID` (GET
// /v1/organizations/{id}). The sign-in is made over HTTP, as the authorize page's Allow button and till's
// callback would. Contract mode on.
import {createHash, randomBytes} from 'node:crypto'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, expectNoToken, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {EMULATOR_CLIENT_ID} from '../../src/client/oauth.js'

const REDIRECT = 'http://127.0.0.1:45678/oauth/callback'
const SCOPE = 'openid profile email organizations:read products:read'

let emulator: Emulator
let box: Sandbox
let origin: string
const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}`).toBe(0)

const form = (fields: Record<string, string>) => ({
  token: null,
  headers: {'content-type': 'application/x-www-form-urlencoded'},
  rawBody: new URLSearchParams(fields).toString(),
})

/** Allow on the authorize page, then the code exchanged for tokens, as `till auth login --web` does. */
async function signIn(): Promise<{access_token: string; refresh_token: string; expires_in: number; scope: string}> {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const allowed = await api(
    emulator.sandbox,
    'POST',
    `${origin}/oauth2/authorize`,
    form({
      response_type: 'code',
      client_id: EMULATOR_CLIENT_ID,
      redirect_uri: REDIRECT,
      scope: SCOPE,
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      action: 'allow',
    }),
  )
  expect(allowed.status).toBe(302)
  const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!
  const tokens = await api(
    emulator.sandbox,
    'POST',
    '/oauth2/token',
    form({grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: EMULATOR_CLIENT_ID, code_verifier: verifier}),
  )
  expect(tokens.status, tokens.text).toBe(200)
  return tokens.body
}

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  origin = new URL(emulator.sandbox.url).origin
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

describe('GET /v1/oauth2/authorize', () => {
  const authorize = (params: Record<string, string>) =>
    api(
      emulator.sandbox,
      'GET',
      `/oauth2/authorize?${new URLSearchParams({response_type: 'code', client_id: EMULATOR_CLIENT_ID, redirect_uri: REDIRECT, state: 'x', code_challenge: 'c'.repeat(43), code_challenge_method: 'S256', ...params})}`,
    )

  it("answers what the consent screen shows: the client's public face, the scopes, the user and their organizations", async () => {
    const r = await authorize({scope: 'openid products:read'})
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({
      client: {client_id: EMULATOR_CLIENT_ID},
      sub_type: 'user',
      sub: {email: 'billing@acme.example', avatar_url: null},
      scopes: ['openid', 'products:read'],
      organizations: [{id: emulator.sandbox.organizationId, slug: 'acme-sandbox', avatar_url: null}],
      requires_single_organization: false,
    })
    const org = await authorize({scope: 'openid', sub_type: 'organization'})
    expect(org.body).toMatchObject({sub_type: 'organization', sub: null, organizations: [{id: emulator.sandbox.organizationId}]})
  })

  it('refuses an unknown client with the OAuth error; other mistakes go back to the redirect URI', async () => {
    const unknown = await authorize({client_id: 'polar_ci_nobody', scope: 'openid'})
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({error: 'invalid_client'})
    const badScope = await authorize({scope: 'openid admin:everything'})
    expect(badScope.status).toBe(302)
    const back = new URL(badScope.headers.get('location')!)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('error')).toBe('invalid_scope')
  })
})

describe('till auth status --introspect', () => {
  it("shows the service's introspection of a browser sign-in's token and who signed in, never the token", async () => {
    const tokens = await signIn()
    mkdirSync(box.configDir, {recursive: true})
    const oauth = {
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expires_at: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
      scope: tokens.scope,
      client_id: EMULATOR_CLIENT_ID,
    }
    writeFileSync(
      join(box.configDir, 'config.json'),
      JSON.stringify({active: 'web', profiles: {web: {environment: 'sandbox', base_url: emulator.sandbox.url, oauth}}}),
      {
        mode: 0o600,
      },
    )
    const r = await runInProcess(['auth', 'status', '--introspect', '--json'], {env: box.env()})
    ok(r)
    const status = JSON.parse(r.stdout)
    expect(status.introspection).toMatchObject({active: true, client_id: EMULATOR_CLIENT_ID, token_type: 'access_token', scope: SCOPE, sub_type: 'user'})
    expect(status.user).toMatchObject({sub: status.introspection.sub, email: 'billing@acme.example', name: 'Acme Software (Sandbox) owner'})
    expectNoToken(r.stdout + r.stderr, tokens.access_token)
    expectNoToken(r.stdout + r.stderr, tokens.refresh_token)

    // without --introspect, as before
    const plain = await runInProcess(['auth', 'status', '--json'], {env: box.env()})
    ok(plain)
    expect(JSON.parse(plain.stdout).introspection).toBeUndefined()
  })

  it('an organization access token cannot be introspected: a usage error naming the sign-in', async () => {
    const r = await runInProcess(['auth', 'status', '--introspect'], {env: box.env(envVars(emulator.production))})
    expect(r.code).toBe(2)
    expect(r.stderr.split('\n')[0]).toBe('Error: --introspect needs a browser sign-in (OAuth2): an organization access token cannot be introspected')
  })
})

describe('till org show ID', () => {
  it('reads an organization by id: its own; any other is not found', async () => {
    const till = (args: string[]) => runInProcess(args, {env: box.env(envVars(emulator.production))})
    const own = await till(['org', 'show', emulator.production.organizationId, '--json'])
    ok(own)
    expect(JSON.parse(own.stdout).organization).toMatchObject({id: emulator.production.organizationId, name: 'Acme Software'})
    const other = crypto.randomUUID()
    const r = await till(['org', 'show', other])
    expect(r.code).toBe(3)
    // (the profile is the one the sign-in test above made active: TILL_TOKEN is used with its name)
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^Error: not found: there is no organization ${other} in local \\(profile \\w+\\)$`))
  })
})
