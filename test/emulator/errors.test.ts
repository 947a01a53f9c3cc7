// Every error body shape and the global response headers (server/polar/exception_handlers.py).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, chunkedPost, startEmulator, unknownId, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {brief, expectInvalidToken, expectResourceNotFound, expectUnauthorized, expectValidationError} from '../helpers/expect.js'
import {allowRefusalsInFile} from '../helpers/contract.js'

// every test here sends requests the service refuses, on purpose
allowRefusalsInFile()

describe('error shapes and headers', () => {
  let emulator: Emulator
  let env: EnvHandle

  beforeAll(async () => {
    emulator = await startEmulator({orders: 20, customers: 8})
    env = emulator.production
  })
  afterAll(() => emulator?.stop())

  describe('401', () => {
    it('no token: Unauthorized with WWW-Authenticate', async () => {
      expectUnauthorized(await api(env, 'GET', '/products/', {token: null}))
      expectUnauthorized(await api(env, 'GET', '/orders/', {token: null}))
      expectUnauthorized(await api(env, 'POST', '/products/', {token: null, body: {name: 'Nope'}}))
    })

    it('a non-Bearer Authorization header counts as no token', async () => {
      expectUnauthorized(await api(env, 'GET', '/products/', {token: null, headers: {authorization: 'Basic dXNlcjpwYXNz'}}))
    })

    it.each([
      ['an unknown organization token', `polar_oat_${'A'.repeat(43)}`],
      ['a malformed organization token', 'polar_oat_x'],
      ['an unknown customer session token', `polar_cst_${'B'.repeat(43)}`],
      ['a token with an unknown prefix', 'sk_live_0123456789abcdef'],
      ['a personal access token (unknown here)', `polar_pat_${'C'.repeat(43)}`],
      ['garbage', 'not-a-token'],
    ])('%s: invalid_token', async (_label, token) => {
      expectInvalidToken(await api(env, 'GET', '/products/', {token}))
    })

    it('the organization token itself works (control)', async () => {
      const res = await api(env, 'GET', '/products/')
      expect(res.status, brief(res)).toBe(200)
    })
  })

  describe('404', () => {
    it.each(['/products/', '/orders/', '/customers/', '/subscriptions/', '/benefits/', '/license-keys/', '/checkouts/', '/webhooks/endpoints/'])(
      'unknown id under %s: ResourceNotFound',
      async (prefix) => {
        expectResourceNotFound(await api(env, 'GET', `${prefix}${unknownId()}`))
      },
    )

    it('unknown route: {"detail":"Not Found"} without an error key', async () => {
      for (const path of ['/no-such-thing/', '/products/extra/segments/here']) {
        const res = await api(env, 'GET', path)
        expect(res.status, `${path}: ${res.text}`).toBe(404)
        expect(res.body).toEqual({detail: 'Not Found'})
      }
      const outside = await api(env, 'GET', env.url.replace(/\/v1$/, '/v2/products/'))
      expect(outside.status).toBe(404)
      expect(outside.body).toEqual({detail: 'Not Found'})
    })

    it('an unknown Polar-Version is 404 Not Found before routing', async () => {
      const res = await api(env, 'GET', '/products/', {headers: {'polar-version': '1999-01'}})
      expect(res.status, brief(res)).toBe(404)
      expect(res.body).toEqual({detail: 'Not Found'})
    })
  })

  it('405: {"detail":"Method Not Allowed"} for a known path with the wrong method', async () => {
    const del = await api(env, 'DELETE', '/orders/')
    expect(del.status, brief(del)).toBe(405)
    expect(del.body).toEqual({detail: 'Method Not Allowed'})
    const put = await api(env, 'PUT', '/products/', {body: {name: 'x'}})
    expect(put.status, brief(put)).toBe(405)
    expect(put.body).toEqual({detail: 'Method Not Allowed'})
  })

  describe('422', () => {
    it('RequestValidationError: detail is a list of {type, loc, msg}', async () => {
      const res = await api(env, 'POST', '/products/', {body: {}})
      const entry = expectValidationError(res, 'RequestValidationError', ['body', 'name'], 'missing')
      expect(entry.msg).toBe('Field required')
      expectValidationError(res, 'RequestValidationError', ['body', 'prices'], 'missing')
    })

    it('PolarRequestValidationError for a service rule (custom price maximum below minimum)', async () => {
      const res = await api(env, 'POST', '/products/', {
        body: {name: 'Bad Bounds', prices: [{amount_type: 'custom', minimum_amount: 1000, maximum_amount: 500}]},
      })
      const entry = expectValidationError(res, 'PolarRequestValidationError')
      expect(entry.type).toBe('value_error')
      expect(entry.loc.slice(0, 3)).toEqual(['body', 'prices', 0])
    })

    it('PolarRequestValidationError for a customer session of an unknown customer', async () => {
      const res = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: unknownId()}})
      expectValidationError(res, 'PolarRequestValidationError', ['body', 'customer_id'], 'value_error')
    })

    it('unknown sort key: loc ["query","sorting"], msg "Invalid sorting criterion."', async () => {
      for (const sorting of ['bogus', '-bogus']) {
        const res = await api(env, 'GET', `/orders/?sorting=${sorting}`)
        const entry = expectValidationError(res, 'RequestValidationError', ['query', 'sorting'])
        expect(entry.msg).toBe('Invalid sorting criterion.')
      }
      const valid = await api(env, 'GET', '/orders/?sorting=-net_amount')
      expect(valid.status, brief(valid)).toBe(200)
      const amounts = valid.body.items.map((o: {net_amount: number}) => o.net_amount)
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a))
    })
  })

  it('411 LengthRequired for a chunked POST without Content-Length', async () => {
    const res = await chunkedPost(env, '/products/', ['{"name":"Chunked",', '"prices":[{"amount_type":"fixed","price_amount":100}]}'])
    expect(res.status).toBe(411)
    expect(res.body).toEqual({error: 'LengthRequired', detail: 'A Content-Length header is required.'})
    const list = await api(env, 'GET', '/products/?query=Chunked')
    expect(list.body.pagination.total_count).toBe(0)
  })

  describe('headers', () => {
    it('Polar-Version is echoed when given, and present otherwise', async () => {
      for (const version of ['2026-04', '2026-10', '2027-01']) {
        const res = await api(env, 'GET', '/products/', {headers: {'polar-version': version}})
        expect(res.status, brief(res)).toBe(200)
        expect(res.headers.get('polar-version')).toBe(version)
      }
      const plain = await api(env, 'GET', '/products/')
      expect(plain.headers.get('polar-version')).toMatch(/^\d{4}-\d{2}$/)
      const error = await api(env, 'GET', '/products/', {token: null, headers: {'polar-version': '2026-10'}})
      expect(error.status).toBe(401)
      expect(error.headers.get('polar-version')).toBe('2026-10')
    })

    it('X-Polar-Sandbox: 1 only on sandbox, on successes and errors alike', async () => {
      for (const [path, token] of [
        ['/products/', undefined],
        ['/products/', null],
        ['/nowhere/', undefined],
      ] as const) {
        const sandbox = await api(emulator.sandbox, 'GET', path, {token})
        expect(sandbox.headers.get('x-polar-sandbox'), `sandbox ${path} ${sandbox.status}`).toBe('1')
        const production = await api(env, 'GET', path, {token})
        expect(production.headers.get('x-polar-sandbox'), `production ${path} ${production.status}`).toBeNull()
      }
    })

    it('JSON responses are application/json and not cached', async () => {
      const res = await api(env, 'GET', '/products/')
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.headers.get('cache-control')).toBe('private, no-store')
    })
  })
})
