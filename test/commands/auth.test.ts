// `till auth login|status|logout|token` against a real emulator, through stdin and a pseudo-terminal.
import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoToken, KEY, runAnswering, runShell, runTty, sandbox, sh, TILL, type Sandbox} from '../helpers/cli.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

let emu: Emulator
let box: Sandbox

beforeAll(async () => {
  emu = await startEmulator()
  box = sandbox()
})

afterAll(async () => {
  await emu?.stop()
  box?.cleanup()
})

const config = () =>
  JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as {
    active: string
    profiles: Record<string, {token?: string; environment: string; organization_id?: string}>
  }

function login(args: string[], token: string, env = box.env()) {
  return runInProcess(['auth', 'login', ...args, '--token-stdin'], {env, input: `${token}\n`})
}

describe('auth login', () => {
  it('verifies a token from stdin, stores it privately as the active profile and shows the organization', async () => {
    const r = await login(['--environment', 'sandbox', '--url', emu.sandbox.url], emu.sandbox.token)
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('Signed in to sandbox as organization Acme Software (Sandbox)')
    expect(r.stdout).toBe('')
    expectNoToken(r.stdout + r.stderr, emu.sandbox.token)
    const c = config()
    expect(c.active).toBe('sandbox')
    expect(c.profiles.sandbox).toMatchObject({environment: 'sandbox', token: emu.sandbox.token, organization_id: emu.sandbox.organizationId})
    expect(statSync(join(box.configDir, 'config.json')).mode & 0o777).toBe(0o600)
  })

  it('reads the token from a hidden prompt on a terminal with --no-web', async () => {
    const command = `${TILL} ${['auth', 'login', '--no-web', '--environment', 'production', '--url', emu.production.url, '--name', 'prod-tty'].map(sh).join(' ')}`
    const r = await runAnswering(command, box.env(), [{when: /token/i, send: `${emu.production.token}${KEY.enter}`}])
    expect(r.code).toBe(0)
    expect(r.unanswered).toBe(0)
    expect(r.stdout).toContain('Signed in to production as organization Acme Software')
    expect(r.stdout).not.toContain(emu.production.token)
    expect(config().profiles['prod-tty']!.token).toBe(emu.production.token)
  })

  it('on a terminal without an OAuth2 client for the environment, falls back to the hidden token prompt and says so', async () => {
    // A fresh install: no client for sandbox, a URL that is not the emulator's (so no built-in client either).
    const fresh = sandbox()
    try {
      const command = `${TILL} ${['auth', 'login', '--url', 'https://api.invalid/v1', '--force'].map(sh).join(' ')}`
      const r = await runAnswering(command, fresh.env(), [
        {when: /Environment of the token/, send: `${KEY.down}${KEY.enter}`},
        {when: /Organization access token \(sandbox\)/, send: `polar_oat_${'x'.repeat(40)}${KEY.enter}`},
      ])
      expect(r.unanswered, r.stdout).toBe(0)
      expect(r.stdout).toContain('No OAuth2 client is configured for sandbox, so till asks for an organization access token instead')
      expect(r.stdout).toContain('--no-web')
      expect(r.stdout).not.toContain('no OAuth2 client to sign in')
      expect(r.code, r.stdout).toBe(0)
      const saved = JSON.parse(readFileSync(join(fresh.configDir, 'config.json'), 'utf8'))
      expect(saved.profiles.sandbox).toMatchObject({environment: 'sandbox', token: `polar_oat_${'x'.repeat(40)}`})
    } finally {
      fresh.cleanup()
    }
  })

  it('refuses to store a token the environment does not accept, unless --force', async () => {
    const refused = await login(['--environment', 'sandbox', '--url', emu.sandbox.url, '--name', 'mixed'], emu.production.token)
    expect(refused.code).toBe(4)
    expect(refused.stderr).toMatch(/sandbox does not accept this token .*other environment.*nothing was saved/)
    expect(config().profiles.mixed).toBeUndefined()

    const forced = await login(['--environment', 'sandbox', '--url', emu.sandbox.url, '--name', 'mixed', '--force'], emu.production.token)
    expect(forced.code).toBe(0)
    expect(forced.stderr).toContain('saving it anyway (--force)')
    expect(config().profiles.mixed!.token).toBe(emu.production.token)
  })

  it('warns when the token does not look like an organization token', async () => {
    const r = await login(
      ['--environment', 'sandbox', '--url', emu.sandbox.url, '--name', 'odd', '--force'],
      'polar_pat_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH',
    )
    expect(r.stderr).toContain('does not look like an organization access token')
  })

  it('fails at once without a terminal or --token-stdin, naming the flag', async () => {
    const r = await runInProcess(['auth', 'login', '--environment', 'sandbox'], {env: box.env(), openStdin: true, timeoutMs: scaled(10_000)})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--token-stdin')
    expect(r.ms).toBeLessThan(scaled(9000))
  })
})

