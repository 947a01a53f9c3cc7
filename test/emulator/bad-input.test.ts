// Malformed requests across the Core API: each gets its 4xx with the service's error shape, never a 500
// (server/polar/exception_handlers.py). Locations follow FastAPI/pydantic (`["body", field]`, `["query", name]`,
// `["path", "id"]`); where the real location depends on union or tag details only the type is checked.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief, expectDomainError, expectValidationError, type ValidationErrorName} from '../helpers/expect.js'
import {allowRefusalsInFile} from '../helpers/contract.js'

// every test here sends requests the service refuses, on purpose
allowRefusalsInFile()

interface Fixtures {
  orgId: string
  productId: string
  /** A paid order with a billing address and no invoice. */
  billedOrder: Json
  subscriptionId: string
  licenseKeyId: string
  customerEmail: string
}

type FromFixtures<T> = T | ((f: Fixtures) => T)

interface BadRequest {
  name: string
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: FromFixtures<string>
  /** A JSON body (`null` included). */
  body?: unknown
  /** A JSON body built from the fixtures. */
  bodyOf?: (f: Fixtures) => unknown
  rawBody?: string
  /** Send no token (unauthenticated routes). */
  anonymous?: boolean
  status: number
  error: ValidationErrorName | 'ResourceNotFound'
  loc?: Array<string | number>
  type?: string
}

const RVE = 'RequestValidationError' as const
const PRVE = 'PolarRequestValidationError' as const
const fixedPrice = [{amount_type: 'fixed', price_amount: 1000}]
const product = (extra: Record<string, unknown>) => ({name: 'Bad Input Product', prices: fixedPrice, ...extra})
const refund = (f: Fixtures, extra: Record<string, unknown>) => ({order_id: f.billedOrder.id, reason: 'customer_request', amount: 100, ...extra})
const webhook = (extra: Record<string, unknown>) => ({url: 'https://example.com/hooks/till', format: 'raw', events: ['order.created'], ...extra})
const customBenefit = (extra: Record<string, unknown>) => ({type: 'custom', description: 'Bad input benefit', properties: {note: null}, ...extra})

