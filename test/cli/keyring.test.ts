// Tokens in the OS keyring, against a real Secret Service (gnome-keyring-daemon on a private D-Bus session,
// test/helpers/keyring.ts): sign-in stores there and not in the file, a file token moves on first use, and
// --insecure-storage keeps the file; with no D-Bus, a locked keyring or a bus that never answers, the token
// stays in the file (said once) or where it is, and no command hangs.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:net'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoToken, linesOf, runCli, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {api, control, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {startSecretService, type SecretService} from '../helpers/keyring.js'
import {eventually, scaled, waitUntil} from '../helpers/machine.js'

let emu: Emulator
let service: SecretService

beforeAll(async () => {
  service = startSecretService()
  emu = await startEmulator()
}, scaled(60_000))

afterAll(async () => {
  await emu?.stop()
  service?.stop()
})

interface Profile {
  environment: string
  token?: string
  base_url?: string
  token_store?: string
  token_store_reason?: string
  keyring?: {account: string; holds: string}
}

const profiles = (box: Sandbox) => (JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as {profiles: Record<string, Profile>}).profiles

/** A sandbox whose till processes reach the test's Secret Service (unless `keyring` is false: no D-Bus at all). */
function withKeyring(keyring = true) {
  const box = sandbox()
  return {box, env: (extra: Record<string, string | undefined> = {}) => box.env({...(keyring ? service.env : {}), ...extra})}
}

const till = (args: string[], env: NodeJS.ProcessEnv, input?: string) => runInProcess(args, {env, input})
const login = (name: string, env: NodeJS.ProcessEnv, extra: string[] = []) =>
  till(['auth', 'login', '--environment', 'sandbox', '--url', emu.sandbox.url, '--name', name, '--token-stdin', ...extra], env, `${emu.sandbox.token}\n`)
/** Waits until till has printed the authorize URL on stderr, and returns it. */
async function authorizeUrl(stderr: () => string): Promise<string> {
  let found: string | undefined
  const shown = () => (found = /http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?\S+/.exec(stderr())?.[0]) !== undefined
  if (await waitUntil(shown, 20_000)) return found!
  throw new Error(`no authorize URL printed; stderr: ${stderr()}`)
}

/** Says Allow on the emulator's authorize page as a browser would: its form posted, its redirect followed. */
async function allow(url: string): Promise<void> {
  const page = await (await fetch(url)).text()
  const form = new URLSearchParams({action: 'allow'})
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(
      name!,
      value!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
    )
  }
  const consent = await fetch(new URL('/oauth2/authorize', url), {method: 'POST', body: form, redirect: 'manual'})
  const location = consent.headers.get('location')
  if (!location) throw new Error(`the authorize page answered ${consent.status} without a redirect`)
  await (await fetch(location)).text()
}

const keyringLines = (stderr: string) => linesOf(stderr).filter((l) => /keyring/i.test(l))

/** A profile as a till from before the keyring saved it: the token in the file. */
function writeFileProfile(box: Sandbox, name: string): void {
  const config = {active: name, profiles: {[name]: {environment: 'sandbox', base_url: emu.sandbox.url, token: emu.sandbox.token}}}
  mkdirSync(box.configDir, {recursive: true, mode: 0o700})
  writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(config), {mode: 0o600})
}

