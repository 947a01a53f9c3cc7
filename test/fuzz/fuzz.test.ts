// The fuzz suite: malformed HTTP requests to the emulator and malformed command lines to till, table
// driven against one shared emulator. Each request gets a 4xx (never a 5xx) and the emulator keeps
// serving; each command line exits with a documented code and shows no stack trace.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, expectNoToken, runShell, sandbox, sh, TILL, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import type {RawCase} from './garbage.js'
import {allowRefusalsInFile} from '../helpers/contract.js'
import {scaled} from '../helpers/machine.js'

// every test here sends requests the service refuses, on purpose
allowRefusalsInFile()

let emulator: Emulator
let env: EnvHandle
let box: Sandbox
let product: string

beforeAll(async () => {
  emulator = await startEmulator()
  env = emulator.production
  box = sandbox()
  product = (await api(env, 'GET', '/products/?limit=1')).body.items[0].id
}, scaled(60_000))

afterAll(async () => {
  await emulator.stop()
  box.cleanup()
})

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

const UUID0 = '00000000-0000-0000-0000-000000000000'

const requests: RawCase[] = [
  // bodies
  {
    name: 'key nested 5,000 deep, no token',
    method: 'POST',
    path: '/customer-portal/license-keys/validate',
    token: null,
    body: `{"key":${nested(5000)},"organization_id":"${UUID0}"}`,
  },
  {name: 'customer email nested 5,000 deep', method: 'POST', path: '/customers/', body: `{"email":${nested(5000)}}`},
  {name: 'object nested 5,000 deep', method: 'POST', path: '/customers/', body: nestedObject(5000)},
  {name: 'array nested 300 deep', method: 'POST', path: '/products/', body: nested(300)},
  {name: 'truncated JSON', method: 'POST', path: '/customers/', body: '{"email": "a@example.com"'},
  {name: 'JSON with a trailing comma', method: 'POST', path: '/customers/', body: '{"email": "a@example.com",}'},
  {name: 'body is a bare string', method: 'POST', path: '/customers/', body: '"hello"'},
  {name: 'body is a number', method: 'POST', path: '/customers/', body: '42'},
  {name: 'body is an array', method: 'POST', path: '/customers/', body: '[]'},
  {name: 'body is null', method: 'POST', path: '/customers/', body: 'null'},
  {name: 'email of the wrong type', method: 'POST', path: '/customers/', body: '{"email": 5}'},
  {
    name: 'metadata with 100 keys',
    method: 'POST',
    path: '/customers/',
    body: JSON.stringify({email: 'm@example.com', metadata: Object.fromEntries(Array.from({length: 100}, (_, i) => [`k${i}`, 'v']))}),
  },
  {name: 'metadata value an object', method: 'POST', path: '/customers/', body: '{"email": "m2@example.com", "metadata": {"a": {"b": 1}}}'},
  {name: '__proto__ in the body', method: 'POST', path: '/customers/', body: '{"__proto__": {"admin": true}, "email": 7}'},
  {
    name: 'product with negative price',
    method: 'POST',
    path: '/products/',
    body: '{"name":"x","prices":[{"amount_type":"fixed","price_amount":-1,"price_currency":"usd"}]}',
  },
  {
    name: 'product with a huge price',
    method: 'POST',
    path: '/products/',
    body: '{"name":"x","prices":[{"amount_type":"fixed","price_amount":1e300,"price_currency":"usd"}]}',
  },
  {name: 'refund with amount a string', method: 'POST', path: '/refunds/', body: `{"order_id":"${UUID0}","amount":"lots","reason":"other"}`},
  {name: 'invalid UTF-8 body', method: 'POST', path: '/customers/', body: '{"email": "\udc00@example.com"}'},
  {name: 'body over 10 MiB', method: 'POST', path: '/customers/', body: `{"email": "${'a'.repeat(10 * 1024 * 1024 + 10)}"}`},
  {name: 'JSON sent as text/plain', method: 'POST', path: '/customers/', body: '{"email": "plain@example.com"}', headers: {'content-type': 'text/plain'}},
  {name: 'JSON sent as a form', method: 'POST', path: '/products/', body: '{"name": "x"}', headers: {'content-type': 'application/x-www-form-urlencoded'}},
  {name: 'PATCH with an empty object on an unknown id', method: 'PATCH', path: `/customers/${UUID0}`, body: '{}'},
  // auth kinds
  {name: 'no token', method: 'GET', path: '/customers/', token: null},
  {name: 'empty bearer', method: 'GET', path: '/customers/', token: null, headers: {authorization: 'Bearer '}},
  {name: 'basic auth', method: 'GET', path: '/customers/', token: null, headers: {authorization: 'Basic dXNlcjpwYXNz'}},
  {name: 'unknown org token', method: 'GET', path: '/customers/', token: 'polar_oat_nope'},
  {name: 'customer token on an org route', method: 'GET', path: '/customers/', token: 'polar_cst_nope'},
  {name: 'org token on a portal route', method: 'GET', path: '/customer-portal/customers/me'},
  {name: 'token with a very long value', method: 'GET', path: '/products/', token: `polar_oat_${'x'.repeat(8000)}`},
  // paths
  {name: 'malformed UUID', method: 'GET', path: '/products/not-a-uuid'},
  {name: 'unknown UUID', method: 'GET', path: `/products/${UUID0}`},
  {name: 'path traversal', method: 'GET', path: '/products/../../etc/passwd'},
  {name: 'encoded traversal', method: 'GET', path: '/products/%2e%2e%2forganizations'},
  {name: 'unknown route', method: 'GET', path: '/nothing-here/'},
  {name: 'method not allowed', method: 'PUT', path: '/products/', body: '{}'},
  {name: 'percent garbage', method: 'GET', path: '/products/%ZZ'},
  // query values
  {name: 'sorting=__proto__', method: 'GET', path: '/products/?sorting=__proto__'},
  {name: 'sorting=toString', method: 'GET', path: '/customers/?sorting=toString'},
  {name: 'sorting=-constructor', method: 'GET', path: '/orders/?sorting=-constructor'},
  {name: 'page=0', method: 'GET', path: '/products/?page=0'},
  {name: 'page=-1', method: 'GET', path: '/products/?page=-1'},
  {name: 'page=abc', method: 'GET', path: '/products/?page=abc'},
  {name: 'limit=1e9', method: 'GET', path: '/products/?limit=1e9'},
  {name: 'limit=1.5', method: 'GET', path: '/products/?limit=1.5'},
  {name: 'is_archived=maybe', method: 'GET', path: '/products/?is_archived=maybe'},
  {name: 'customer_id not a UUID', method: 'GET', path: '/orders/?customer_id=zzz'},
  {name: 'product_id not a UUID', method: 'GET', path: '/orders/?product_id=zzz'},
  {name: 'organization_id not a UUID', method: 'GET', path: '/products/?organization_id=x'},
]

