// Rate limits (server/polar/rate_limit.py): each limit answers 429 with an empty body and a truthful
// `Retry-After` (waiting exactly that long succeeds); the two environments have different defaults.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, sleep, type ApiResponse, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {cleanup, launch, pool, waitFor, type Launched} from './spawn.js'

const quick = (env: EnvHandle, token?: string | null) => api(env, 'GET', '/products/?limit=1', {noRetry: true, token})

/** The shape of every 429 (server/polar/rate_limit.py): empty body, whole-second Retry-After, Polar-Version only. */
function expect429(res: ApiResponse, maxSeconds: number): number {
  expect(res.status, brief(res)).toBe(429)
  expect(res.text).toBe('')
  const retryAfter = res.headers.get('retry-after')
  expect(retryAfter).toMatch(/^\d+$/)
  const seconds = Number(retryAfter)
  expect(seconds).toBeGreaterThanOrEqual(1)
  expect(seconds).toBeLessThanOrEqual(maxSeconds)
  expect(res.headers.get('polar-version')).toBeTruthy()
  expect(res.headers.get('x-polar-sandbox')).toBeNull()
  expect(res.headers.get('cache-control')).toBeNull()
  expect([...res.headers.keys()].filter((k) => k.startsWith('x-ratelimit'))).toEqual([])
  return seconds
}

const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status)

afterAll(cleanup)

describe('--rate-limit 5/6s (the per-organization limit, replaced)', () => {
  let emulator: Launched

  beforeAll(async () => {
    // a window of 6 s, so that a test's six quick requests fit in one however loaded the machine
    emulator = await launch(['--rate-limit', '5/6s'], {quiet: false})
  })

  it('the 6th request in a window is 429; waiting exactly Retry-After succeeds, with a fresh window of 5', async () => {
    const env = emulator.production
    const first = []
    for (let i = 0; i < 5; i++) first.push(await quick(env))
    expect(statuses(first)).toEqual([200, 200, 200, 200, 200])

    const wait = expect429(await quick(env), 6)
    // A refused request is not counted, and the answer stays truthful.
    const again = expect429(await quick(env), 6)
    expect(again).toBeLessThanOrEqual(wait)

    await sleep(again * 1000)
    const next = []
    for (let i = 0; i < 5; i++) next.push(await quick(env))
    expect(statuses(next)).toEqual([200, 200, 200, 200, 200])
    const wait2 = expect429(await quick(env), 6)
    await sleep(wait2 * 1000)
    expect((await quick(env)).status).toBe(200)
  })

  it('sandbox has its own budget; a 429 late in the window rounds the rest up, and waiting exactly Retry-After succeeds', async () => {
    // Production's window (1 request so far, from the test above) is used up first.
    for (let i = 0; i < 4; i++) expect((await quick(emulator.production)).status).toBe(200)
    expect429(await quick(emulator.production), 6)

    const env = emulator.sandbox
    const five = []
    for (let i = 0; i < 5; i++) five.push(await quick(env))
    expect(statuses(five)).toEqual([200, 200, 200, 200, 200])
    expect(five[0]!.headers.get('x-polar-sandbox')).toBe('1')
    await sleep(600) // about 5.4 s of the window left: rounding to the nearest second would say 5, the truth is 6
    const wait = expect429(await quick(env), 6)
    await sleep(wait * 1000)
    expect((await quick(env)).status).toBe(200)
  })

  it('the request log on stderr shows each request with its status, 429s included', async () => {
    const logged = (env: string, status: number) =>
      emulator
        .stderr()
        .split('\n')
        .filter((l) => new RegExp(`^\\[${env}\\] GET /v1/products/\\?limit=1 ${status} \\d+\\.\\dms$`).test(l)).length
    await waitFor('the last request logged', () => logged('sandbox', 200) >= 6, 2000)
    expect(logged('production', 200)).toBe(15)
    expect(logged('production', 429)).toBe(4)
    expect(logged('sandbox', 200)).toBe(6)
    expect(logged('sandbox', 429)).toBe(1)
  })
})

