// API version pinning as processes: till sends Polar-Version (the built-in one, a profile's, or
// TILL_API_VERSION's) on every request, shows it in --debug, --version and profiles show, refuses a
// malformed one before sending anything, and says clearly when the service refuses the one asked.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, logFrom, runCli, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {API_VERSION} from '../../src/client/version.js'

describe('API version pinning', () => {
  let emulator: Emulator
  let box: Sandbox
  const env = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(emulator.production), TILL_ENV: 'local', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, {env: env(extra)})
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}`).toBe(0)

  beforeAll(async () => {
    emulator = await startEmulator({orders: 5, quiet: false})
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('till --version names the pinned API version', async () => {
    const r = await till(['--version'])
    ok(r)
    expect(r.stdout).toMatch(new RegExp(`^till/\\S+ \\S+ node-v\\S+ polar-api/${API_VERSION}\\n$`))
  })

  it('--debug shows the version sent; TILL_API_VERSION chooses another one the service knows', async () => {
    const pinned = await till(['products', 'list', '--limit', '1', '--debug'])
    ok(pinned)
    expect(pinned.stderr).toContain(`Polar-Version ${API_VERSION}]`)
    const other = await till(['products', 'list', '--limit', '1', '--debug', '-o', 'json'], {TILL_API_VERSION: '2026-10'})
    ok(other)
    expect(other.stderr).toContain('Polar-Version 2026-10]')
    expect(JSON.parse(other.stdout)).toHaveLength(1)
  })

  it('a version the service refuses is one clear line naming the version and the fix (exit 2)', async () => {
    const r = await till(['products', 'list'], {TILL_API_VERSION: '2031-01'})
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`the service does not accept API version 2031-01 (Polar-Version): it answered with its default, ${API_VERSION}`)
    expect(r.stderr).toContain('TILL_API_VERSION')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('a malformed version is refused before anything is sent', async () => {
    const requests = await logFrom(emulator)
    const r = await till(['products', 'list'], {TILL_API_VERSION: 'latest'})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('TILL_API_VERSION must be a dated API version like')
    expect(requests().filter((q) => q.path.startsWith('/v1/products'))).toEqual([])
  })

  it("a profile's api_version is used and shown; TILL_API_VERSION overrides it", async () => {
    const add = await till(['profiles', 'add', 'pinned', '--environment', 'local', '--url', emulator.production.url, '--api-version', '2027-01'])
    ok(add)
    const shown = await till(['profiles', 'show', 'pinned', '--json'], {TILL_ENV: undefined})
    ok(shown)
    expect(JSON.parse(shown.stdout)).toMatchObject({api_version: '2027-01', api_version_source: 'profile'})
    const used = await till(['orders', 'list', '--limit', '1', '--debug', '--profile', 'pinned'], {TILL_ENV: undefined})
    ok(used)
    expect(used.stderr).toContain('Polar-Version 2027-01]')
    const env = await till(['profiles', 'show', 'pinned', '--json'], {TILL_ENV: undefined, TILL_API_VERSION: '2026-10'})
    expect(JSON.parse(env.stdout)).toMatchObject({api_version: '2026-10', api_version_source: 'env'})
    const bad = await till(['profiles', 'add', 'bad', '--environment', 'local', '--api-version', 'v2'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--api-version must be a dated API version')
  })
})
