// `till emulator start --json` / `till emulator reset` as processes: the startup line, persistence
// across restarts on the same --data folder, SIGTERM, and reset to the seeded state.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runAnswering, sh, TILL} from '../helpers/cli.js'
import {api, runTill, startEmulator, type Emulator} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'

const URL_RE = /^http:\/\/127\.0\.0\.1:\d+\/v1$/
const TOKEN_RE = /^polar_oat_[A-Za-z0-9]{43}$/
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('till emulator start / reset', () => {
  let dataDir: string
  let first: Emulator
  let firstExit: Awaited<ReturnType<Emulator['stop']>>
  let second: Emulator | undefined
  let created: {id: string; name: string}
  let seededProducts: number

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'till-cli-test-'))
    // Not --quiet: request logs must go to stderr, never to stdout.
    first = await startEmulator({dataDir, quiet: false, process: true})
    const list = await api(first.production, 'GET', '/products/')
    seededProducts = list.body.pagination.total_count
    const res = await api(first.production, 'POST', '/products/', {
      body: {name: 'Persisted Widget', prices: [{amount_type: 'fixed', price_amount: 1234}]},
    })
    expect(res.status, brief(res)).toBe(201)
    created = {id: res.body.id, name: res.body.name}
    firstExit = await first.stop()
  })

  afterAll(async () => {
    await first?.stop()
    await second?.stop()
    rmSync(dataDir, {recursive: true, force: true})
  })

  it('prints exactly one JSON line on stdout with both environments', () => {
    const out = first.stdout()
    expect(out.endsWith('\n')).toBe(true)
    const lines = out.split('\n').slice(0, -1)
    expect(lines).toHaveLength(1)
    const parsed = JSON.parse(lines[0]!)
    expect(Object.keys(parsed)).toEqual(['environments'])
    expect(Object.keys(parsed.environments).sort()).toEqual(['production', 'sandbox'])
    for (const env of Object.values(parsed.environments) as Array<Record<string, string>>) {
      expect(Object.keys(env).sort()).toEqual(['organization_id', 'organization_token', 'url'])
      expect(env.url).toMatch(URL_RE)
      expect(env.organization_token).toMatch(TOKEN_RE)
      expect(env.organization_id).toMatch(UUID_RE)
    }
    expect(parsed.environments.production.url).not.toBe(parsed.environments.sandbox.url)
    // The request made above was logged, on stderr.
    expect(first.stderr()).toContain('/v1/products/')
  })

  it('exits with code 0 on SIGTERM', () => {
    expect(firstExit).toEqual({code: 0, signal: null})
  })

  it('keeps organizations, tokens and data across a restart on the same --data folder', async () => {
    second = await startEmulator({dataDir, process: true})
    for (const name of ['production', 'sandbox'] as const) {
      expect(second[name].organizationId).toBe(first[name].organizationId)
      expect(second[name].token).toBe(first[name].token)
    }
    const res = await api(second.production, 'GET', `/products/${created.id}`)
    expect(res.status, brief(res)).toBe(200)
    expect(res.body.name).toBe(created.name)
    expect(res.body.prices[0].price_amount).toBe(1234)
    const list = await api(second.production, 'GET', '/products/')
    expect(list.body.pagination.total_count).toBe(seededProducts + 1)
  })

  it('`emulator reset` without a terminal refuses without --yes, naming it, and changes nothing', async () => {
    expect(second, 'restart test must run first').toBeDefined()
    const result = await runTill(['emulator', 'reset', '--data', dataDir])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/^Error: --yes is required to reset the emulator's data in .+ when not running interactively$/m)
    const kept = await api(second!.production, 'GET', `/products/${created.id}`)
    expect(kept.status, brief(kept)).toBe(200)
  })

  it('`emulator reset` on a terminal asks first; a "no" keeps the data', async () => {
    const env = {...process.env, HOME: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config'), CI: ''}
    const answered = await runAnswering(`${TILL} emulator reset --data ${sh(dataDir)}`, env, [
      {when: /Reset the emulator's data in .+ \(local\)\?/, send: 'n\r'},
    ])
    expect(answered.unanswered, answered.stdout).toBe(0)
    expect(answered.stdout).toContain('Cancelled; nothing was changed.')
    const kept = await api(second!.production, 'GET', `/products/${created.id}`)
    expect(kept.status, brief(kept)).toBe(200)
  })

  it('`emulator reset --yes --data DIR` restores the seeded state and keeps the token working', async () => {
    expect(second, 'restart test must run first').toBeDefined()
    const result = await runTill(['emulator', 'reset', '--yes', '--data', dataDir])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('')

    const gone = await api(second!.production, 'GET', `/products/${created.id}`)
    expect(gone.status, brief(gone)).toBe(404)
    expect(gone.body.error).toBe('ResourceNotFound')
    const list = await api(second!.production, 'GET', '/products/')
    expect(list.status, brief(list)).toBe(200)
    expect(list.body.pagination.total_count).toBe(seededProducts)
    for (const name of ['production', 'sandbox'] as const) {
      const orgs = await api(second![name], 'GET', '/organizations/')
      expect(orgs.status, brief(orgs)).toBe(200)
      expect(orgs.body.items.map((o: {id: string}) => o.id)).toEqual([first[name].organizationId])
    }
  })
})
