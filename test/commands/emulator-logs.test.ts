// till emulator logs against the emulator's request log (GET /_emulator/logs): the requests made show with
// their status, and never a token or a body; --status and --path filter; --json prints JSON lines;
// --follow prints a request made after it started and ends on Ctrl-C with exit 130.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, expectNoToken, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {api, control, startEmulator, unknownId, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {eventually, scaled} from '../helpers/machine.js'

describe('till emulator logs', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let vars: NodeJS.ProcessEnv
  const email = `logged-body-${Date.now()}@example.com`
  const missing = unknownId()

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    vars = box.env(envVars(env))
    expect((await api(env, 'GET', '/orders/?limit=2')).status).toBe(200)
    expect((await api(env, 'GET', `/orders/${missing}`)).status).toBe(404)
    expect((await api(env, 'POST', '/customers/', {body: {email}})).status).toBe(201)
    expect((await api(env, 'GET', '/products/?limit=1')).status).toBe(200)
    // a token in a query string is masked (on a control route, which reads no such parameter)
    expect((await control(env, 'GET', 'listeners?customer_session_token=polar_cst_abcdefghijklmnopqrstuv')).status).toBe(200)
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  const logs = (args: string[] = []) => runInProcess(['emulator', 'logs', ...args], {env: vars})

  it('shows the requests answered with their status, time taken and request id; never a token or a body', async () => {
    const res = await logs()
    expect(res.code, res.stderr).toBe(0)
    const lines = res.stdout.trim().split('\n')
    const line = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}\[(\d{3})\] ([A-Z]+) (\S+) {2}[\d.]+ ms {2}\[[0-9a-f-]{36}\]$/
    for (const l of lines) expect(l).toMatch(line)
    expect(lines).toContainEqual(expect.stringMatching(/\[200\] GET \/v1\/orders\/\?limit=2 /))
    expect(lines).toContainEqual(expect.stringContaining(`[404] GET /v1/orders/${missing} `))
    expect(lines).toContainEqual(expect.stringContaining('[201] POST /v1/customers/ '))
    expect(lines).toContainEqual(expect.stringContaining('[200] GET /_emulator/listeners?customer_session_token=polar_cst_… '))
    expectNoToken(res.stdout, env.token)
    expect(res.stdout).not.toContain('abcdefghijklmnopqrstuv')
    expect(res.stdout).not.toContain(email)
  })

  it('--status keeps a class or a status, --path a path prefix; --json prints one JSON object a line', async () => {
    const failed = await logs(['--status', '4xx'])
    expect(failed.code, failed.stderr).toBe(0)
    expect(failed.stdout).toContain(`[404] GET /v1/orders/${missing} `)
    expect(failed.stdout).not.toMatch(/\[[235]\d\d\]/)
    const created = await logs(['--status', '201'])
    expect(created.stdout.trim().split('\n')).toEqual([expect.stringContaining('POST /v1/customers/')])
    const orders = await logs(['--path', '/v1/orders', '--json'])
    expect(orders.code, orders.stderr).toBe(0)
    const items = orders.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(items.map((r) => [r.method, r.path, r.query, r.status])).toEqual([
      ['GET', '/v1/orders/', 'limit=2', 200],
      ['GET', `/v1/orders/${missing}`, '', 404],
    ])
    for (const r of items) {
      expect(Object.keys(r).sort()).toEqual(['duration_ms', 'environment', 'id', 'method', 'path', 'query', 'request_id', 'status', 'time'])
      expect(r.environment).toBe('production')
    }
    const bad = await logs(['--status', '4x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--status "4x" is not a status or a class of them')
    expect((await logs(['--path', 'v1/orders'])).code).toBe(2)
  })

  it('--follow prints a request made after it started, and Ctrl-C ends it with exit 130', async () => {
    const follow = spawnCli(['emulator', 'logs', '--follow', '--path', '/v1/products'], {env: vars, timeoutMs: scaled(60_000)})
    // the requests before it started come first
    await eventually('the earlier products request', () => follow.stdout().includes('GET /v1/products/?limit=1'), scaled(20_000))
    const later = unknownId()
    expect((await api(env, 'GET', `/products/${later}`)).status).toBe(404)
    await eventually('the later request', () => follow.stdout().includes(`[404] GET /v1/products/${later} `), scaled(20_000))
    // reading the log is not logged itself
    expect((await control(env, 'GET', 'logs')).body.items.some((r: {path: string}) => r.path === '/_emulator/logs')).toBe(false)
    follow.child.kill('SIGINT')
    const done = await follow.done
    expect(done.code).toBe(130)
    expect(done.stderr).not.toMatch(/\n\s+at /)
  })
})