describe('--ip-rate-limit 10/1s (the per-IP limit, replaced)', () => {
  let emulator: Launched

  beforeAll(async () => {
    emulator = await launch(['--ip-rate-limit', '10/1s', '--rate-limit', 'off'])
  })

  it('counts every request from the IP, whatever its token; the 11th in a second is 429 and Retry-After 1 is enough', async () => {
    const env = emulator.production
    // warmed first (its first answers check their schemas against the document for the first time, slow on
    // a busy machine), then a fresh window
    await Promise.all([quick(env), quick(env, null)])
    // The 11 requests must fit in one window: on a machine too busy for that, a fresh window and again.
    let ten: ApiResponse[] = []
    let limited: ApiResponse | undefined
    for (let round = 1; !limited; round++) {
      await sleep(1100)
      const started = performance.now()
      // Authenticated and anonymous requests share the IP's budget.
      ten = await Promise.all(Array.from({length: 10}, (_, i) => quick(env, i % 2 === 0 ? undefined : null)))
      const eleventh = await quick(env)
      if (performance.now() - started < 1000) limited = eleventh
      else if (round === 5) throw new Error('11 requests never fit in one second on this machine: nothing to check')
    }
    expect(statuses(ten).sort()).toEqual([200, 200, 200, 200, 200, 401, 401, 401, 401, 401])
    const wait = expect429(limited, 1)
    expect(wait).toBe(1)
    await sleep(wait * 1000)
    expect((await quick(env)).status).toBe(200)
  })

  it('keeps the per-IP budget of each environment apart', async () => {
    const prod = await Promise.all(Array.from({length: 11}, () => quick(emulator.production)))
    expect(prod.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1)
    expect((await quick(emulator.sandbox)).status).toBe(200)
  })
})

describe('default limits (--ip-rate-limit off): production 500/min, sandbox 100/min, license keys 3/s', () => {
  let emulator: Launched
  let licenseKey: Json

  beforeAll(async () => {
    emulator = await launch(['--ip-rate-limit', 'off'])
    const keys = await api(emulator.production, 'GET', '/license-keys/?limit=100', {noRetry: true})
    expect(keys.status, brief(keys)).toBe(200)
    licenseKey = keys.body.items.find((k: Json) => k.status === 'granted' && k.expires_at === null)
    expect(licenseKey, 'a granted seeded license key without expiry').toBeDefined()
  })

  it('the 4th quick license-key call from an IP is 429 with Retry-After about 60; other routes are unaffected', async () => {
    const env = emulator.production
    const validate = () =>
      api(env, 'POST', '/customer-portal/license-keys/validate', {token: null, noRetry: true, body: {key: licenseKey.key, organization_id: env.organizationId}})
    const three = [await validate(), await validate(), await validate()]
    for (const r of three) {
      expect(r.status, brief(r)).toBe(200)
      expect(r.body.id).toBe(licenseKey.id)
    }
    const blocked = expect429(await validate(), 60)
    expect(blocked).toBeGreaterThanOrEqual(59)
    // Still blocked a second later (a block, not a 1 s window), and for activate/deactivate too.
    await sleep(1100)
    const later = expect429(await validate(), 60)
    expect(later).toBeGreaterThanOrEqual(57)
    expect(later).toBeLessThanOrEqual(blocked)
    const activate = await api(env, 'POST', '/customer-portal/license-keys/activate', {
      token: null,
      noRetry: true,
      body: {key: licenseKey.key, organization_id: env.organizationId, label: 'blocked'},
    })
    expect429(activate, 60)
    // The organization's own routes are not blocked.
    expect((await quick(env)).status).toBe(200)
    // Sandbox is another service with its own limits.
    const sandboxCall = await api(emulator.sandbox, 'POST', '/customer-portal/license-keys/validate', {
      token: null,
      noRetry: true,
      body: {key: licenseKey.key, organization_id: emulator.sandbox.organizationId},
    })
    expect(sandboxCall.status, brief(sandboxCall)).toBe(404)
  })

  it('101 quick requests draw a 429 on sandbox (100/min) and none on production, whose 501st does', async () => {
    const sandbox = await pool(Array.from({length: 101}), 8, () => quick(emulator.sandbox))
    expect(sandbox.filter((r) => r.status === 200).length).toBe(100)
    const limited = sandbox.filter((r) => r.status === 429)
    expect(limited.length).toBe(1)
    expect429(limited[0]!, 60)

    // Production: the license-key test above used 2 organization requests of its 500.
    const production = await pool(Array.from({length: 101}), 8, () => quick(emulator.production))
    expect(statuses(production).filter((s) => s !== 200)).toEqual([])
    const rest = await pool(Array.from({length: 500 - 101 - 2}), 8, () => quick(emulator.production))
    expect(statuses(rest).filter((s) => s !== 200)).toEqual([])
    expect429(await quick(emulator.production), 60)
  })
})
