// The organization token goes to the profile's API origin and nowhere else, redirects are
// followed only where that is safe, a loopback TILL_API_URL is used as given,
// ids are checked before any request, and empty or invalid TILL_* settings. Two small servers
// stand in: a fake API on 127.0.0.1 and an "outside" host on 127.0.0.2 that records what it receives.
import {createServer, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {writeFileSync, mkdirSync, readFileSync, readdirSync, existsSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoToken, linesOf, sandbox, spawnCli, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const TOKEN = 'polar_oat_originTestToken0123456789abcdefghij'
const ORDER = '7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d'
const ORDER_VIA_REDIRECT = '8e2d3c4b-6f70-4b9c-8d1e-2f3a4b5c6d7e'
const ORDER_SLOW = '9f3e4d5c-7a81-4cad-9e2f-3a4b5c6d7e8f'
let slowStarted: () => void = () => {}

interface Seen {
  method: string
  url: string
  authorization?: string
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve) => server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)))
}

const record = (list: Seen[], req: IncomingMessage) => list.push({method: req.method!, url: req.url!, authorization: req.headers.authorization})

let box: Sandbox
let outside: Server
let api: Server
let outsideUrl: string
let apiUrl: string
const outsideSeen: Seen[] = []
const apiSeen: Seen[] = []

beforeAll(async () => {
  box = sandbox()
  outside = createServer((req, res) => {
    record(outsideSeen, req)
    if (req.url === '/slow.pdf') {
      // Half the document, then nothing: the download is in progress until the client goes away.
      res.writeHead(200, {'content-type': 'application/pdf', 'content-length': '200000'})
      res.write(Buffer.alloc(100_000, 0x25))
      slowStarted()
      return
    }
    if (req.url === '/inv.pdf') {
      res.writeHead(200, {'content-type': 'application/pdf'}).end('%PDF-1.4 outside')
      return
    }
    res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({outside: true}))
  })
  outsideUrl = await listen(outside, '127.0.0.2')
  api = createServer((req, res) => {
    record(apiSeen, req)
    const json = (status: number, body: unknown) => res.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(body))
    const redirect = (status: number, location: string) => res.writeHead(status, {location}).end()
    const url = req.url!
    if (url.startsWith('/v1/refuse/')) {
      const value = decodeURIComponent(url.slice('/v1/refuse/'.length))
      return res.writeHead(429, {'retry-after': value, 'content-length': '0'}).end()
    }
    if (url.startsWith('/v1/products/')) return json(200, {items: [], pagination: {total_count: 0, max_page: 1}})
    if (url === `/v1/orders/${ORDER_SLOW}/invoice`) return json(200, {url: `${outsideUrl}/slow.pdf`})
    if (url === `/v1/orders/${ORDER}/invoice`) return json(200, {url: `${outsideUrl}/inv.pdf`})
    if (url === `/v1/orders/${ORDER_VIA_REDIRECT}/invoice`) return json(200, {url: `${apiUrl}/files/inv.pdf`})
    if (url === '/files/inv.pdf') return redirect(302, `${outsideUrl}/inv.pdf`)
    if (url === '/v1/away') return redirect(302, `${outsideUrl}/x`)
    if (url === '/v1/same') return redirect(307, '/v1/target')
    if (url === '/v1/target') return json(200, {authorized: req.headers.authorization === `Bearer ${TOKEN}`})
    if (url === '/v1/customers' && req.method === 'POST') return redirect(307, '/v1/customers/')
    json(404, {error: 'ResourceNotFound', detail: 'Not found'})
  })
  apiUrl = await listen(api, '127.0.0.1')
})

afterAll(async () => {
  await new Promise((r) => outside.close(r))
  await new Promise((r) => api.close(r))
  box.cleanup()
})

const apiEnv = (extra: Record<string, string | undefined> = {}) => box.env({TILL_API_URL: `${apiUrl}/v1`, TILL_TOKEN: TOKEN, TILL_ENV: 'production', ...extra})
const till = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) => runInProcess(args, {env: apiEnv(extra), input})
const since = (list: Seen[], from: number) => list.slice(from)

function expectOneLineError(r: CliResult, code: number, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(code)
  expect(r.stdout).toBe('')
  expect(r.stderr).toMatch(pattern)
  expect(r.stderr).not.toMatch(/\n\s+at /)
  expectNoToken(r.stdout + r.stderr, TOKEN)
}