describe('tokens in the OS keyring (a real Secret Service)', () => {
  it('auth login stores the token in the keyring and not in the file; commands, auth status and profiles list use and say it', async () => {
    const {box, env} = withKeyring()
    try {
      const r = await login('kr', env())
      expect(r.code, r.stderr).toBe(0)
      expect(keyringLines(r.stderr)).toEqual([])
      const stored = profiles(box).kr!
      expect(stored.token).toBeUndefined()
      expect(stored).toMatchObject({token_store: 'keyring', keyring: {holds: 'token'}})
      expect(readFileSync(join(box.configDir, 'config.json'), 'utf8')).not.toContain(emu.sandbox.token)
      expect(JSON.parse(service.lookup(stored.keyring!.account)!)).toEqual({token: emu.sandbox.token})

      const products = await till(['products', 'list', '--limit', '1', '--json'], env())
      expect(products.code, products.stderr).toBe(0)
      expect(products.stderr).toBe('')
      const status = await till(['auth', 'status', '--json'], env())
      expect(status.code, status.stderr).toBe(0)
      expect(JSON.parse(status.stdout)).toMatchObject({profile: 'kr', token_store: 'keyring', token_store_reason: null, works: 'yes'})
      const list = await till(['profiles', 'list', '--json'], env())
      expect(JSON.parse(list.stdout)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({name: 'kr', token: '(in the OS keyring)', token_store: 'keyring'}),
          expect.objectContaining({name: 'local', token_store: null}),
        ]),
      )
      const table = await till(['profiles', 'list'], env())
      expect(linesOf(table.stdout).find((l) => l.includes('kr'))).toMatch(/\tkeyring$/)
      expectNoToken(products.stdout + status.stdout + status.stderr + list.stdout + table.stdout, emu.sandbox.token)

      // signing out removes the keyring's entry
      const out = await till(['auth', 'logout'], env())
      expect(out.code, out.stderr).toBe(0)
      expect(service.lookup(stored.keyring!.account)).toBeNull()
      expect(profiles(box).kr).not.toHaveProperty('keyring')
    } finally {
      box.cleanup()
    }
  })

  it('a command of a keyring profile has its entry read while till starts, in a real process; another profile or TILL_TOKEN reads none ahead', async () => {
    const {box, env} = withKeyring()
    try {
      expect((await login('kr', env())).code).toBe(0)
      const AHEAD = 'the keyring entry of profile "kr" was read while till started'
      const products = await runCli(['products', 'list', '--limit', '1', '--json', '--debug'], {env: env()})
      expect(products.code, products.stderr).toBe(0)
      expect(products.stderr).toContain(AHEAD)
      expect(JSON.parse(products.stdout)).toHaveLength(1)
      expectNoToken(products.stdout + products.stderr, emu.sandbox.token)
      // the local profile has no entry; with TILL_TOKEN the keyring is not asked at all
      const local = await runCli(['products', 'list', '--limit', '1', '-p', 'local', '--debug'], {env: env({TILL_API_URL: emu.production.url})})
      expect(local.stderr).not.toContain('was read while till started')
      const given = await runCli(['products', 'list', '--limit', '1', '--debug'], {env: env({TILL_TOKEN: emu.sandbox.token})})
      expect(given.code, given.stderr).toBe(0)
      expect(given.stderr).not.toContain('keyring')
      // a command that ends before it needs the token does not wait for the entry read ahead
      const typo = await runCli(['products', 'list', '--limit', 'many'], {env: env()})
      expect(typo.code).toBe(2)
    } finally {
      box.cleanup()
    }
  })

  it('moves a token saved in the file before on first use, with no prompt, and says so once', async () => {
    const {box, env} = withKeyring()
    try {
      writeFileProfile(box, 'old')
      const first = await till(['products', 'list', '--limit', '1'], env())
      expect(first.code, first.stderr).toBe(0)
      expect(keyringLines(first.stderr)).toEqual([`Moved the token of profile "old" from ${join(box.configDir, 'config.json')} into the OS keyring.`])
      const stored = profiles(box).old!
      expect(stored.token).toBeUndefined()
      expect(stored.token_store).toBe('keyring')
      expect(JSON.parse(service.lookup(stored.keyring!.account)!)).toEqual({token: emu.sandbox.token})
      const again = await till(['products', 'list', '--limit', '1'], env())
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toBe('')
      // removing the profile removes its entry
      const removed = await till(['profiles', 'remove', 'old', '--yes'], env())
      expect(removed.code, removed.stderr).toBe(0)
      expect(service.lookup(stored.keyring!.account)).toBeNull()
    } finally {
      box.cleanup()
    }
  })

  it('--insecure-storage keeps the token in the file, and the keyring untouched', async () => {
    const {box, env} = withKeyring()
    try {
      const r = await login('plain', env(), ['--insecure-storage'])
      expect(r.code, r.stderr).toBe(0)
      expect(keyringLines(r.stderr)).toEqual([])
      expect(profiles(box).plain).toMatchObject({token: emu.sandbox.token, token_store: 'file', token_store_reason: 'insecure-storage'})
      const status = await till(['auth', 'status', '--json'], env())
      expect(JSON.parse(status.stdout)).toMatchObject({token_store: 'file', token_store_reason: 'insecure-storage'})
      const list = await till(['profiles', 'list', '--json'], env())
      expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({name: 'plain', token_store: 'file'})]))
      // nothing moves it on use either
      const used = await till(['products', 'list', '--limit', '1'], env())
      expect(used.code, used.stderr).toBe(0)
      expect(profiles(box).plain!.token).toBe(emu.sandbox.token)

      // signing in again to a profile kept in the keyring, with --insecure-storage, leaves no copy there
      const kept = await login('moved-out', env())
      const account = profiles(box)['moved-out']!.keyring!.account
      expect(service.lookup(account)).not.toBeNull()
      const out = await login('moved-out', env(), ['--insecure-storage'])
      expect(out.code, out.stderr).toBe(0)
      expect(kept.code).toBe(0)
      expect(service.lookup(account)).toBeNull()
      expect(profiles(box)['moved-out']).toMatchObject({token: emu.sandbox.token, token_store: 'file'})
    } finally {
      box.cleanup()
    }
  })

  it('with no D-Bus session keeps the token in the file, said once on stderr, then nothing', async () => {
    const {box, env} = withKeyring(false)
    try {
      const r = await login('headless', env())
      expect(r.code, r.stderr).toBe(0)
      expect(keyringLines(r.stderr)).toEqual([
        `The OS keyring could not be used: no D-Bus session for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set); the token of profile "headless" is kept in ${join(box.configDir, 'config.json')} (mode 0600).`,
      ])
      expect(profiles(box).headless).toMatchObject({token: emu.sandbox.token, token_store: 'file', token_store_reason: 'no-keyring'})
      const used = await till(['products', 'list', '--limit', '1'], env())
      expect(used.code, used.stderr).toBe(0)
      expect(used.stderr).toBe('')
      const status = await till(['auth', 'status', '--json'], env())
      expect(JSON.parse(status.stdout)).toMatchObject({token_store: 'file', token_store_reason: 'no-keyring'})
      // a person reads it in words
      const shown = await till(['auth', 'status', '-o', 'table'], env())
      expect(shown.stdout).toMatch(/^Token store +the config file$/m)
      expect(shown.stdout).toMatch(/^Kept there because +no OS keyring could be used$/m)
      expect(shown.stdout).not.toContain('no-keyring')

      // an old file token: said once, kept, and the next run says nothing
      writeFileProfile(box, 'old')
      const first = await till(['products', 'list', '--limit', '1'], env())
      expect(first.code, first.stderr).toBe(0)
      expect(keyringLines(first.stderr)).toHaveLength(1)
      expect(profiles(box).old).toMatchObject({token: emu.sandbox.token, token_store: 'file', token_store_reason: 'no-keyring'})
      const second = await till(['products', 'list', '--limit', '1'], env())
      expect(second.stderr).toBe('')
    } finally {
      box.cleanup()
    }
  })

  it('a browser sign-in: both tokens in the keyring, a renewal writes the new pair there, logout revokes and removes it', async () => {
    const {box, env} = withKeyring()
    try {
      const running = spawnCli(['auth', 'login', '--web', '--no-browser', '--environment', 'sandbox', '--url', emu.sandbox.url, '--name', 'web'], {
        env: env(),
      })
      await allow(await authorizeUrl(running.stderr))
      const signedIn = await running.done
      expect(signedIn.code, signedIn.stderr).toBe(0)
      expect(keyringLines(signedIn.stderr)).toEqual([])
      const stored = profiles(box).web!
      expect(stored).toMatchObject({token_store: 'keyring', keyring: {holds: 'oauth'}})
      expect(stored).not.toHaveProperty('oauth')
      const first = JSON.parse(service.lookup(stored.keyring!.account)!) as {oauth: {access_token: string; refresh_token: string}}
      expect(first.oauth.refresh_token).toMatch(/^polar_rt_/)
      const file = readFileSync(join(box.configDir, 'config.json'), 'utf8')
      expect(file).not.toContain(first.oauth.access_token)
      expect(file).not.toContain(first.oauth.refresh_token)

      expect((await control(emu.sandbox, 'POST', 'oauth2/expire-access-tokens')).status).toBe(200)
      const renewed = await till(['products', 'list', '--limit', '1'], env())
      expect(renewed.code, renewed.stderr).toBe(0)
      const second = JSON.parse(service.lookup(stored.keyring!.account)!) as {oauth: {access_token: string; refresh_token: string}}
      expect(second.oauth.access_token).not.toBe(first.oauth.access_token)
      expect(second.oauth.refresh_token).not.toBe(first.oauth.refresh_token)
      expect(profiles(box).web).toEqual(stored)
      const status = await till(['auth', 'status', '--json'], env())
      expect(JSON.parse(status.stdout)).toMatchObject({credential: 'browser sign-in (OAuth2)', token_store: 'keyring', works: 'yes'})

      const out = await till(['auth', 'logout'], env())
      expect(out.code, out.stderr).toBe(0)
      expect(out.stderr).toContain('Revoked and removed the browser sign-in of profile "web"')
      expect(service.lookup(stored.keyring!.account)).toBeNull()
    } finally {
      box.cleanup()
    }
  })

  it('a bus that never answers: the command goes on after the deadline with the token in the file, and a keyring token fails clearly', async () => {
    const {box, env} = withKeyring()
    const socket = join(box.root, 'silent-bus')
    // takes every connection and never says a word, as a keyring waiting at an unlock prompt nobody sees
    let connections = 0
    let open = 0
    const silent: Server = createServer((c) => {
      connections++
      open++
      c.on('data', () => {})
      c.on('close', () => open--)
    }).listen(socket)
    try {
      await new Promise((resolve) => silent.once('listening', resolve))
      const hung = env({DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`})
      const r = await login('slow', hung)
      expect(r.code, r.stderr).toBe(0)
      expect(keyringLines(r.stderr)).toEqual([
        expect.stringMatching(/^The OS keyring could not be used: no answer within 5s .*the token of profile "slow" is kept in/),
      ])
      expect(profiles(box).slow).toMatchObject({token: emu.sandbox.token, token_store: 'file'})

      // a token kept in the keyring, when the keyring does not answer: exit 4 naming it; the entry stays
      expect((await login('kept', env())).code).toBe(0)
      const account = profiles(box).kept!.keyring!.account
      const failed = await till(['products', 'list', '--limit', '1'], hung)
      expect(failed.code).toBe(4)
      expect(failed.stderr).toMatch(/^Error: the token of profile "kept" is in the OS keyring, which could not be used: no answer within 5s/)
      expect(failed.stderr).toContain('Hint: unlock the keyring')
      expect(JSON.parse(service.lookup(account)!)).toEqual({token: emu.sandbox.token})

      // what reads no stored token never asks the keyring (nor loads its binding): not one connection to the bus
      connections = 0
      for (const args of [
        ['profiles', 'list'],
        ['profiles', 'show', 'kept'],
        ['products', 'list', '--help'],
      ]) {
        const r = await till(args, hung)
        expect(r.code, r.stderr).toBe(0)
      }
      const withEnvToken = await till(['products', 'list', '--limit', '1', '-p', 'kept'], {...hung, TILL_TOKEN: emu.sandbox.token})
      expect(withEnvToken.code, withEnvToken.stderr).toBe(0)
      const version = await runCli(['--version'], {env: hung})
      expect(version.code, version.stderr).toBe(0)
      // nor, in a real process (where the keyring is read ahead while till starts), do these
      for (const args of [
        ['profiles', 'list'],
        ['products', 'list', '--help'],
        ['emulator', 'status'],
      ])
        await runCli(args, {env: hung})
      expect(connections).toBe(0)

      // a command that ends before it needs its token (a usage error) leaves no child of its read ahead
      const typo = await runCli(['products', 'list', '--limit', 'many'], {env: hung})
      expect(typo.code).toBe(2)
      expect(typo.stderr).not.toContain('keyring')
      await eventually('no read ahead left on the bus', () => open === 0)
      // one stopped while it waits for the keyring: its child, still waiting on the bus, is stopped with it
      const waiting = spawnCli(['products', 'list', '--limit', '1'], {env: hung})
      await eventually('the read ahead to reach the bus', () => open === 1)
      waiting.child.kill('SIGTERM')
      expect((await waiting.done).code).toBe(130)
      await eventually("the read ahead's child to be stopped with the command", () => open === 0)
    } finally {
      silent.close()
      box.cleanup()
    }
  })

  // the last test: it leaves the keyring locked
  it("an entry without a token is damaged (exit 4, naming it); a profile with a URL of its own never takes the data folder's token", async () => {
    const {box, env} = withKeyring()
    try {
      // the default data folder's emulator token, which the emulator at the profiles' URL takes
      mkdirSync(join(box.dataDir, 'emulator'), {recursive: true})
      writeFileSync(join(box.dataDir, 'emulator', 'credentials.json'), JSON.stringify({production: {token: emu.production.token}}))
      const account = 'k1@0000test'
      const own = {environment: 'local', base_url: emu.production.url}
      const config = {
        active: 'k1',
        profiles: {k1: {...own, token_store: 'keyring', keyring: {account, holds: 'token'}}, k2: own, k3: {...own, token: ''}, local: own},
      }
      mkdirSync(box.configDir, {recursive: true, mode: 0o700})
      writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(config), {mode: 0o600})
      for (const entry of ['{"token":""}', '{"oauth":{"access_token":""}}', '{}', 'null', 'not json']) {
        service.store(account, entry)
        const r = await till(['products', 'list', '--limit', '1'], env())
        expect(r.code, `${entry}: ${r.stderr}`).toBe(4)
        expect(r.stdout).toBe('')
        expect(linesOf(r.stderr)).toEqual([
          `Error: the OS keyring's entry for profile "k1" (service "till", account "${account}") is damaged: it ${entry.includes('""') ? 'holds an empty token' : 'holds no token till stored'}`,
          'Hint: sign in again: till auth login -p k1',
        ])
      }
      // no credential of its own, or an empty one in the file: no token, never the data folder's
      const k2 = await till(['products', 'list', '--limit', '1', '-p', 'k2'], env())
      expect(k2.code, k2.stderr).toBe(4)
      expect(linesOf(k2.stderr)[0]).toBe('Error: profile "k2" (local) has no token')
      const k3 = await till(['products', 'list', '--limit', '1', '-p', 'k3'], env())
      expect(k3.code, k3.stderr).toBe(4)
      expect(linesOf(k3.stderr)[0]).toBe('Error: the token of profile "k3" is empty')
      // the local profile, with a URL of its own, is the one `till emulator start` serves from that folder
      const local = await till(['products', 'list', '--limit', '1', '-p', 'local', '-o', 'json'], env())
      expect(local.code, local.stderr).toBe(0)
      expect(JSON.parse(local.stdout)).toHaveLength(1)
    } finally {
      box.cleanup()
    }
  })

  it('a locked keyring loses no token: a keyring token fails clearly (exit 4), a file token stays in the file and works', async () => {
    const {box, env} = withKeyring()
    try {
      expect((await login('locked', env())).code).toBe(0)
      const stored = profiles(box).locked!
      writeFileProfile(box, 'old') // replaces the file: keep the keyring profile beside it
      const config = JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8'))
      config.profiles.locked = stored
      writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(config), {mode: 0o600})
      service.lock()

      const failed = await till(['products', 'list', '--limit', '1', '-p', 'locked'], env())
      expect(failed.code).toBe(4)
      expect(failed.stderr).toMatch(/^Error: the token of profile "locked" is in the OS keyring, which could not be used: .+/)
      const status = await till(['auth', 'status', '-p', 'locked', '--json'], env())
      expect(status.code).toBe(4)
      expect(JSON.parse(status.stdout)).toMatchObject({
        token_store: 'keyring',
        works: expect.stringMatching(/^no: the token of profile "locked" is in the OS keyring/),
      })
      expect(profiles(box).locked).toEqual(stored)
      // the portal acting for a customer (TILL_CUSTOMER_TOKEN) needs no organization token: it still runs
      const customer = (await api(emu.sandbox, 'GET', '/customers/?limit=1')).body.items[0]
      const session = (await api(emu.sandbox, 'POST', '/customer-sessions/', {body: {customer_id: customer.id}})).body.token as string
      const portal = await till(['portal', 'session', 'show', '--json', '-p', 'locked'], env({TILL_CUSTOMER_TOKEN: session}))
      expect(portal.code, portal.stderr).toBe(0)
      expect(JSON.parse(portal.stdout).email).toBe(customer.email)

      const old = await till(['products', 'list', '--limit', '1', '-p', 'old'], env())
      expect(old.code, old.stderr).toBe(0)
      expect(keyringLines(old.stderr)).toEqual([expect.stringMatching(/^The OS keyring could not be used: .*the token of profile "old" is kept in/)])
      expect(profiles(box).old).toMatchObject({token: emu.sandbox.token, token_store: 'file', token_store_reason: 'no-keyring'})
    } finally {
      box.cleanup()
    }
  })
})
