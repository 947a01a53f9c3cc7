// `till oauth2-clients list|get|create|update|delete` against the emulator: a created client's secret
// is shown once (on create), never by get; list says the API has no such operation; update keeps what is not given; delete confirms.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type Sandbox} from '../helpers/cli.js'
import {api, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emu: Emulator
let box: Sandbox
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  emu = await startEmulator()
  box = sandbox()
  env = box.env(envVars(emu.sandbox))
})

afterAll(async () => {
  await emu?.stop()
  box?.cleanup()
})

const till = (args: string[]) => runInProcess(args, {env})

describe('oauth2-clients', () => {
  let clientId = ''
  let secret = ''

  it('create shows the secret once; list and get never do', async () => {
    const created = await till([
      'oauth2-clients',
      'create',
      '--name',
      'Acme sync',
      '--redirect-uri',
      'https://acme.example/oauth/callback',
      '--scope',
      'orders:read customers:read',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    const body = JSON.parse(created.stdout)
    expect(body).toMatchObject({
      client_name: 'Acme sync',
      redirect_uris: ['https://acme.example/oauth/callback'],
      scope: 'orders:read customers:read',
      token_endpoint_auth_method: 'client_secret_post',
    })
    expect(body.client_id).toMatch(/^polar_ci_/)
    expect(body.client_secret).toMatch(/^polar_cs_/)
    expect(created.stderr).toContain('Store its client secret now; it is not shown again.')
    clientId = body.client_id
    secret = body.client_secret

    const table = await till(['oauth2-clients', 'create', '--name', 'Acme CLI', '--public', '--redirect-uri', 'http://127.0.0.1:3333/oauth/callback'])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stderr).toMatch(/Created public OAuth2 client polar_ci_\S+ \(no secret/)

    // The published API has no operation listing OAuth2 clients: list says so and sends nothing.
    const list = await till(['oauth2-clients', 'list'])
    expect(list.code).toBe(1)
    expect(list.stdout).toBe('')
    expect(list.stderr).toContain("the service's API has no operation that lists OAuth2 clients")
    expect(list.stderr).toContain('till oauth2-clients get CLIENT_ID')
    expect(list.stderr).not.toMatch(/\n\s+at /)

    const got = await till(['oauth2-clients', 'get', clientId, '--json'])
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout).client_name).toBe('Acme sync')
    expect(got.stdout).not.toContain(secret)
  })

  it('update changes what is given and keeps the rest', async () => {
    const r = await till(['oauth2-clients', 'update', clientId, '--name', 'Acme sync v2', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({
      client_name: 'Acme sync v2',
      redirect_uris: ['https://acme.example/oauth/callback'],
      scope: 'orders:read customers:read',
    })
    expect(r.stdout).not.toContain(secret)
    const nothing = await till(['oauth2-clients', 'update', clientId])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('nothing to change')
    const plain = await till(['oauth2-clients', 'update', clientId, '--redirect-uri', 'http://acme.example/cb'])
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain('An HTTPS URL is required')
    expect(plain.stderr).toContain('redirect_uris')
  })

  it('create without a name or redirect URI is refused before any request', async () => {
    const r = await till(['oauth2-clients', 'create', '--redirect-uri', 'https://acme.example/cb'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('pass --name')
  })

  it('delete needs --yes without a terminal, then the client is gone (404)', async () => {
    const refused = await till(['oauth2-clients', 'delete', clientId])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--yes is required')
    const r = await till(['oauth2-clients', 'delete', clientId, '--yes'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(`Deleted OAuth2 client ${clientId}`)
    expect((await api(emu.sandbox, 'GET', `/oauth2/register/${clientId}`)).status).toBe(404)
    const gone = await till(['oauth2-clients', 'get', clientId])
    expect(gone.code).toBe(3)
  })
})