describe('credentials go to the API origin only', () => {
  it("`till api` with another origin's URL is refused (exit 2) naming the profile's origin; nothing is sent", async () => {
    const before = outsideSeen.length
    const r = await till(['api', 'GET', `${outsideUrl}/x`])
    expectOneLineError(r, 2, new RegExp(`^Error: ${outsideUrl.replaceAll('.', '\\.')} is not the profile's API origin \\(${apiUrl.replaceAll('.', '\\.')}\\)`))
    expect(r.stderr).toContain('--no-auth')
    expect(since(outsideSeen, before)).toEqual([])
  })

  it('`--no-auth` calls another origin without credentials', async () => {
    const before = outsideSeen.length
    const r = await till(['api', 'GET', `${outsideUrl}/x`, '--no-auth'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({outside: true})
    expect(since(outsideSeen, before)).toEqual([{method: 'GET', url: '/x', authorization: undefined}])
  })

  it('an absolute URL on the API origin keeps the token', async () => {
    const r = await till(['api', 'GET', `${apiUrl}/v1/target`])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({authorized: true})
  })

  it('a download link the API hands out is fetched without the token, directly or after a redirect', async () => {
    const before = outsideSeen.length
    const direct = join(box.root, 'direct.pdf')
    const viaRedirect = join(box.root, 'redirected.pdf')
    const a = await till(['orders', 'invoice', 'get', ORDER, '--download', direct])
    const b = await till(['orders', 'invoice', 'get', ORDER_VIA_REDIRECT, '--download', viaRedirect])
    expect(a.code, a.stderr).toBe(0)
    expect(b.code, b.stderr).toBe(0)
    expect(readFileSync(direct, 'utf8')).toBe('%PDF-1.4 outside')
    expect(readFileSync(viaRedirect, 'utf8')).toBe('%PDF-1.4 outside')
    expect(since(outsideSeen, before)).toEqual([
      {method: 'GET', url: '/inv.pdf', authorization: undefined},
      {method: 'GET', url: '/inv.pdf', authorization: undefined},
    ])
  })

  it('a GET redirected to another origin is not followed: exit 1 naming the status and Location, the other host sees nothing', async () => {
    const before = outsideSeen.length
    const r = await till(['api', 'GET', '/away'])
    expectOneLineError(r, 1, new RegExp(`answered 302 redirecting to ${outsideUrl.replaceAll('.', '\\.')}/x; not followed`))
    expect(since(outsideSeen, before)).toEqual([])
  })

  it('a GET redirected on the same origin is followed, with the token', async () => {
    const r = await till(['api', 'GET', '/same'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({authorized: true})
  })

  it('a POST answered 307 fails naming the status and Location, and the body is never sent again', async () => {
    const before = apiSeen.length
    const r = await till(['api', 'POST', '/customers', '-f', 'email=x@example.com'])
    expectOneLineError(r, 1, /POST .*\/v1\/customers answered 307 redirecting to http:\/\/127\.0\.0\.1:\d+\/v1\/customers\/; not followed/)
    expect(since(apiSeen, before).map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v1/customers'])
  })
})

describe('plain http is refused off loopback', () => {
  it('`profiles add` of a production or sandbox profile on http:// to another host: exit 2, nothing saved', async () => {
    for (const environment of ['production', 'sandbox']) {
      const r = await runInProcess(['profiles', 'add', 'clear', '--environment', environment, '--url', 'http://api.example.com/v1', '--token-stdin'], {
        env: box.env(),
        input: `${TOKEN}\n`,
      })
      expectOneLineError(r, 2, /^Error: --url uses plain http:\/\/ on api\.example\.com/)
    }
    const config = join(box.configDir, 'config.json')
    if (existsSync(config)) expect(readFileSync(config, 'utf8')).not.toContain('clear')
  })

  it('`auth login --url http://...` is refused before the token is sent', async () => {
    const r = await runInProcess(['auth', 'login', '--environment', 'production', '--url', 'http://10.255.255.1/v1', '--token-stdin'], {
      env: box.env(),
      input: `${TOKEN}\n`,
    })
    expectOneLineError(r, 2, /--url uses plain http:\/\/ on 10\.255\.255\.1/)
  })

  it('a profile saved with an http URL to another host is refused when used, and so is TILL_API_URL', async () => {
    const dir = join(box.root, 'handmade')
    mkdirSync(dir, {recursive: true})
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({active: 'prod', profiles: {prod: {environment: 'production', token: TOKEN, token_store: 'file', base_url: 'http://10.255.255.1/v1'}}}),
      {mode: 0o600},
    )
    const used = await runInProcess(['products', 'list'], {env: box.env({TILL_CONFIG_DIR: dir})})
    expectOneLineError(used, 2, /^Error: the URL of profile "prod" uses plain http:\/\/ on 10\.255\.255\.1/)
    const env = await runInProcess(['products', 'list'], {env: box.env({TILL_API_URL: 'http://10.255.255.1/v1', TILL_TOKEN: TOKEN})})
    expectOneLineError(env, 2, /^Error: TILL_API_URL uses plain http:\/\//)
  })
})

describe('ids are checked before any request', () => {
  it.each([
    [['products', 'get', ''], /^Error: the product id is empty/],
    [['products', 'get', '   '], /^Error: the product id is empty/],
    [['orders', 'get', 'nope'], /^Error: order id "nope": Input should be a valid UUID/],
    [['customers', 'delete', '../organizations/', '--yes'], /^Error: customer id "\.\.\/organizations\/": Input should be a valid UUID/],
    [['subscriptions', 'show', 'a\u0007b'], /^Error: subscription id "a\\u0007b": Input should be a valid UUID/],
  ])('%j: exit 2, no request', async (args, pattern) => {
    const before = apiSeen.length
    const r = await till(args)
    expectOneLineError(r, 2, pattern)
    expect(since(apiSeen, before)).toEqual([])
  })

  it('ids read from stdin are checked one by one: a malformed one is its own failure, never a request', async () => {
    const before = apiSeen.length
    const r = await till(['products', 'get', '-', '--envelope', '-o', 'jsonl'], {}, 'nope\n')
    expect(r.code, r.stderr).toBe(1)
    const [result] = linesOf(r.stdout).map((l) => JSON.parse(l))
    expect(result).toMatchObject({id: 'nope', ok: false, error: {exit_code: 2}})
    expect(since(apiSeen, before)).toEqual([])
  })
})

describe('TILL_API_URL on loopback is used as given', () => {
  it('an unreachable one is one line and exit 6, never the demo emulator', async () => {
    const r = await runInProcess(['products', 'list'], {env: box.env({TILL_API_URL: 'http://127.0.0.1:1/v1', TILL_TOKEN: TOKEN})})
    expect(r.code, r.stderr).toBe(6)
    expect(r.stdout).toBe('')
    expect(linesOf(r.stderr)[0]).toMatch(/^Error: cannot reach the API at http:\/\/127\.0\.0\.1:1\/v1/)
    expect(r.stderr).not.toContain('emulator run inside')
  })
})

describe('an interrupted download', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s while the document arrives: exit 130 and no file, hidden or not, in the folder', async (signal) => {
    const folder = join(box.root, `download-${signal}`)
    mkdirSync(folder)
    const started = new Promise<void>((resolve) => (slowStarted = resolve))
    const run = spawnCli(['orders', 'invoice', 'get', ORDER_SLOW, '--download', folder], {env: apiEnv()})
    await started
    run.child.kill(signal)
    const r = await run.done
    expect(r.code, r.stderr).toBe(130)
    expect(r.stdout).toBe('')
    expect(readdirSync(folder)).toEqual([])
  })
})

describe('TILL_* settings', () => {
  const names = [
    'TILL_ENV',
    'TILL_PROFILE',
    'TILL_TOKEN',
    'TILL_API_URL',
    'TILL_RATE_LIMIT',
    'TILL_CONFIG_DIR',
    'TILL_DATA_DIR',
    'TILL_CUSTOMER_TOKEN',
    'TILL_DEBUG',
    'TILL_NO_INPUT',
    'TILL_WEBHOOK_SECRET',
    'TILL_EMULATOR_DATA',
    'TILL_TEST_FAULT',
  ]
  it.each(names)('%s set to the empty string means the same as unset', async (name) => {
    const [empty, unset] = await Promise.all([
      runInProcess(['products', 'list'], {env: apiEnv({[name]: ''})}),
      runInProcess(['products', 'list'], {env: apiEnv({[name]: undefined})}),
    ])
    expect({code: empty.code, stdout: empty.stdout, stderr: empty.stderr}).toEqual({code: unset.code, stdout: unset.stdout, stderr: unset.stderr})
    expect(empty.stderr).not.toMatch(/Cannot read properties|\n\s+at /)
  })

  it.each([
    ['TILL_ENV', 'prod', /^Error: TILL_ENV must be one of production, sandbox, local, not "prod"/],
    ['TILL_RATE_LIMIT', 'fast', /^Error: TILL_RATE_LIMIT/],
    ['TILL_API_URL', 'api.polar.sh', /^Error: TILL_API_URL is not a URL/],
    ['TILL_PROFILE', 'nope', /^Error: there is no profile named "nope"/],
  ])('%s=%s is a usage error naming the variable (exit 2)', async (name, value, pattern) => {
    const r = await runInProcess(['products', 'list'], {env: apiEnv({[name]: value})})
    expectOneLineError(r, 2, pattern)
  })

  // Every TILL_* variable till reads, with a value it does not accept: one line naming the variable and
  // what it accepts, exit 2 (a token is a credential: exit 4; a token or secret is never shown), and nothing sent.
  const aFile = (): string => {
    const file = join(box.root, 'not-a-folder')
    writeFileSync(file, 'x')
    return file
  }
  it.each<[string, () => string, number, RegExp]>([
    ['TILL_ENV', () => 'prod', 2, /^Error: TILL_ENV must be one of production, sandbox, local, not "prod"\n/],
    ['TILL_DEBUG', () => 'maybe', 2, /^Error: TILL_DEBUG must be one of 1, true, yes, y, 0, false, no, n, not "maybe"\n/],
    ['TILL_NO_INPUT', () => 'sure', 2, /^Error: TILL_NO_INPUT must be one of 1, true, yes, y, 0, false, no, n, not "sure"\n/],
    ['TILL_CONFIG_DIR', aFile, 2, /^Error: TILL_CONFIG_DIR must be a folder path \(not a file, no control characters\), not ".*not-a-folder"\n/],
    ['TILL_DATA_DIR', aFile, 2, /^Error: TILL_DATA_DIR must be a folder path/],
    [
      'TILL_EMULATOR_DATA',
      () => '/tmp/a\u001b[31mb',
      2,
      /^Error: TILL_EMULATOR_DATA must be a folder path \(not a file, no control characters\), not "\/tmp\/a\\u001b\[31mb"\n/,
    ],
    [
      'TILL_TOKEN',
      () => `${TOKEN}\n`,
      4,
      /^Error: TILL_TOKEN is not a valid token: it has a space, line break or control character in it\nHint: set TILL_TOKEN to a token alone/,
    ],
    ['TILL_CUSTOMER_TOKEN', () => 'polar_cst_a b', 4, /^Error: TILL_CUSTOMER_TOKEN is not a valid token/],
    [
      'TILL_WEBHOOK_SECRET',
      () => 'whsec_a\tb',
      2,
      /^Error: TILL_WEBHOOK_SECRET is not valid: it has a space, line break or control character in it\nHint: set TILL_WEBHOOK_SECRET to the secret alone/,
    ],
    ['TILL_TEST_FAULT', () => 'crash', 2, /^Error: TILL_TEST_FAULT must be internal \(a test-only hook\), not "crash"\n/],
    ['TILL_RATE_LIMIT', () => 'fast', 2, /^Error: TILL_RATE_LIMIT/],
    ['TILL_API_URL', () => 'api.polar.sh', 2, /^Error: TILL_API_URL is not a URL/],
    ['TILL_PROFILE', () => 'nope', 2, /^Error: there is no profile named "nope"/],
  ])('%s with a value it does not accept: one line naming it (exit %s), nothing sent', async (name, value, code, pattern) => {
    const before = apiSeen.length
    const r = await runInProcess(['products', 'list'], {env: apiEnv({[name]: value()})})
    expectOneLineError(r, code, pattern)
    expect(linesOf(r.stderr).length).toBeLessThanOrEqual(2)
    expect(since(apiSeen, before)).toEqual([])
  })

  it('a profile whose stored token has a line break is a bad credential naming the profile (exit 4), never a network error', async () => {
    const dir = join(box.root, 'config-newline')
    mkdirSync(dir, {recursive: true})
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({active: 'prod', profiles: {prod: {environment: 'production', base_url: `${apiUrl}/v1`, token: `${TOKEN}\n`}}}),
      {mode: 0o600},
    )
    const before = apiSeen.length
    const r = await runInProcess(['products', 'list'], {env: box.env({TILL_CONFIG_DIR: dir})})
    expectOneLineError(
      r,
      4,
      /^Error: the token of profile "prod" is not valid: it has a space, line break or control character in it\nHint: log in again: till auth login -p prod\n$/,
    )
    expect(since(apiSeen, before)).toEqual([])
  })

  it('control characters in what the user gave are shown escaped in error messages', async () => {
    const r = await runInProcess(['products', 'list', '-o', 'x\u001b[2J\u0007'], {env: apiEnv()})
    expect(r.code).toBe(2)
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
    expect(r.stderr).toContain('\\x1b[2J\\x07')
  })

  it('an internal error is one line naming the command, the --debug hint and where to report it; exit 1', async () => {
    const r = await till(['products', 'list'], {TILL_TEST_FAULT: 'internal'})
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    const lines = linesOf(r.stderr)
    expect(lines[0]).toBe('Error: an internal error happened in "till products list" (TypeError); this is a bug in till, not in what you did.')
    expect(lines[1]).toMatch(/^Hint: run the same command again with --debug to see the stack trace, and report it to /)
    expect(lines).toHaveLength(2)
    expect(r.stderr).not.toContain('Cannot read properties')
    const debug = await till(['products', 'list', '--debug'], {TILL_TEST_FAULT: 'internal'})
    expect(debug.code).toBe(1)
    expect(debug.stderr).toMatch(/TypeError: Cannot read properties[^\n]*\n\s+at /)
  })
})

describe('a token typed on the command line is refused without being echoed', () => {
  it.each([
    [['auth', 'login', TOKEN]],
    [['auth', 'login', 'plainsecretvalue']],
    [['auth', 'login', `--token=${TOKEN}`]],
    [['profiles', 'add', 'x', TOKEN, '--environment', 'production']],
  ])('%j: exit 2, the value appears nowhere', async (args) => {
    const r = await runInProcess(args, {env: box.env()})
    expect(r.code, r.stderr).toBe(2)
    expect(r.stdout + r.stderr).not.toContain(TOKEN.slice(10))
    expect(r.stdout + r.stderr).not.toContain('plainsecretvalue')
    expect(r.stderr).toMatch(/^Error: /)
  })
})

describe('a server that always answers 429 with a Retry-After of no time', () => {
  it.each(['0', '-3', 'Thu, 01 Jan 1970 00:00:00 GMT'])('Retry-After: %s waits at least 1 s, backs off, and --max-wait ends it (exit 5)', async (value) => {
    const before = apiSeen.length
    // a config folder of its own: the deadline a refusal leaves in the pace file is shared
    const configDir = join(box.root, `refuse-${encodeURIComponent(value)}`)
    const args = ['api', 'GET', `/refuse/${encodeURIComponent(value)}`, '--max-wait', '4']
    const r = await till(args, {TILL_CONFIG_DIR: configDir})
    expectOneLineError(r, 5, /^Rate limited by the API; waiting 1s[^\n]*\nRate limited by the API; waiting 2s[^\n]*\nError: /)
    // Waits of 1 s and 2 s fit in 4 s, with room for a slow machine; the third refusal would need 4 s
    // more: three requests in all.
    expect(since(apiSeen, before)).toHaveLength(3)
    // Run again at once with --max-wait 1, the profile's next process knows the 4 s deadline left by the
    // third refusal: it gives up without a request.
    const again = await till([...args.slice(0, -1), '1'], {TILL_CONFIG_DIR: configDir})
    expectOneLineError(again, 5, /^Error: the API is still rate limiting after waiting 0s \(it asks for [2-4]s more\)\n/)
    expect(since(apiSeen, before)).toHaveLength(3)
  })
})
