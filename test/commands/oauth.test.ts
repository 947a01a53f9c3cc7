// `till auth login --web` driven by a real headless Chromium against the emulator's authorize page:
// Allow stores the tokens and Core commands work with them; Deny and a tampered state are refused
// (exit 4, nothing saved); an expired access token is renewed unnoticed; logout revokes. No token in
// any output.
import {existsSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'

import {spawn} from 'node:child_process'

import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoToken, runCli, sandbox, sh, spawnCli, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control, ROOT, startEmulator, type Emulator} from '../helpers/emulator.js'
import {TILL_SCOPES} from '../../src/client/oauth.js'
import {chromiumTool, launchChromium} from '../helpers/tools.js'
import {scaled, waitUntil} from '../helpers/machine.js'

let emu: Emulator
let box: Sandbox
let browser: Browser
const CHROMIUM = chromiumTool()

beforeAll(async () => {
  ;[emu, browser] = await Promise.all([startEmulator(), CHROMIUM.path ? launchChromium(CHROMIUM.path) : (undefined as unknown as Browser)])
  box = sandbox()
}, scaled(60_000))

afterAll(async () => {
  await browser?.close()
  await emu?.stop()
  box?.cleanup()
})

interface OAuthProfile {
  environment: string
  token?: string
  organization_id?: string
  oauth_client_id?: string
  oauth?: {access_token: string; refresh_token: string; expires_at: string; scope: string; client_id: string}
}
const config = () => JSON.parse(readFileSync(join(box.configDir, 'config.json'), 'utf8')) as {active: string; profiles: Record<string, OAuthProfile>}

/** Waits until till has printed the authorize URL on stderr, and returns it. */
async function authorizeUrl(stderr: () => string): Promise<string> {
  let found: string | undefined
  const shown = () => (found = /http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?\S+/.exec(stderr())?.[0]) !== undefined
  if (await waitUntil(shown, 10_000)) return found!
  throw new Error(`no authorize URL printed; stderr: ${stderr()}`)
}

/** `till auth login --web --no-browser` for profile `name`; `act` plays the user in the browser. */
async function browserLogin(name: string, act: (page: Page, url: string) => Promise<void>): Promise<{result: CliResult; url: string; page: Page}> {
  const running = spawnCli(['auth', 'login', '--web', '--no-browser', '--environment', 'sandbox', '--url', emu.sandbox.url, '--name', name], {env: box.env()})
  const url = await authorizeUrl(running.stderr)
  const page = await browser.newPage()
  await act(page, url)
  const result = await running.done
  return {result, url, page}
}

const allow = async (page: Page, url: string) => {
  await page.goto(url)
  await page.click('button[value=allow]')
  await page.waitForURL(/\/oauth\/callback/)
}

const tokenOf = (name: string) => config().profiles[name]!.oauth!

function expectNoTokens(text: string, ...tokens: string[]) {
  for (const t of tokens) expectNoToken(text, t)
}

