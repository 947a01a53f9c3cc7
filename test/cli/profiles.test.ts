// `till profiles ...` and how a command picks its profile, as processes: a private config file, no
// prompt without a terminal, a damaged config reported by name, and precedence between TILL_* variables,
// --profile and the active profile, told apart by which organization the API says the token belongs to
// (two profiles on the production and sandbox environments of one emulator).
import {readFileSync, statSync, writeFileSync, mkdirSync, existsSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {expectNoToken, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('profiles and profile selection', () => {
  let emulator: Emulator
  let box: Sandbox
  const outputs: string[] = []

  const till = async (
    args: string[],
    options: {env?: Record<string, string | undefined>; input?: string; openStdin?: boolean; timeoutMs?: number} = {},
  ): Promise<CliResult> => {
    const result = await runInProcess(args, {env: box.env(options.env), input: options.input, openStdin: options.openStdin, timeoutMs: options.timeoutMs})
    outputs.push(result.stdout, result.stderr)
    return result
  }
  const addProfile = async (name: string, environment: string, handle: EnvHandle, ...flags: string[]) => {
    const r = await till(['profiles', 'add', name, '--environment', environment, '--url', handle.url, '--token-stdin', ...flags], {input: `${handle.token}\n`})
    expect(r.code, r.stderr).toBe(0)
    return r
  }
  /** The id of the organization `till api GET /organizations/` sees. */
  const organization = async (args: string[] = [], env: Record<string, string | undefined> = {}) => {
    const r = await till(['api', 'GET', '/organizations/', ...args], {env})
    expect(r.code, r.stderr).toBe(0)
    const items = JSON.parse(r.stdout).items as Array<{id: string}>
    expect(items).toHaveLength(1)
    return items[0]!.id
  }
  const configFile = () => join(box.configDir, 'config.json')

  beforeAll(async () => {
    emulator = await startEmulator()
    expect(emulator.production.organizationId).not.toBe(emulator.sandbox.organizationId)
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  describe('profiles add', () => {
    it('saves the profile in a config file of mode 0600 (folder 0700), token from stdin', async () => {
      const r = await addProfile('prod', 'production', emulator.production, '--use', '--insecure-storage')
      expect(r.stdout).toBe('')
      // the token is checked first, as auth login does, and its organization named
      expect(r.stderr).toMatch(/^The token belongs to organization .+ \([0-9a-f-]{36}\)\.\nSaved profile "prod" \(production\), now active\.\n$/)
      expect(statSync(configFile()).mode & 0o777).toBe(0o600)
      expect(statSync(box.configDir).mode & 0o777).toBe(0o700)
      const config = JSON.parse(readFileSync(configFile(), 'utf8'))
      expect(config.active).toBe('prod')
      expect(config.profiles.prod).toEqual({
        environment: 'production',
        base_url: emulator.production.url,
        token: emulator.production.token,
        token_store: 'file',
        token_store_reason: 'insecure-storage',
        organization_id: emulator.production.organizationId,
      })
    })

    it('stays 0600 after a second change', async () => {
      await addProfile('prod', 'production', emulator.production)
      await addProfile('sbx', 'sandbox', emulator.sandbox, '--rate-limit', '50/60s')
      const use = await till(['profiles', 'use', 'sbx'])
      expect(use.code, use.stderr).toBe(0)
      expect(statSync(configFile()).mode & 0o777).toBe(0o600)
      const config = JSON.parse(readFileSync(configFile(), 'utf8'))
      expect(config.active).toBe('sbx')
      expect(config.profiles.sbx.rate_limit).toBe('50/60s')
    })

    it('without a terminal and without --token-stdin it fails at once naming the flag (exit 2)', async () => {
      // stdin is an open pipe that never sends anything: waiting on it would hang.
      const r = await till(['profiles', 'add', 'prod', '--environment', 'production'], {openStdin: true, timeoutMs: scaled(15_000)})
      expect(r.signal).toBeNull()
      expect(r.code).toBe(2)
      expect(r.ms).toBeLessThan(scaled(10_000))
      expect(r.stderr).toContain('--token-stdin')
      expect(r.stdout).toBe('')
      expect(existsSync(configFile())).toBe(false)
    })

    it('--token-stdin with nothing on stdin is a usage error', async () => {
      const r = await till(['profiles', 'add', 'prod', '--environment', 'production', '--token-stdin'], {input: ''})
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('--token-stdin')
      expect(existsSync(configFile())).toBe(false)
    })
  })

  describe('listing, showing, removing', () => {
    it('profiles list and show mask the token', async () => {
      await addProfile('prod', 'production', emulator.production, '--use')
      const list = await till(['profiles', 'list', '--json'])
      expect(list.code, list.stderr).toBe(0)
      const rows = JSON.parse(list.stdout) as Array<{name: string; active: boolean; token: string; base_url: string}>
      expect(rows.map((p) => [p.name, p.active])).toEqual([
        ['local', false],
        ['prod', true],
      ])
      expect(rows[1]!.base_url).toBe(emulator.production.url)
      expect(rows[1]!.token).toMatch(/^polar_oat_\w{3}…\w{3}$/)
      const show = await till(['profiles', 'show', '--json'])
      expect(show.code, show.stderr).toBe(0)
      expect(JSON.parse(show.stdout)).toMatchObject({name: 'prod', environment: 'production', token_source: 'profile', rate_limit: '500/60s'})
      for (const r of [list, show]) expectNoToken(r.stdout + r.stderr, emulator.production.token)
    })

    it('remove needs --yes without a terminal, and then falls back to "local"', async () => {
      await addProfile('prod', 'production', emulator.production, '--use')
      const refused = await till(['profiles', 'remove', 'prod'], {openStdin: true})
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('--yes')
      expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles.prod).toBeDefined()
      const removed = await till(['profiles', 'remove', 'prod', '--yes'])
      expect(removed.code, removed.stderr).toBe(0)
      const config = JSON.parse(readFileSync(configFile(), 'utf8'))
      expect(config.profiles.prod).toBeUndefined()
      expect(config.active).toBe('local')
      expect(readFileSync(configFile(), 'utf8')).not.toContain(emulator.production.token)
    })

    it('an unknown --profile is a usage error naming it', async () => {
      const r = await till(['orders', 'list', '-p', 'nope'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('"nope"')
    })
  })

  describe('which profile a command uses', () => {
    // The same file `profiles add` writes (tested above), written directly to keep these tests short.
    beforeEach(() => {
      const profile = (environment: string, handle: EnvHandle) => ({environment, base_url: handle.url, token: handle.token})
      const config = {
        active: 'prod',
        profiles: {local: {environment: 'local'}, prod: profile('production', emulator.production), sbx: profile('sandbox', emulator.sandbox)},
      }
      mkdirSync(box.configDir, {recursive: true, mode: 0o700})
      writeFileSync(configFile(), JSON.stringify(config), {mode: 0o600})
    })

    it('the active profile by default', async () => {
      expect(await organization()).toBe(emulator.production.organizationId)
    })

    it('--profile over the active profile', async () => {
      expect(await organization(['-p', 'sbx'])).toBe(emulator.sandbox.organizationId)
      expect(await organization(['--profile', 'sbx'])).toBe(emulator.sandbox.organizationId)
    })

    it('TILL_PROFILE over the active profile', async () => {
      expect(await organization([], {TILL_PROFILE: 'sbx'})).toBe(emulator.sandbox.organizationId)
    })

    it('TILL_API_URL and TILL_TOKEN over --profile', async () => {
      const env = {TILL_API_URL: emulator.production.url, TILL_TOKEN: emulator.production.token}
      expect(await organization(['-p', 'sbx'], env)).toBe(emulator.production.organizationId)
    })

    it('TILL_TOKEN alone over the profile token (a production token on the sandbox URL is refused: exit 4)', async () => {
      const r = await till(['api', 'GET', '/organizations/', '-p', 'sbx'], {env: {TILL_TOKEN: emulator.production.token}})
      expect(r.code).toBe(4)
      // Refused by the sandbox: the variable's token went to the profile's URL.
      expect(r.stderr).toContain(emulator.sandbox.url)
      expectNoToken(r.stdout + r.stderr, emulator.production.token)
    })

    it('`profiles use` changes the active profile for later commands', async () => {
      const r = await till(['profiles', 'use', 'sbx'])
      expect(r.code, r.stderr).toBe(0)
      expect(await organization()).toBe(emulator.sandbox.organizationId)
    })

    it('profiles show reports the variables over the profile', async () => {
      const r = await till(['profiles', 'show', 'sbx', '--json'], {
        env: {TILL_API_URL: emulator.production.url, TILL_RATE_LIMIT: '20/2s', TILL_ENV: 'production'},
      })
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({
        name: 'sbx',
        environment: 'production',
        base_url: emulator.production.url,
        token_source: 'profile',
        rate_limit: '20/2s',
        rate_limit_source: 'env',
      })
    })

    it('an invalid token exits 4 with a hint naming the profile', async () => {
      await till(['profiles', 'add', 'broken', '--environment', 'production', '--url', emulator.production.url, '--token-stdin', '--no-verify'], {
        input: `polar_oat_${'B'.repeat(43)}`,
      })
      const r = await till(['orders', 'list', '-p', 'broken'])
      expect(r.code).toBe(4)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/^Error: not authenticated/m)
      expect(r.stderr).toMatch(new RegExp(`^Hint: .*profile "broken" \\(production, ${emulator.production.url.replaceAll('.', '\\.')}\\)`, 'm'))
    })
  })

  describe('a damaged config file', () => {
    const damage = (text: string) => {
      mkdirSync(box.configDir, {recursive: true})
      writeFileSync(configFile(), text)
    }

    it('that is not JSON: exit 1 with a message naming the file, for any command', async () => {
      damage('{"active": "prod", "profiles": {')
      for (const args of [
        ['orders', 'list'],
        ['profiles', 'list'],
        ['api', 'GET', '/organizations/'],
      ]) {
        const r = await till(args)
        expect(r.code, args.join(' ')).toBe(1)
        expect(r.stdout).toBe('')
        expect(r.stderr).toContain(`the config file ${configFile()} is not valid`)
      }
    })

    it('with a profile lacking a valid environment: exit 1 naming the file and the profile', async () => {
      damage(JSON.stringify({active: 'odd', profiles: {odd: {environment: 'staging'}}}))
      const r = await till(['orders', 'list'])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(configFile())
      expect(r.stderr).toContain('"odd"')
    })

    it('profiles add reports it before reading a token, and leaves the file alone', async () => {
      damage('not json')
      const r = await till(['profiles', 'add', 'prod', '--environment', 'production', '--token-stdin'], {input: emulator.production.token})
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(configFile())
      expect(readFileSync(configFile(), 'utf8')).toBe('not json')
    })
  })

  it('no output of this file showed a token', () => {
    expect(outputs.length).toBeGreaterThan(30)
    for (const text of outputs) {
      expectNoToken(text, emulator.production.token)
      expectNoToken(text, emulator.sandbox.token)
    }
  })
})