const CASES: BadRequest[] = [
  // products
  {name: 'products: malformed JSON', method: 'POST', path: '/products/', rawBody: '{"name": "Broken",', status: 422, error: RVE, type: 'json_invalid'},
  {name: 'products: empty object', method: 'POST', path: '/products/', body: {}, status: 422, error: RVE, loc: ['body', 'name'], type: 'missing'},
  {name: 'products: empty body', method: 'POST', path: '/products/', rawBody: '', status: 422, error: RVE, loc: ['body'], type: 'missing'},
  {name: 'products: null body', method: 'POST', path: '/products/', body: null, status: 422, error: RVE, loc: ['body']},
  {name: 'products: array body', method: 'POST', path: '/products/', body: [product({})], status: 422, error: RVE, loc: ['body']},
  {
    name: 'products: name is a number',
    method: 'POST',
    path: '/products/',
    body: product({name: 123}),
    status: 422,
    error: RVE,
    loc: ['body', 'name'],
    type: 'string_type',
  },
  {
    name: 'products: over-long name',
    method: 'POST',
    path: '/products/',
    body: product({name: 'x'.repeat(65)}),
    status: 422,
    error: RVE,
    loc: ['body', 'name'],
    type: 'string_too_long',
  },
  {
    name: 'products: too short name',
    method: 'POST',
    path: '/products/',
    body: product({name: 'ab'}),
    status: 422,
    error: RVE,
    loc: ['body', 'name'],
    type: 'string_too_short',
  },
  {
    name: 'products: negative price',
    method: 'POST',
    path: '/products/',
    body: product({prices: [{amount_type: 'fixed', price_amount: -100}]}),
    status: 422,
    error: RVE,
    type: 'greater_than_equal',
  },
  {
    name: 'products: unknown amount_type',
    method: 'POST',
    path: '/products/',
    body: product({prices: [{amount_type: 'bogus'}]}),
    status: 422,
    error: RVE,
    type: 'union_tag_invalid',
  },
  {
    name: 'products: prices is an object',
    method: 'POST',
    path: '/products/',
    body: product({prices: {amount_type: 'fixed', price_amount: 1}}),
    status: 422,
    error: RVE,
    loc: ['body', 'prices'],
    type: 'list_type',
  },
  {
    name: 'products: metadata is an array',
    method: 'POST',
    path: '/products/',
    body: product({metadata: [1, 2]}),
    status: 422,
    error: RVE,
    loc: ['body', 'metadata'],
    type: 'dict_type',
  },
  {
    name: 'products: bad visibility',
    method: 'POST',
    path: '/products/',
    body: product({visibility: 'secret'}),
    status: 422,
    error: RVE,
    loc: ['body', 'visibility'],
    type: 'enum',
  },
  {
    name: 'products: is_archived is a word',
    method: 'PATCH',
    path: (f) => `/products/${f.productId}`,
    body: {is_archived: 'maybe'},
    status: 422,
    error: RVE,
    loc: ['body', 'is_archived'],
  },
  {name: 'products: non-UUID path id', method: 'GET', path: '/products/not-a-uuid', status: 422, error: RVE, loc: ['path', 'id'], type: 'uuid_parsing'},
  {name: 'products: unknown id', method: 'GET', path: () => `/products/${unknownId()}`, status: 404, error: 'ResourceNotFound'},
  {name: 'products: PATCH unknown id', method: 'PATCH', path: () => `/products/${unknownId()}`, body: {name: 'Ghost'}, status: 404, error: 'ResourceNotFound'},
  {
    name: 'products: bad boolean filter',
    method: 'GET',
    path: '/products/?is_archived=maybe',
    status: 422,
    error: RVE,
    loc: ['query', 'is_archived'],
    type: 'bool_parsing',
  },
  {name: 'products: bad enum filter', method: 'GET', path: '/products/?visibility=secret', status: 422, error: RVE, loc: ['query', 'visibility'], type: 'enum'},
  {name: 'products: unknown sort key', method: 'GET', path: '/products/?sorting=colour', status: 422, error: RVE, loc: ['query', 'sorting']},
  {name: 'products: non-integer limit', method: 'GET', path: '/products/?limit=abc', status: 422, error: RVE, loc: ['query', 'limit'], type: 'int_parsing'},
  {
    name: 'products: huge negative limit',
    method: 'GET',
    path: '/products/?limit=-99999999999',
    status: 422,
    error: RVE,
    loc: ['query', 'limit'],
    type: 'greater_than',
  },

  // orders
  {name: 'orders: bad status filter', method: 'GET', path: '/orders/?status=shipped', status: 422, error: RVE, loc: ['query', 'status'], type: 'enum'},
  {name: 'orders: bad date filter', method: 'GET', path: '/orders/?created_after=yesterday', status: 422, error: RVE, loc: ['query', 'created_after']},
  {
    name: 'orders: non-UUID customer filter',
    method: 'GET',
    path: '/orders/?customer_id=nope',
    status: 422,
    error: RVE,
    loc: ['query', 'customer_id'],
    type: 'uuid_parsing',
  },
  {
    name: 'orders: bad billing type filter',
    method: 'GET',
    path: '/orders/?product_billing_type=weekly',
    status: 422,
    error: RVE,
    loc: ['query', 'product_billing_type'],
    type: 'enum',
  },
  {name: 'orders: unknown id', method: 'GET', path: () => `/orders/${unknownId()}`, status: 404, error: 'ResourceNotFound'},
  {name: 'orders: invoice of unknown id', method: 'GET', path: () => `/orders/${unknownId()}/invoice`, status: 404, error: 'ResourceNotFound'},
  {
    name: 'orders: non-UUID invoice path',
    method: 'POST',
    path: '/orders/not-a-uuid/invoice',
    status: 422,
    error: RVE,
    loc: ['path', 'id'],
    type: 'uuid_parsing',
  },
  {
    name: 'orders: 3-letter country',
    method: 'PATCH',
    path: (f) => `/orders/${f.billedOrder.id}`,
    body: {billing_address: {country: 'USA'}},
    status: 422,
    error: RVE,
    loc: ['body', 'billing_address', 'country'],
  },
  {
    name: 'orders: address without country',
    method: 'PATCH',
    path: (f) => `/orders/${f.billedOrder.id}`,
    body: {billing_address: {line1: 'Nowhere 1'}},
    status: 422,
    error: RVE,
    loc: ['body', 'billing_address', 'country'],
    type: 'missing',
  },
  {name: 'orders: PATCH with a null body', method: 'PATCH', path: (f) => `/orders/${f.billedOrder.id}`, body: null, status: 422, error: RVE, loc: ['body']},
  {
    name: 'orders: PATCH with an empty body',
    method: 'PATCH',
    path: (f) => `/orders/${f.billedOrder.id}`,
    rawBody: '',
    status: 422,
    error: RVE,
    loc: ['body'],
    type: 'missing',
  },
  {
    name: 'orders: billing_name is a list',
    method: 'PATCH',
    path: (f) => `/orders/${f.billedOrder.id}`,
    body: {billing_name: ['a']},
    status: 422,
    error: RVE,
    loc: ['body', 'billing_name'],
    type: 'string_type',
  },
  {
    name: 'orders: changing the billing country',
    method: 'PATCH',
    path: (f) => `/orders/${f.billedOrder.id}`,
    bodyOf: (f) => ({billing_address: {...f.billedOrder.billing_address, country: f.billedOrder.billing_address.country === 'JP' ? 'NZ' : 'JP'}}),
    status: 422,
    error: PRVE,
    loc: ['body', 'billing_address', 'country'],
  },

  // refunds
  {name: 'refunds: empty object', method: 'POST', path: '/refunds/', body: {}, status: 422, error: RVE, loc: ['body', 'order_id'], type: 'missing'},
  {
    name: 'refunds: zero amount',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {amount: 0}),
    status: 422,
    error: RVE,
    loc: ['body', 'amount'],
    type: 'greater_than',
  },
  {
    name: 'refunds: negative amount',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {amount: -5}),
    status: 422,
    error: RVE,
    loc: ['body', 'amount'],
    type: 'greater_than',
  },
  {
    name: 'refunds: fractional amount',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {amount: 10.5}),
    status: 422,
    error: RVE,
    loc: ['body', 'amount'],
    type: 'int_from_float',
  },
  {
    name: 'refunds: amount is a word',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {amount: 'lots'}),
    status: 422,
    error: RVE,
    loc: ['body', 'amount'],
  },
  {
    name: 'refunds: bad reason',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {reason: 'bored'}),
    status: 422,
    error: RVE,
    loc: ['body', 'reason'],
    type: 'enum',
  },
  {
    name: 'refunds: dispute_prevention is not an input reason',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {reason: 'dispute_prevention'}),
    status: 422,
    error: RVE,
    loc: ['body', 'reason'],
  },
  {
    name: 'refunds: non-UUID order',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {order_id: 'order-1'}),
    status: 422,
    error: RVE,
    loc: ['body', 'order_id'],
    type: 'uuid_parsing',
  },
  {
    name: 'refunds: unknown order',
    method: 'POST',
    path: '/refunds/',
    bodyOf: (f) => refund(f, {order_id: unknownId()}),
    status: 422,
    error: PRVE,
    loc: ['body', 'order_id'],
  },
  {
    name: 'refunds: bad boolean filter',
    method: 'GET',
    path: '/refunds/?succeeded=kinda',
    status: 422,
    error: RVE,
    loc: ['query', 'succeeded'],
    type: 'bool_parsing',
  },

  // checkouts
  {name: 'checkouts: empty object', method: 'POST', path: '/checkouts/', body: {}, status: 422, error: RVE, loc: ['body', 'products'], type: 'missing'},
  {
    name: 'checkouts: products is a string',
    method: 'POST',
    path: '/checkouts/',
    body: {products: 'abc'},
    status: 422,
    error: RVE,
    loc: ['body', 'products'],
    type: 'list_type',
  },
  {
    name: 'checkouts: non-UUID product',
    method: 'POST',
    path: '/checkouts/',
    body: {products: ['not-a-uuid']},
    status: 422,
    error: RVE,
    loc: ['body', 'products', 0],
    type: 'uuid_parsing',
  },
  {name: 'checkouts: unknown product', method: 'POST', path: '/checkouts/', bodyOf: () => ({products: [unknownId()]}), status: 422, error: PRVE},
  {
    name: 'checkouts: bad customer email',
    method: 'POST',
    path: '/checkouts/',
    bodyOf: (f) => ({products: [f.productId], customer_email: 'not-an-email'}),
    status: 422,
    error: RVE,
    loc: ['body', 'customer_email'],
  },
  {name: 'checkouts: unknown id', method: 'GET', path: () => `/checkouts/${unknownId()}`, status: 404, error: 'ResourceNotFound'},
  {
    name: 'checkouts: confirm an unknown client secret',
    method: 'POST',
    path: '/checkouts/client/polar_c_doesnotexist000000000000000000000000000000/confirm',
    body: {customer_email: 'a@example.com'},
    anonymous: true,
    status: 404,
    error: 'ResourceNotFound',
  },

  // customers
  {name: 'customers: bad email', method: 'POST', path: '/customers/', body: {email: 'not-an-email'}, status: 422, error: RVE, loc: ['body', 'email']},
  {name: 'customers: empty object', method: 'POST', path: '/customers/', body: {}, status: 422, error: RVE},
  {name: 'customers: duplicate email', method: 'POST', path: '/customers/', bodyOf: (f) => ({email: f.customerEmail}), status: 422, error: PRVE},
  {
    name: 'customers: metadata is a string',
    method: 'POST',
    path: '/customers/',
    body: {email: 'meta.string@example.com', metadata: 'x'},
    status: 422,
    error: RVE,
    loc: ['body', 'metadata'],
    type: 'dict_type',
  },
  {
    name: 'customers: address line is a number',
    method: 'POST',
    path: '/customers/',
    body: {email: 'bad.line@example.com', billing_address: {country: 'US', line1: 5}},
    status: 422,
    error: RVE,
    loc: ['body', 'billing_address', 'line1'],
    type: 'string_type',
  },
  {name: 'customers: unknown id', method: 'GET', path: () => `/customers/${unknownId()}`, status: 404, error: 'ResourceNotFound'},
  {name: 'customers: non-UUID path id', method: 'DELETE', path: '/customers/not-a-uuid', status: 422, error: RVE, loc: ['path', 'id'], type: 'uuid_parsing'},

  // subscriptions
  {
    name: 'subscriptions: bad boolean filter',
    method: 'GET',
    path: '/subscriptions/?active=perhaps',
    status: 422,
    error: RVE,
    loc: ['query', 'active'],
    type: 'bool_parsing',
  },
  {
    name: 'subscriptions: bad status filter',
    method: 'GET',
    path: '/subscriptions/?status=sleeping',
    status: 422,
    error: RVE,
    loc: ['query', 'status'],
    type: 'enum',
  },
  {
    name: 'subscriptions: unknown id',
    method: 'PATCH',
    path: () => `/subscriptions/${unknownId()}`,
    body: {cancel_at_period_end: true},
    status: 404,
    error: 'ResourceNotFound',
  },
  {
    name: 'subscriptions: string for a boolean',
    method: 'PATCH',
    path: (f) => `/subscriptions/${f.subscriptionId}`,
    body: {cancel_at_period_end: 'soon'},
    status: 422,
    error: RVE,
  },
  {
    name: 'subscriptions: bad cancellation reason',
    method: 'PATCH',
    path: (f) => `/subscriptions/${f.subscriptionId}`,
    body: {cancel_at_period_end: true, customer_cancellation_reason: 'bored'},
    status: 422,
    error: RVE,
  },
  {name: 'subscriptions: create with empty object', method: 'POST', path: '/subscriptions/', body: {}, status: 422, error: RVE},
  {
    name: 'subscriptions: non-UUID path id',
    method: 'DELETE',
    path: '/subscriptions/not-a-uuid',
    status: 422,
    error: RVE,
    loc: ['path', 'id'],
    type: 'uuid_parsing',
  },

  // benefits
  {
    name: 'benefits: unknown type',
    method: 'POST',
    path: '/benefits/',
    body: customBenefit({type: 'telepathy'}),
    status: 422,
    error: RVE,
    type: 'union_tag_invalid',
  },
  {
    name: 'benefits: too short description',
    method: 'POST',
    path: '/benefits/',
    body: customBenefit({description: 'ab'}),
    status: 422,
    error: RVE,
    type: 'string_too_short',
  },
  {
    name: 'benefits: over-long description',
    method: 'POST',
    path: '/benefits/',
    body: customBenefit({description: 'd'.repeat(43)}),
    status: 422,
    error: RVE,
    type: 'string_too_long',
  },
  {name: 'benefits: properties is a string', method: 'POST', path: '/benefits/', body: customBenefit({properties: 'none'}), status: 422, error: RVE},
  {name: 'benefits: unknown id', method: 'GET', path: () => `/benefits/${unknownId()}`, status: 404, error: 'ResourceNotFound'},
  {name: 'benefits: bad type filter', method: 'GET', path: '/benefits/?type=nope', status: 422, error: RVE, loc: ['query', 'type'], type: 'enum'},

  // license keys
  {name: 'license keys: unknown id', method: 'GET', path: () => `/license-keys/${unknownId()}`, status: 404, error: 'ResourceNotFound'},
  {name: 'license keys: non-UUID path id', method: 'GET', path: '/license-keys/not-a-uuid', status: 422, error: RVE, loc: ['path', 'id'], type: 'uuid_parsing'},
  {
    name: 'license keys: validate with empty object',
    method: 'POST',
    path: '/license-keys/validate',
    body: {},
    status: 422,
    error: RVE,
    loc: ['body', 'key'],
    type: 'missing',
  },
  {
    name: 'license keys: validate an unknown key',
    method: 'POST',
    path: '/license-keys/validate',
    bodyOf: (f) => ({key: 'TILL-NOPE-NOPE-NOPE-NOPE', organization_id: f.orgId}),
    status: 404,
    error: 'ResourceNotFound',
  },
  {
    name: 'license keys: activate an unknown key',
    method: 'POST',
    path: '/license-keys/activate',
    bodyOf: (f) => ({key: 'TILL-NOPE-NOPE-NOPE-NOPE', organization_id: f.orgId, label: 'laptop'}),
    status: 404,
    error: 'ResourceNotFound',
  },
  {
    name: 'license keys: bad status',
    method: 'PATCH',
    path: (f) => `/license-keys/${f.licenseKeyId}`,
    body: {status: 'lost'},
    status: 422,
    error: RVE,
    loc: ['body', 'status'],
    type: 'enum',
  },

  // webhooks
  {
    name: 'webhooks: http URL',
    method: 'POST',
    path: '/webhooks/endpoints',
    body: webhook({url: 'http://example.com/hook'}),
    status: 422,
    error: RVE,
    loc: ['body', 'url'],
  },
  // The real service also refuses localhost; the emulator deliberately lets loopback through for local receivers.
  {
    name: 'webhooks: private-network URL',
    method: 'POST',
    path: '/webhooks/endpoints',
    body: webhook({url: 'https://10.1.2.3/hook'}),
    status: 422,
    error: RVE,
    loc: ['body', 'url'],
  },
  {
    name: 'webhooks: not a URL',
    method: 'POST',
    path: '/webhooks/endpoints',
    body: webhook({url: 'hooks please'}),
    status: 422,
    error: RVE,
    loc: ['body', 'url'],
  },
  {
    name: 'webhooks: bad format',
    method: 'POST',
    path: '/webhooks/endpoints',
    body: webhook({format: 'xml'}),
    status: 422,
    error: RVE,
    loc: ['body', 'format'],
    type: 'enum',
  },
  {
    name: 'webhooks: unknown event',
    method: 'POST',
    path: '/webhooks/endpoints',
    body: webhook({events: ['order.exploded']}),
    status: 422,
    error: RVE,
    loc: ['body', 'events', 0],
    type: 'enum',
  },
  {
    name: 'webhooks: events is a string',
    method: 'POST',
    path: '/webhooks/endpoints',
    body: webhook({events: 'order.created'}),
    status: 422,
    error: RVE,
    loc: ['body', 'events'],
    type: 'list_type',
  },
  {
    name: 'webhooks: PATCH with a non-URL',
    method: 'PATCH',
    path: () => `/webhooks/endpoints/${unknownId()}`,
    body: {url: 'nope'},
    status: 422,
    error: RVE,
    loc: ['body', 'url'],
  },
  {name: 'webhooks: unknown id', method: 'GET', path: () => `/webhooks/endpoints/${unknownId()}`, status: 404, error: 'ResourceNotFound'},

  // customer sessions
  {
    name: 'customer sessions: unknown customer',
    method: 'POST',
    path: '/customer-sessions/',
    bodyOf: () => ({customer_id: unknownId()}),
    status: 422,
    error: PRVE,
    loc: ['body', 'customer_id'],
  },
  {
    name: 'customer sessions: unknown external id',
    method: 'POST',
    path: '/customer-sessions/',
    body: {external_customer_id: 'nobody-has-this-id'},
    status: 422,
    error: PRVE,
    loc: ['body', 'external_customer_id'],
  },
  {name: 'customer sessions: non-UUID customer', method: 'POST', path: '/customer-sessions/', body: {customer_id: 'nope'}, status: 422, error: RVE},
  {name: 'customer sessions: empty object', method: 'POST', path: '/customer-sessions/', body: {}, status: 422, error: RVE},
]