describe('malformed HTTP requests to the emulator', () => {
  it(
    `${requests.length} requests: each a 4xx with a JSON error, never a 5xx, and the emulator keeps serving`,
    async () => {
      expect(requests.length).toBeGreaterThanOrEqual(40)
      const outcomes: string[] = []
      for (const c of requests) {
        const r = await api(env, c.method, c.path, {token: c.token, rawBody: c.body, headers: c.headers, noRetry: false})
        if (r.status < 400 || r.status >= 500) outcomes.push(`${c.name}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
        const alive = await api(env, 'GET', `/products/${product}`)
        if (alive.status !== 200) outcomes.push(`after ${c.name}: the emulator answered ${alive.status}`)
      }
      expect(outcomes).toEqual([])
    },
    scaled(120_000),
  )

  it("an unknown sort key gets the service's 422 naming the criterion", async () => {
    for (const key of ['__proto__', 'toString', '-constructor']) {
      const r = await api(env, 'GET', `/products/?sorting=${key}`)
      expect(r.status).toBe(422)
      expect(r.body.detail[0]).toMatchObject({loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: key})
    }
  })

  it('the deep nesting request is refused with a JSON decode error (422) without echoing the input', async () => {
    const r = await api(env, 'POST', '/customer-portal/license-keys/validate', {token: null, rawBody: `{"key":${nested(5000)}}`})
    expect(r.status).toBe(422)
    expect(r.body.detail[0]).toMatchObject({type: 'json_invalid'})
    expect(r.text.length).toBeLessThan(1000)
  })

  it('a JSON body sent as text/plain is refused as the service does (422 at ["body"], not an object), and nothing is created', async () => {
    const email = 'text-plain@example.com'
    const raw = JSON.stringify({email})
    const r = await api(env, 'POST', '/customers/', {rawBody: raw, headers: {'content-type': 'text/plain'}})
    expect(r.status).toBe(422)
    expect(r.body).toEqual({
      error: 'RequestValidationError',
      detail: [{type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: raw}],
    })
    const found = await api(env, 'GET', `/customers/?email=${encodeURIComponent(email)}`)
    expect(found.body.items).toEqual([])
    const json = await api(env, 'POST', '/customers/', {rawBody: raw, headers: {'content-type': 'application/vnd.polar+json; charset=utf-8'}})
    expect(json.status).toBe(201)
  })

  it('a repeated page parameter takes the last value, as the service does', async () => {
    const one = await api(env, 'GET', '/products/?limit=1&page=2')
    const both = await api(env, 'GET', '/products/?limit=1&page=1&page=2')
    expect(both.body.items.map((p: {id: string}) => p.id)).toEqual(one.body.items.map((p: {id: string}) => p.id))
  })
})

// Command lines: [description, argv or a shell line, stdin]
type Line = [string, string[] | string, string?]
const BAD_UUID = 'not-a-uuid'
const lines: Line[] = [
  // flags
  ['unknown flag', ['products', 'list', '--nope']],
  ['unknown command', ['frobnicate']],
  ['flag value missing', ['products', 'list', '--limit']],
  ['limit not a number', ['products', 'list', '--limit', 'ten']],
  ['limit zero', ['products', 'list', '--limit', '0']],
  ['limit negative', ['products', 'list', '--limit', '-5']],
  // a huge --limit alone is gh's "that many items" (every page, 100 to a page); with --page it cannot be one page
  ['limit huge with a page', ['products', 'list', '--limit', '99999999999999999999', '--page', '2']],
  ['limit not a whole number', ['products', 'list', '--limit', '1e3']],
  ['page zero', ['orders', 'list', '--page', '0']],
  ['bad output format', ['products', 'list', '-o', 'xml']],
  ['bad columns', ['products', 'list', '--columns', 'nope,__proto__']],
  ['max-wait negative', ['products', 'list', '--max-wait', '-1']],
  ['unknown profile', ['products', 'list', '--profile', 'nope']],
  ['api unknown method', ['api', 'FETCH', '/products/']],
  ['api field without =', ['api', 'POST', '/customers/', '-f', 'email']],
  ['api --input with GET', ['api', 'GET', '/products/', '--input', '-']],
  ['api --paginate with POST', ['api', 'POST', '/products/', '--paginate']],
  ['api URL of another origin', ['api', 'GET', 'http://127.0.0.2:9/x']],
  ['api javascript: URL', ['api', 'GET', 'javascript:alert(1)']],
  // ids
  ['empty id', ['products', 'get', '']],
  ['blank id', ['orders', 'get', '  ']],
  ['malformed id', ['customers', 'get', BAD_UUID]],
  ['id with control bytes', ['orders', 'get', '\u001b[31mred']],
  ['id with traversal', ['products', 'update', '../organizations', '--name', 'x']],
  ['unknown id', ['products', 'get', '00000000-0000-4000-8000-000000000000']],
  ['delete without --yes', ['customers', 'delete', '00000000-0000-4000-8000-000000000000']],
  // amounts and currencies
  ['price not a number', ['products', 'create', '--name', 'Fuzz', '--price', 'abc']],
  ['price negative', ['products', 'create', '--name', 'Fuzz', '--price', '-5']],
  ['price with too many decimals', ['products', 'create', '--name', 'Fuzz', '--price', '1.234']],
  ['price huge', ['products', 'create', '--name', 'Fuzz', '--price', '1e30']],
  ['refund amount negative', ['refunds', 'create', '--order', '00000000-0000-4000-8000-000000000000', '--amount', '-1', '--reason', 'other', '--yes']],
  ['refund amount words', ['refunds', 'create', '--order', '00000000-0000-4000-8000-000000000000', '--amount', 'all of it', '--reason', 'other', '--yes']],
  ['refund bad reason', ['refunds', 'create', '--order', '00000000-0000-4000-8000-000000000000', '--amount', '1', '--reason', 'because', '--yes']],
  // metadata
  ['metadata without =', ['customers', 'create', '--email', 'fuzz1@example.com', '--metadata', 'foo']],
  ['metadata empty key', ['customers', 'create', '--email', 'fuzz2@example.com', '--metadata', '=v']],
  ['metadata key too long', ['customers', 'create', '--email', 'fuzz3@example.com', '--metadata', `${'k'.repeat(60)}=v`]],
  ['email malformed', ['customers', 'create', '--email', 'not an email']],
  ['country not a country', ['customers', 'create', '--email', 'fuzz4@example.com', '--country', 'ZZ']],
  ['country with control bytes', ['customers', 'create', '--email', 'fuzz5@example.com', '--country', '\u001b[']],
  // stdin garbage
  ['bulk get: binary stdin', 'printf "\\001\\002\\377\\n" | TILLCMD customers get - -o jsonl'],
  ['bulk get: JSON without id', 'printf "{\\"x\\":1}\\n" | TILLCMD customers get - -o jsonl'],
  ['bulk get: broken JSON line', 'printf "{not json\\n" | TILLCMD products get - -o jsonl'],
  ['bulk delete: id a number', 'printf "{\\"id\\": 5}\\n" | TILLCMD customers delete - --yes -o jsonl'],
  ['api --input garbage', 'printf "\\377\\376garbage" | TILLCMD api POST /customers/ --input -'],
  ['api --input deep JSON', `printf '%s' ${sh(nested(5000))} | TILLCMD api POST /customers/ --input -`],
]

const DOCUMENTED = new Set([1, 2, 3, 4, 5, 6])

describe('malformed command lines', () => {
  it(
    `${lines.length} command lines: each a documented exit code, one message, no stack trace, no token`,
    async () => {
      expect(lines.length).toBeGreaterThanOrEqual(40)
      const vars = box.env(envVars(env))
      const problems: string[] = []
      const run = async ([name, command, input]: Line) => {
        const r = Array.isArray(command)
          ? await runInProcess(command, {env: vars, input: input ?? ''})
          : await runShell(command.replaceAll('TILLCMD', TILL), {env: vars})
        if (!DOCUMENTED.has(r.code ?? -1)) problems.push(`${name}: exit ${r.code} ${r.stderr.slice(0, 200)}`)
        if (/\n\s+at .+:\d+:\d+/.test(r.stderr) || /TypeError|RangeError|ReferenceError/.test(r.stderr))
          problems.push(`${name}: stack trace or raw error: ${r.stderr.slice(0, 300)}`)
        if (r.stderr.trim() === '') problems.push(`${name}: exit ${r.code} with nothing on stderr`)
        if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(r.stderr.replace(/\u001b\[[0-9;]*m/g, ''))) problems.push(`${name}: raw control bytes on stderr`)
        expectNoToken(r.stdout + r.stderr, env.token, name)
      }
      for (let i = 0; i < lines.length; i += 4) await Promise.all(lines.slice(i, i + 4).map(run))
      expect(problems).toEqual([])
      expect((await api(env, 'GET', `/products/${product}`)).status).toBe(200)
    },
    scaled(240_000),
  )
})

describe('a billing country the API does not accept', () => {
  it('--country ZZ is refused before any request: one line naming it and the fix, exit 2, nothing created', async () => {
    const email = 'zz-country@example.com'
    const r = await runInProcess(['customers', 'create', '--email', email, '--country', 'zz', '--line1', '1 Road'], {env: box.env(envVars(env))})
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      'Error: --country ZZ is not a country the API accepts for a billing address\nHint: give an ISO 3166-1 alpha-2 code such as US, DE or FR\n',
    )
    expect((await api(env, 'GET', `/customers/?email=${email}`)).body.items).toEqual([])
  })

  it('the emulator refuses it too, with a 422 at body.billing_address.country', async () => {
    const r = await api(env, 'POST', '/customers/', {body: {email: 'zz-api@example.com', billing_address: {country: 'ZZ'}}})
    expect(r.status).toBe(422)
    expect(r.body.detail[0]).toMatchObject({loc: ['body', 'billing_address', 'country'], input: 'ZZ'})
    const ok = await api(env, 'POST', '/customers/', {body: {email: 'de-api@example.com', billing_address: {country: 'DE'}}})
    expect(ok.status).toBe(201)
  })
})

describe('the request log', () => {
  it(
    'never shows a token, not even percent-encoded in a path or query string',
    async () => {
      const loud = await startEmulator({quiet: false, orders: 5, customers: 5, products: 2})
      try {
        const token = loud.production.token
        const encoded = token.replaceAll('_', '%5F')
        const everyByte = [...token].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')
        await api(loud.production, 'GET', `/products/?token=${encoded}`)
        await api(loud.production, 'GET', `/customer-portal/customers/me?customer_session_token=${everyByte}`, {token: null})
        await api(loud.production, 'GET', `/x/${encoded}`)
        const log = loud.stderr()
        expect(log).toContain('polar_oat_…')
        expect(log).not.toContain(token.slice(10))
        expect(log).not.toContain(encoded.slice(14))
        expect(log).not.toContain(everyByte.slice(30))
      } finally {
        await loud.stop()
      }
    },
    scaled(60_000),
  )
})
