import {describe, expect, it} from 'vitest'

import {knownServiceError, pathObject} from './service-errors.js'

const BASE = 'https://api.polar.sh/v1'

describe('pathObject', () => {
  it('names the object of a path: collection, id, external customers, portal, nested routes', () => {
    expect(pathObject(`${BASE}/customers/c1`)).toMatchObject({noun: 'customer', topic: 'customers', id: 'c1', portal: false, rest: []})
    expect(pathObject(`${BASE}/customers/external/user%201`)).toMatchObject({noun: 'customer', id: 'user 1', external: true})
    expect(pathObject(`${BASE}/webhooks/endpoints/w1`)).toMatchObject({noun: 'webhook endpoint', topic: 'webhooks endpoints', id: 'w1'})
    expect(pathObject(`${BASE}/customer-portal/orders/o1/invoice`)).toMatchObject({noun: 'order', id: 'o1', portal: true, rest: ['invoice']})
    expect(pathObject(`${BASE}/unknown/x`)).toBeUndefined()
    expect(pathObject('not a url')).toBeUndefined()
  })
})

describe('knownServiceError', () => {
  const where = 'production (profile prod)'

  it('a 404 of an object names it, the environment and the list command; exit 3', () => {
    const e = knownServiceError(404, 'ResourceNotFound', 'Not found', `${BASE}/subscriptions/s1`, where)!
    expect(e.message).toBe('not found: there is no subscription s1 in production (profile prod)')
    expect(e.hint).toBe('check the id, and the profile; list them with: till subscriptions list')
    expect(e.exitCode).toBe(3)
  })

  it('named errors become one sentence about the object, with what to do', () => {
    const e = knownServiceError(409, 'InvoiceAlreadyExists', 'An invoice was already generated for order o1.', `${BASE}/orders/o1/invoice`, where)!
    expect(e.message).toBe('order o1 already has an invoice')
    expect(e.hint).toBe('get it with: till orders invoice get o1')
    expect(e.exitCode).toBe(1)
    const gone = knownServiceError(410, 'ResourceUnavailable', 'Unavailable', `${BASE}/customer-portal/subscriptions/s1`, where)!
    expect(gone.message).toBe('subscription s1 has already ended, so it cannot be changed any more')
  })

  it('anything else is left to the generic mapping', () => {
    expect(knownServiceError(400, 'BadRequest', 'Bad request', `${BASE}/subscriptions/s1`, where)).toBeUndefined()
    expect(knownServiceError(404, 'ResourceNotFound', 'Not found', `${BASE}/unknown/x`, where)).toBeUndefined()
  })

  it('every described resource gets the same 404 sentence, derived from the operation the path matches', () => {
    const notFound = (path: string) => knownServiceError(404, 'ResourceNotFound', 'Not found', `${BASE}${path}`, where)!
    const cases: Array<[string, string]> = [
      ['/benefits/b1/grants', 'there is no benefit b1'],
      ['/custom-fields/f1', 'there is no custom field f1'],
      ['/events/e1', 'there is no event e1'],
      ['/files/f1', 'there is no file f1'],
      ['/payments/p1', 'there is no payment p1'],
      ['/oauth2/register/c1', 'there is no OAuth2 client c1'],
      ['/webhooks/events/e1/redeliver', 'there is no webhook event e1'],
      ['/webhooks/endpoints/w1/secret', 'there is no webhook endpoint w1'],
      ['/customers/external/u1/payment-methods', 'there is no customer with external id u1'],
      ['/customers/external/u1/state', 'there is no customer with external id u1'],
      ['/orders/o1/invoice', 'there is no order o1'],
      ['/license-keys/deactivate', 'no such license key'],
    ]
    for (const [path, sentence] of cases) {
      const e = notFound(path)
      expect(e.message, path).toBe(`not found: ${sentence} in production (profile prod)${sentence.startsWith('no such') ? ' (the service answered 404)' : ''}`)
      expect(e.exitCode, path).toBe(3)
    }
    expect(notFound('/custom-fields/f1').hint).toBe('check the id, and the profile; list them with: till custom-fields list')
    expect(notFound('/customer-portal/orders/o1').hint).toBe('check the id, and the profile; list them with: till portal orders list')
    expect(notFound('/webhooks/events/e1/redeliver').hint).toBe('check the ids you gave, and the profile')
  })
})