describe('bad input matrix', () => {
  let emulator: Emulator
  let env: EnvHandle
  let fixtures: Fixtures

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    const [products, orders, subscriptions, licenseKeys, customers] = await Promise.all(
      ['/products/', '/orders/', '/subscriptions/', '/license-keys/', '/customers/'].map((p) => listAll(env, p)),
    )
    fixtures = {
      orgId: env.organizationId,
      productId: products.find((p) => !p.is_archived && p.visibility === 'public').id,
      billedOrder: orders.find((o) => o.status === 'paid' && o.billing_address !== null && !o.is_invoice_generated),
      subscriptionId: subscriptions.find((s) => s.status === 'active' && !s.cancel_at_period_end).id,
      licenseKeyId: licenseKeys[0].id,
      customerEmail: customers[0].email,
    }
  })
  afterAll(() => emulator?.stop())

  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30)
  })

  it.each(CASES)('$name -> $status', async (c) => {
    const resolve = <T>(v: FromFixtures<T>): T => (typeof v === 'function' ? (v as (f: Fixtures) => T)(fixtures) : v)
    const path = resolve(c.path)
    const options = {
      ...(c.anonymous ? {token: null} : {}),
      ...('body' in c ? {body: c.body} : {}),
      ...(c.bodyOf ? {body: c.bodyOf(fixtures)} : {}),
      ...(c.rawBody !== undefined ? {rawBody: c.rawBody} : {}),
    }
    const res = await api(env, c.method, path, options)
    expect(res.status, `${c.method} ${path}: ${brief(res)}`).toBeLessThan(500)
    if (c.status === 422) expectValidationError(res, c.error as ValidationErrorName, c.loc, c.type)
    else expectDomainError(res, c.status, c.error)
  })

  it('none of the requests above changed the seeded order used for billing cases', async () => {
    const res = await api(env, 'GET', `/orders/${fixtures.billedOrder.id}`)
    expect(res.status, brief(res)).toBe(200)
    expect(res.body.billing_name).toBe(fixtures.billedOrder.billing_name)
    expect(res.body.billing_address).toEqual(fixtures.billedOrder.billing_address)
    expect(res.body.refunded_amount).toBe(fixtures.billedOrder.refunded_amount)
  })
})
