// `till portal license-keys validate|activate|deactivate`: the unauthenticated portal routes, limited to
// 3 requests per second (60 s blocked beyond). The organization id comes from the flag, the customer or
// the organization token; bursts of 20 checks, in one process (keys from stdin) and in 20 processes one
// after another sharing one config folder, are paced so that the emulator answers no 429 and the calls
// spread over at least 6 s. Every test here shares one config folder, so the pace log covers them all.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {envVars, linesOf, logFrom, runCli, sandbox, settledLogFrom, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const VALIDATE = '/v1/customer-portal/license-keys/validate'

describe('till portal license-keys (unauthenticated, 3 per second)', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  /** Granted keys, and the customer of the first. */
  let keys: Json[]
  let owner: Json

  const vars = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(env), ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> =>
    runInProcess(args, {env: vars(extra), input})
  /** As a process of its own: the pace of the budget is shared between processes through the config folder. */
  const tillProcess = (args: string[]): Promise<CliResult> => runCli(args, {env: vars(), timeoutMs: scaled(60_000)})
  const org = () => ['--organization-id', env.organizationId]

  beforeAll(async () => {
    emulator = await startEmulator({quiet: false})
    env = emulator.production
    keys = (await listAll(env, '/license-keys/')).filter((k) => k.status === 'granted' && k.limit_activations)
    expect(keys.length, 'seeded license keys with activations').toBeGreaterThan(0)
    owner = (await api(env, 'GET', `/customers/${keys[0].customer_id}`)).body
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('validate with --organization-id needs no token at all, and counts the validation', async () => {
    const before = keys[0].validations as number
    const r = await till(['portal', 'license-keys', 'validate', keys[0].key, ...org(), '--json'], {TILL_TOKEN: undefined})
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({id: keys[0].id, status: 'granted', validations: before + 1})
    expect(r.stderr).toMatch(/^valid: /)
    expect(r.stderr).not.toContain(keys[0].key)
  })

  it('the organization id is looked up: from the customer (session token, --as-customer-id) or from the organization token', async () => {
    const session = (await api(env, 'POST', '/customer-sessions/', {body: {customer_id: owner.id}})).body.token
    for (const extra of [[], ['--as-customer-id', owner.id]]) {
      const r = await till(['portal', 'license-keys', 'validate', keys[0].key, ...extra, '--columns', 'id'], extra.length ? {} : {TILL_CUSTOMER_TOKEN: session})
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain(keys[0].id)
    }
    const byOrg = await till(['portal', 'license-keys', 'validate', keys[0].key, '--columns', 'id'])
    expect(byOrg.code, byOrg.stderr).toBe(0)
    expect(byOrg.stdout).toContain(keys[0].id)
    const nowhere = await till(['portal', 'license-keys', 'validate', keys[0].key], {TILL_TOKEN: undefined})
    expect(nowhere.code).toBe(2)
    expect(nowhere.stderr).toContain('--organization-id')
  })

  it('an unknown key is not valid (exit 3)', async () => {
    const r = await till(['portal', 'license-keys', 'validate', 'TILL-NOT-A-REAL-KEY', ...org()])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('license key is not valid')
    expect(r.stdout).toBe('')
  })

  it('activate, validate with the activation, deactivate (confirmed), after which the activation is refused', async () => {
    const key = keys[0].key as string
    const act = await till(['portal', 'license-keys', 'activate', key, ...org(), '--label', 'build-server', '--metadata', 'os=linux', '--json'])
    expect(act.code, act.stderr).toBe(0)
    const activation = JSON.parse(act.stdout)
    expect(activation).toMatchObject({label: 'build-server', meta: {os: 'linux'}, license_key_id: keys[0].id})

    const valid = await till(['portal', 'license-keys', 'validate', key, ...org(), '--activation', activation.id, '--json'])
    expect(valid.code, valid.stderr).toBe(0)
    expect(JSON.parse(valid.stdout).activation.id).toBe(activation.id)

    const refused = await till(['portal', 'license-keys', 'deactivate', key, ...org(), '--activation', activation.id])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--yes is required')
    const gone = await till(['portal', 'license-keys', 'deactivate', key, ...org(), '--activation', activation.id, '--yes'])
    expect(gone.code, gone.stderr).toBe(0)
    expect(gone.stderr).toContain(`Deactivated activation ${activation.id}`)

    const after = await till(['portal', 'license-keys', 'validate', key, ...org(), '--activation', activation.id])
    expect(after.code).toBe(3)
  })

  it(
    '20 validations in one process (keys from stdin): no 429, spread over at least 6 s',
    async () => {
      const twenty = Array.from({length: 20}, (_, i) => keys[i % keys.length].key as string)
      const log = await settledLogFrom(emulator)
      const started = Date.now()
      const r = await till(['portal', 'license-keys', 'validate', '-', ...org(), '--envelope', '-o', 'jsonl'], {}, `${twenty.join('\n')}\n`)
      const elapsed = Date.now() - started
      expect(r.code, r.stderr).toBe(0)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => x.id)).toEqual(twenty)
      expect(results.every((x) => x.ok)).toBe(true)
      expect(r.stderr).toContain('20 ids: 20 ok, 0 failed.')
      const checks = (await log()).filter((q) => q.path === VALIDATE)
      expect(checks.filter((q) => q.status === 429)).toEqual([])
      expect(checks.filter((q) => q.status === 200)).toHaveLength(20)
      expect(elapsed).toBeGreaterThanOrEqual(6000)
    },
    scaled(60_000),
  )

  it(
    '20 processes one after another, sharing the pace file of the config folder: no 429, spread over at least 6 s',
    async () => {
      const log = await logFrom(emulator)
      const started = Date.now()
      for (let i = 0; i < 20; i++) {
        const r = await tillProcess(['portal', 'license-keys', 'validate', keys[i % keys.length].key, ...org(), '--max-wait', '5', '--columns', 'id'])
        expect(r.code, r.stderr).toBe(0)
      }
      const elapsed = Date.now() - started
      const checks = log().filter((q) => q.path === VALIDATE)
      expect(checks.filter((q) => q.status === 429)).toEqual([])
      expect(checks.filter((q) => q.status === 200)).toHaveLength(20)
      expect(elapsed).toBeGreaterThanOrEqual(6000)
      const pace = JSON.parse(readFileSync(join(box.configDir, 'pace', 'local.anonymous.json'), 'utf8'))
      expect(pace['license-keys'].length, 'the shared log of the license-key budget').toBeGreaterThan(0)
    },
    scaled(120_000),
  )
})
