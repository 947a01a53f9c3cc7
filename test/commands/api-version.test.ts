// API version pinning (in-process; --version as a process): till sends Polar-Version (the built-in one, a profile's, or
// TILL_API_VERSION's) on every request, shows it in --debug, --version and profiles show, refuses a
// version the service does not know before sending anything, and warns (stderr, once a day) when the
// version pinned is one the service is removing.
import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, runCli, sandbox, settledLogFrom, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {API_VERSION} from '../../src/client/version.js'
import {WARNING_FILE} from '../../src/cli/config/version-warning.js'

describe('API version pinning', () => {
  let emulator: Emulator
  let box: Sandbox
  const cacheDir = () => join(box.root, 'cache')
  const env = (extra: Record<string, string | undefined> = {}) =>
    box.env({...envVars(emulator.production), TILL_ENV: 'local', TILL_CACHE_DIR: cacheDir(), ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}) => runInProcess(args, {env: env(extra)})
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

  it("till --version names the pinned API version, the service's default 2026-10", async () => {
    expect(API_VERSION).toBe('2026-10')
    // a process: bin/run.js answers --version itself, without loading the CLI
    const r = await runCli(['--version'], {env: env()})
    ok(r)
    expect(r.stdout).toMatch(new RegExp(`^till/\\S+ \\S+ node-v\\S+ polar-api/${API_VERSION}\\n$`))
  })

  it('--debug shows the version sent; TILL_API_VERSION chooses another one the service knows', async () => {
    const pinned = await till(['products', 'list', '--limit', '1', '--debug'])
    ok(pinned)
    expect(pinned.stderr).toContain(`Polar-Version ${API_VERSION}]`)
    const other = await till(['products', 'list', '--limit', '1', '--debug', '-o', 'json'], {TILL_API_VERSION: '2027-01'})
    ok(other)
    expect(other.stderr).toContain('Polar-Version 2027-01]')
    expect(JSON.parse(other.stdout)).toHaveLength(1)
  })

  it('a version the service does not know, or a malformed one, is one usage line naming the three, before anything is sent', async () => {
    const requests = await settledLogFrom(emulator)
    for (const version of ['2031-01', 'latest']) {
      const r = await till(['products', 'list'], {TILL_API_VERSION: version})
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`TILL_API_VERSION must be an API version the service knows, one of 2026-04, 2026-10, 2027-01, not "${version}"`)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
    expect((await requests()).filter((q) => q.path.startsWith('/v1/products'))).toEqual([])
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
    for (const version of ['v2', '2026-07']) {
      const bad = await till(['profiles', 'add', 'bad', '--environment', 'local', '--api-version', version])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain(`--api-version must be an API version the service knows, one of 2026-04, 2026-10, 2027-01, not "${version}"`)
    }
  })

  it("license keys show their member (2026-10 on) as a column and JSON fields; 2026-04's keys have none", async () => {
    const json = await till(['license-keys', 'list', '--limit', '2', '--json', 'id,member_id,member'])
    ok(json)
    const keys = JSON.parse(json.stdout)
    expect(keys).toHaveLength(2)
    for (const key of keys) expect(key).toEqual({id: expect.any(String), member_id: null, member: null})
    const table = await till(['license-keys', 'list', '--limit', '2', '--columns', 'id,member'])
    ok(table)
    expect(table.stdout.split('\n').filter(Boolean)).toEqual(keys.map((k: {id: string}) => `${k.id}\t`))
    const old = await till(['license-keys', 'list', '--limit', '1', '-o', 'json'], {TILL_API_VERSION: '2026-04'})
    ok(old)
    expect(JSON.parse(old.stdout)[0]).not.toHaveProperty('member')
  })

  describe('a version the service does not serve (2026-04 once removed)', () => {
    let removed: Emulator
    beforeAll(async () => {
      removed = await startEmulator({orders: 0, apiVersions: ['2026-10', '2027-01']})
    })
    afterAll(async () => {
      await removed?.stop()
    })
    const at = (extra: Record<string, string | undefined> = {}) => ({...envVars(removed.production), TILL_ENV: 'local', ...extra})

    it('is one line naming the version, who pins it and the command that moves it, not a missing object (exit 2)', async () => {
      const id = crypto.randomUUID()
      const add = await till(['profiles', 'add', 'old', '--environment', 'local', '--url', removed.production.url, '--api-version', '2026-04'])
      ok(add)
      for (const args of [
        ['products', 'list'],
        ['orders', 'get', id],
      ]) {
        const r = await till([...args, '--profile', 'old'], {...at(), TILL_ENV: undefined})
        expect(r.code, r.stderr).toBe(2)
        expect(r.stdout).toBe('')
        const lines = r.stderr.split('\n').filter((l) => l.startsWith('Error: ') || l.startsWith('Hint: '))
        expect(lines).toEqual([
          'Error: the service does not serve API version 2026-04, which profile "old" pins (it answers 404 to every request); move it with: till profiles set old --api-version 2026-10',
        ])
      }
      const env = await till(['products', 'list'], at({TILL_API_VERSION: '2026-04'}))
      expect(env.code).toBe(2)
      expect(env.stderr).toContain(
        'Error: the service does not serve API version 2026-04, which TILL_API_VERSION pins (it answers 404 to every request); move it with: unset TILL_API_VERSION or set it to 2026-10',
      )
      // moved as told, it reads; and a missing object is still a missing object
      ok(await till(['profiles', 'set', 'old', '--api-version', '2026-10'], {TILL_ENV: undefined}))
      ok(await till(['products', 'list', '--profile', 'old'], {...at(), TILL_ENV: undefined}))
      const missing = await till(['orders', 'get', id, '--profile', 'old'], {...at(), TILL_ENV: undefined})
      expect(missing.code).toBe(3)
      expect(missing.stderr).toContain('not found')
      expect(missing.stderr).not.toContain('API version')
    })
  })

  describe('a version the service is removing (2026-04)', () => {
    const WARNING = 'which the service removes in January 2027'
    const addPinned = async (version: string) =>
      ok(await till(['profiles', 'add', 'old', '--environment', 'local', '--url', emulator.production.url, '--api-version', version], {TILL_ENV: undefined}))
    const list = (extra: Record<string, string | undefined> = {}) =>
      till(['products', 'list', '--limit', '1', '-o', 'json', '--profile', 'old'], {TILL_ENV: undefined, ...extra})

    it('a profile pinned to it warns once on stderr, with the command that repins it; not again the same day; never on stdout', async () => {
      await addPinned('2026-04')
      const first = await list()
      ok(first)
      expect(JSON.parse(first.stdout)).toHaveLength(1)
      expect(first.stdout).not.toContain(WARNING)
      const lines = first.stderr.split('\n').filter((l) => l.includes(WARNING))
      expect(lines).toEqual([
        `Warning: profile "old" pins API version 2026-04, which the service removes in January 2027; move to 2026-10 with: till profiles set old --api-version 2026-10`,
      ])
      const file = join(cacheDir(), WARNING_FILE)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const again = await list()
      ok(again)
      expect(again.stderr).not.toContain(WARNING)
      // the next day (the remembered day is an earlier one): shown again, once
      writeFileSync(file, JSON.stringify({'2026-04': '2020-01-01'}))
      const nextDay = await list()
      expect(nextDay.stderr.split(WARNING)).toHaveLength(2)
      expect(JSON.parse(readFileSync(file, 'utf8'))['2026-04']).not.toBe('2020-01-01')
    })

    it('the command it names repins the profile (its other settings kept) and the warning stops', async () => {
      await addPinned('2026-04')
      const set = await till(['profiles', 'set', 'old', '--api-version', '2026-10'], {TILL_ENV: undefined})
      ok(set)
      expect(set.stdout).toBe('')
      const shown = await till(['profiles', 'show', 'old', '--json'], {TILL_ENV: undefined})
      expect(JSON.parse(shown.stdout)).toMatchObject({api_version: '2026-10', api_version_source: 'profile'})
      const used = await list({TILL_DEBUG: '1'})
      ok(used)
      expect(used.stderr).toContain('Polar-Version 2026-10]')
      expect(used.stderr).not.toContain(WARNING)
      const bad = await till(['profiles', 'set', 'old', '--api-version', '2025-01'], {TILL_ENV: undefined})
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('one of 2026-04, 2026-10, 2027-01')
    })

    it('TILL_API_VERSION=2026-04 warns too, saying how to move; 2026-10 and 2027-01 never warn', async () => {
      const old = await till(['products', 'list', '--limit', '1'], {TILL_API_VERSION: '2026-04'})
      ok(old)
      expect(old.stderr).toContain(
        `Warning: TILL_API_VERSION pins API version 2026-04, ${WARNING}; move to 2026-10 with: unset TILL_API_VERSION or set it to 2026-10`,
      )
      expect(old.stdout).not.toContain(WARNING)
      for (const version of [undefined, '2026-10', '2027-01']) {
        const r = await till(['products', 'list', '--limit', '1'], {TILL_API_VERSION: version})
        ok(r)
        expect(r.stderr).not.toContain(WARNING)
      }
    })
  })
})