describe('auth status', () => {
  it('shows the profile, environment, organization and the token masked', async () => {
    const r = await runInProcess(['auth', 'status', '--profile', 'sandbox', '--json'], {env: box.env()})
    expect(r.code).toBe(0)
    const status = JSON.parse(r.stdout) as Record<string, string>
    const body = emu.sandbox.token.slice('polar_oat_'.length)
    expect(status).toMatchObject({profile: 'sandbox', environment: 'sandbox', base_url: emu.sandbox.url, works: 'yes', token_source: 'profile'})
    expect(status.token).toBe(`polar_oat_${body.slice(0, 3)}…${body.slice(-3)}`)
    expect(status.organization).toContain(emu.sandbox.organizationId)
    expect(status.rate_budget).toBe('100/min (environment), 100/s per IP')
    expectNoToken(r.stdout + r.stderr, emu.sandbox.token)
  })

  it('exits 4 when the token is not usable', async () => {
    const r = await runInProcess(['auth', 'status', '--profile', 'mixed'], {env: box.env()})
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('profile "mixed" cannot be used')
  })
})

describe('environment mix-up', () => {
  it('says when a token of one environment is sent to the other', async () => {
    // the production token, stored in profile prod-tty, sent to the sandbox profile's URL
    const r = await runInProcess(['products', 'list', '--profile', 'sandbox'], {env: box.env({TILL_TOKEN: emu.production.token})})
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('this token is the one of profile "prod-tty" (production), but it was sent to sandbox')
    expectNoToken(r.stdout + r.stderr, emu.production.token)
  })
})

describe('auth token and logout', () => {
  it('prints the token only into a pipe, as its hint says (--show-token is no longer needed, still accepted)', async () => {
    const piped = await runShell(`${TILL} auth token --profile sandbox | cat`, {env: box.env()})
    expect(piped.code).toBe(0)
    expect(piped.stdout.trim()).toBe(emu.sandbox.token)
    const old = await runInProcess(['auth', 'token', '--show-token', '--profile', 'sandbox'], {env: box.env()})
    expect(old.code).toBe(0)
    expect(old.stdout.trim()).toBe(emu.sandbox.token)
    const bare = await runTty(`${TILL} auth token --profile sandbox`, {env: box.env()})
    expect(bare.code).toBe(2)
    expect(bare.stdout).toContain('till auth token | other-tool')
    expect(bare.stdout).not.toContain(emu.sandbox.token)
    const tty = await runTty(`${TILL} auth token --show-token --profile sandbox`, {env: box.env()})
    expect(tty.code).toBe(2)
    expect(tty.stdout).toContain('refusing to print a token to a terminal')
    expect(tty.stdout).not.toContain(emu.sandbox.token)
  })

  it('logout removes the stored token; the profile then cannot be used', async () => {
    const r = await runInProcess(['auth', 'logout', '--profile', 'mixed'], {env: box.env()})
    expect(r.code).toBe(0)
    expect(config().profiles.mixed!.token).toBeUndefined()
    expect(config().profiles.mixed!.environment).toBe('sandbox')
    const status = await runInProcess(['auth', 'status', '--profile', 'mixed'], {env: box.env()})
    expect(status.code).toBe(4)
  })
})