describe.skipIf(CHROMIUM.missing)(`till auth login --web in a real browser${CHROMIUM.skipped}`, () => {
  it('prints the URL; the page lists the scopes; Allow stores the tokens (0600) and Core commands work with them', async () => {
    const {result, url, page} = await browserLogin('web', async (p, u) => {
      await p.goto(u)
      expect(await p.textContent('#organization')).toBe('Acme Software (Sandbox)')
      const scopes = await p.locator('#scopes li').allTextContents()
      expect(scopes).toEqual(TILL_SCOPES)
      expect(scopes).toContain('refunds:write')
      await p.click('button[value=allow]')
      await p.waitForURL(/\/oauth\/callback/)
    })
    expect(await page.textContent('h1')).toBe('Signed in to till')
    await page.close()
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('')
    const params = new URL(url).searchParams
    expect(params.get('code_challenge_method')).toBe('S256')
    expect(params.get('response_type')).toBe('code')
    expect(params.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/)
    expect(result.stderr).toContain('Signed in to sandbox through the browser as organization Acme Software (Sandbox)')

    const c = config()
    expect(c.active).toBe('web')
    const stored = c.profiles.web!
    expect(stored.token).toBeUndefined()
    expect(stored.organization_id).toBe(emu.sandbox.organizationId)
    expect(stored.oauth!.access_token).toMatch(/^polar_at_u_/)
    expect(stored.oauth!.refresh_token).toMatch(/^polar_rt_u_/)
    expect(Date.parse(stored.oauth!.expires_at)).toBeGreaterThan(Date.now())
    expect(statSync(join(box.configDir, 'config.json')).mode & 0o777).toBe(0o600)
    expectNoTokens(result.stdout + result.stderr, stored.oauth!.access_token, stored.oauth!.refresh_token)

    const products = await runInProcess(['products', 'list', '-o', 'json'], {env: box.env()})
    expect(products.code, products.stderr).toBe(0)
    expect(JSON.parse(products.stdout).length).toBeGreaterThan(0)
    // It asked for every scope derived from till's requests, and the topics only those cover work.
    expect(params.get('scope')).toBe(TILL_SCOPES.join(' '))
    expect(stored.oauth!.scope.split(' ').sort()).toEqual([...TILL_SCOPES].sort())
    const topics = ['discounts', 'meters', 'events', 'files', 'payments', 'disputes', 'custom-fields', 'customer-meters']
    const lists = await Promise.all(topics.map((t) => runInProcess([t, 'list', '-o', 'json'], {env: box.env()})))
    lists.forEach((r, i) => {
      expect(r.code, `${topics[i]} list: ${r.stderr}`).toBe(0)
      expect(Array.isArray(JSON.parse(r.stdout))).toBe(true)
    })

    const status = await runInProcess(['auth', 'status', '--json'], {env: box.env()})
    expect(status.code, status.stderr).toBe(0)
    const s = JSON.parse(status.stdout)
    expect(s).toMatchObject({profile: 'web', credential: 'browser sign-in (OAuth2)', token_source: 'oauth', works: 'yes', refreshable: true})
    expect(s.scopes).toContain('products:write')
    expect(s).toMatchObject({missing_scopes: [], failing: []})
    expect(status.stderr).toContain("This sign-in holds every scope till's commands need.")
    expect(s.expires_at).toBe(config().profiles.web!.oauth!.expires_at)
    expect(s.token).toMatch(/^polar_at_u_.{3}….{3}$/)
    expectNoTokens(status.stdout + status.stderr, stored.oauth!.access_token, stored.oauth!.refresh_token)
  })

  it('renews an access token the service expired, and one about to expire, without the user noticing', async () => {
    const before = tokenOf('web')
    const expired = await control(emu.sandbox, 'POST', 'oauth2/expire-access-tokens')
    expect(expired.status).toBe(200)
    expect((await api(emu.sandbox, 'GET', '/products/', {token: before.access_token})).status).toBe(401)

    // The profile still thinks the token is good: the 401 makes till renew it once, and send again.
    const r = await runInProcess(['products', 'list', '-o', 'json', '--debug'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0)
    expect(r.stderr).toContain('renewed')
    const after = tokenOf('web')
    expect(after.access_token).not.toBe(before.access_token)
    expect(after.refresh_token).not.toBe(before.refresh_token) // rotation
    expectNoTokens(r.stdout + r.stderr, before.access_token, before.refresh_token, after.access_token, after.refresh_token)
    // The used refresh token is spent.
    const reuse = await api(emu.sandbox, 'POST', '/oauth2/token', {
      token: null,
      headers: {'content-type': 'application/x-www-form-urlencoded'},
      rawBody: new URLSearchParams({grant_type: 'refresh_token', refresh_token: before.refresh_token, client_id: before.client_id}).toString(),
    })
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')

    // An expiry the profile knows is past: renewed before the request is sent.
    const file = join(box.configDir, 'config.json')
    const c = config()
    c.profiles.web!.oauth!.expires_at = new Date(Date.now() - 60_000).toISOString()
    const {writeFileSync} = await import('node:fs')
    writeFileSync(file, JSON.stringify(c), {mode: 0o600})
    const again = await runInProcess(['orders', 'list', '-o', 'json'], {env: box.env()})
    expect(again.code, again.stderr).toBe(0)
    expect(tokenOf('web').access_token).not.toBe(after.access_token)
    expect(Date.parse(tokenOf('web').expires_at)).toBeGreaterThan(Date.now())
  })

  it('several commands renewing the same profile at once all succeed (one refresh, shared through the profile)', async () => {
    expect((await control(emu.sandbox, 'POST', 'oauth2/expire-access-tokens')).status).toBe(200)
    const results = await Promise.all([0, 1, 2].map(() => runCli(['products', 'list', '-o', 'json'], {env: box.env()})))
    for (const r of results) expect(r.code, r.stderr).toBe(0)
    expect(Date.parse(tokenOf('web').expires_at)).toBeGreaterThan(Date.now())
  })

  it('listen connects with the sign-in, renewing an expired access token first', async () => {
    expect((await control(emu.sandbox, 'POST', 'oauth2/expire-access-tokens')).status).toBe(200)
    const before = tokenOf('web')
    const r = await runInProcess(['listen', '--print-secret'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trim()).toBe(emu.sandbox.organizationId.replaceAll('-', ''))
    expect(tokenOf('web').access_token).not.toBe(before.access_token)
  })

  it('logout revokes the tokens at the service before forgetting them: the old token gets 401', async () => {
    const tokens = tokenOf('web')
    expect((await api(emu.sandbox, 'GET', '/products/', {token: tokens.access_token})).status).toBe(200)
    const r = await runInProcess(['auth', 'logout'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('Revoked and removed the browser sign-in of profile "web"')
    expectNoTokens(r.stdout + r.stderr, tokens.access_token, tokens.refresh_token)
    const refused = await api(emu.sandbox, 'GET', '/products/', {token: tokens.access_token})
    expect(refused.status).toBe(401)
    expect(refused.body.error).toBe('invalid_token')
    expect(config().profiles.web!.oauth).toBeUndefined()
    const status = await runInProcess(['auth', 'status'], {env: box.env()})
    expect(status.code).toBe(4)
  })

  it('a sign-in not granted the organizations scope: the refusal names the profile signed in to, not the active one', async () => {
    const {result, page} = await browserLogin('websb', async (p, u) => {
      const url = new URL(u)
      url.searchParams.set('scope', 'openid products:read')
      await allow(p, url.toString())
    })
    await page.close()
    expect(result.code).toBe(4)
    expect(result.stderr).toContain('this token lacks the scope organizations:read or organizations:write')
    expect(result.stderr).toContain('till auth login -p websb --web')
    expect(result.stderr).toContain('nothing was saved')
    expect(result.stderr).not.toMatch(/-p (?!websb)\S+/)
    expect(config().profiles.websb?.oauth).toBeUndefined()
  })

  it('a sign-in granted fewer scopes: the 403 names the scope and the sign-in that grants it; auth status lists what is missing', async () => {
    // The user (or an older till) asked for less: the organization, products and orders only.
    const narrow = 'openid organizations:write products:write orders:read orders:write'
    const {result, page} = await browserLogin('narrow', async (p, u) => {
      const url = new URL(u)
      url.searchParams.set('scope', narrow)
      await allow(p, url.toString())
    })
    await page.close()
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/Warning: the sign-in was not granted .*discounts:write.*; these will be refused: .*\bdiscounts\b/)
    const tokens = tokenOf('narrow')
    expect(tokens.scope).toBe(narrow)

    expect((await runInProcess(['products', 'list', '-o', 'json'], {env: box.env()})).code).toBe(0)
    const refused = await runInProcess(['discounts', 'list'], {env: box.env()})
    expect(refused.code).toBe(4)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(
      'Error: this token lacks the scope discounts:read or discounts:write; sign in again to grant it: till auth login -p narrow --web',
    )
    expect(refused.stderr).not.toMatch(/at .*\.js:\d+/)
    const payments = await runInProcess(['payments', 'list'], {env: box.env()})
    expect(payments.code).toBe(4)
    expect(payments.stderr).toContain('this token lacks the scope payments:read;')

    const status = await runInProcess(['auth', 'status', '--json'], {env: box.env()})
    expect(status.code, status.stderr).toBe(0)
    const s = JSON.parse(status.stdout)
    expect(s.works).toBe('yes')
    expect(s.missing_scopes).toEqual(TILL_SCOPES.filter((x) => !['openid', 'profile', 'email', ...narrow.split(' ')].includes(x)))
    expect(s.missing_scopes).toEqual(
      expect.arrayContaining([
        'discounts:write',
        'meters:write',
        'events:write',
        'files:write',
        'payments:read',
        'disputes:write',
        'custom_fields:write',
        'customer_meters:read',
      ]),
    )
    // Each of these topics fails whole, or its list command does (custom-fields attach needs products only).
    for (const topic of ['discounts', 'meters', 'events', 'files', 'payments', 'disputes', 'custom-fields', 'customer-meters']) {
      expect(
        s.failing.some((f: string) => f === topic || f === `${topic} list`),
        topic,
      ).toBe(true)
    }
    expect(s.failing).not.toContain('products')
    expect(s.failing).not.toContain('orders')
    expect(status.stderr).toMatch(
      /This sign-in lacks the scopes .*discounts:write.*; these will be refused: .*payments.*\. Grant them by signing in again: till auth login -p narrow --web/,
    )
    // The same fields as columns of the plain output.
    const plain = await runInProcess(['auth', 'status', '--columns', 'missing_scopes,failing'], {env: box.env()})
    expect(plain.code).toBe(0)
    expect(plain.stdout).toContain('discounts:write')
    expect(plain.stdout).toContain('customer-meters')
    expectNoTokens(refused.stderr + status.stdout + status.stderr + plain.stdout + plain.stderr + result.stderr, tokens.access_token, tokens.refresh_token)
  })

  it('a refresh the service refuses ends with "sign in again" (exit 4)', async () => {
    const {result, page} = await browserLogin('revoked', allow)
    await page.close()
    expect(result.code, result.stderr).toBe(0)
    const tokens = tokenOf('revoked')
    // Revoked elsewhere (another machine's logout, the dashboard): both tokens die.
    const revoke = await api(emu.sandbox, 'POST', '/oauth2/revoke', {
      token: null,
      headers: {'content-type': 'application/x-www-form-urlencoded'},
      rawBody: new URLSearchParams({token: tokens.refresh_token, client_id: tokens.client_id}).toString(),
    })
    expect(revoke.status).toBe(200)
    const r = await runInProcess(['products', 'list'], {env: box.env()})
    expect(r.code).toBe(4)
    expect(r.stderr).toMatch(/browser sign-in has ended.*\n?.*sign in again: till auth login -p revoked --web/)
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/)
    expectNoTokens(r.stdout + r.stderr, tokens.access_token, tokens.refresh_token)
  })

  it("on a terminal, login signs in through the browser by default; -p keeps the profile's environment and URL", async () => {
    // `script` gives till a pseudo-terminal: no --web, no --environment, no --url.
    const command = `${TILL} ${['auth', 'login', '-p', 'revoked', '--no-browser'].map(sh).join(' ')}`
    const child = spawn('script', ['-qfec', `stty cols 400 rows 50 2>/dev/null; ${command}`, '/dev/null'], {
      cwd: ROOT,
      env: box.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let screen = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk))
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
    const url = await authorizeUrl(() => stripAnsi(screen))
    expect(url.startsWith(new URL(emu.sandbox.url).origin)).toBe(true)
    const page = await browser.newPage()
    await allow(page, url)
    await page.close()
    expect(await exited).toBe(0)
    expect(stripAnsi(screen)).toContain('Signed in to sandbox through the browser')
    expect(config().profiles.revoked!.oauth!.access_token).toMatch(/^polar_at_u_/)
    const r = await runInProcess(['products', 'list', '-p', 'revoked'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
  })

  it('Deny ends with a clear message and exit 4; nothing is saved', async () => {
    const {result, page} = await browserLogin('denied', async (p, u) => {
      await p.goto(u)
      await p.click('button[value=deny]')
      await p.waitForURL(/\/oauth\/callback/)
    })
    expect(await page.textContent('h1')).toBe('till did not sign in')
    await page.close()
    expect(result.code).toBe(4)
    expect(result.stderr).toContain('the sign-in was denied in the browser; nothing was saved')
    expect(result.stdout).toBe('')
    expect(config().profiles.denied).toBeUndefined()
  })

  it('refuses an answer whose state is not the one it sent (exit 4, nothing saved)', async () => {
    const {result, page} = await browserLogin('tampered', async (p, u) => {
      const forged = new URL(u)
      forged.searchParams.set('state', 'forged-state-from-elsewhere')
      await allow(p, forged.toString())
    })
    expect(await page.textContent('h1')).toBe('till did not sign in')
    await page.close()
    expect(result.code).toBe(4)
    expect(result.stderr).toContain("the browser's answer did not carry the state till sent")
    expect(config().profiles.tampered).toBeUndefined()
  })
})

describe('till auth login --web without a browser', () => {
  it('without a client for the environment, or with --token-stdin too, --web is a usage error before anything is sent', async () => {
    const noClient = await runInProcess(['auth', 'login', '--web', '--environment', 'production', '--name', 'prod-web'], {env: box.env()})
    expect(noClient.code).toBe(2)
    expect(noClient.stderr).toContain('no OAuth2 client to sign in to production with; nothing was saved')
    expect(noClient.stderr).toContain('--client-id polar_ci_')
    expect(noClient.stderr).toContain('--no-web')
    const both = await runInProcess(['auth', 'login', '--web', '--token-stdin', '--environment', 'sandbox', '--url', emu.sandbox.url, '--name', 'both'], {
      env: box.env(),
      input: 'x\n',
    })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--web and --token-stdin do not go together')
    if (existsSync(join(box.configDir, 'config.json'))) expect(config().profiles['prod-web']).toBeUndefined()
  })
})
