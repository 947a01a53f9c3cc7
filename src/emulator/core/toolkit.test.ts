import {describe, expect, it} from 'vitest'

import {HttpError} from './errors.js'
import {type Ctx, type Reply, Router} from './http.js'
import {textSearch} from './list.js'
import type {EnvData} from './model.js'
import {Store} from './store.js'
import {finder, found, getRoute, listRoute, lookup, notSortable, organizationScope, routeOf, type Row} from './toolkit.js'

// A stored discount (the core names no resource: the record type comes through the store's collections).
type DiscountRecord = Row<'discounts'>

const ORG = '0b7e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b'
const CUSTOMER = 'c0000000-0000-4000-8000-000000000001'

/** Four discounts, each sort key putting them in another order; the third is deleted. */
const DISCOUNTS = [
  {id: 'd0000000-0000-4000-8000-000000000001', created_at: '2026-01-01T00:00:00Z', name: 'Gamma', code: 'B', redemptions_count: 7, ends_at: null},
  {id: 'd0000000-0000-4000-8000-000000000002', created_at: '2026-01-02T00:00:00Z', name: 'Alpha', code: 'D', redemptions_count: 3, ends_at: null},
  {id: 'd0000000-0000-4000-8000-000000000003', created_at: '2026-01-03T00:00:00Z', name: 'Zeta', code: 'Z', redemptions_count: 0, ends_at: null},
  {id: 'd0000000-0000-4000-8000-000000000004', created_at: '2026-01-04T00:00:00Z', name: 'Beta', code: 'A', redemptions_count: 1, ends_at: null},
  {id: 'd0000000-0000-4000-8000-000000000005', created_at: '2026-01-05T00:00:00Z', name: 'Delta', code: 'C', redemptions_count: 5, ends_at: null},
].map((d, i) => ({...d, metadata: {tier: i % 2 === 0 ? 'gold' : 'silver'}, deleted_at: i === 2 ? '2026-02-01T00:00:00Z' : null}))

const ORDER = {id: 'e0000000-0000-4000-8000-000000000001', created_at: '2026-01-01T00:00:00Z', customer_id: CUSTOMER}

function store(): Store {
  const data = {organization: {id: ORG}, discounts: DISCOUNTS.map((d) => ({...d})), orders: [ORDER]}
  return Store.memory(data as unknown as EnvData)
}

const live = (d: DiscountRecord) => d.deleted_at === null
const findDiscount = finder('discounts', {live})

function router(): Router {
  const r = new Router()
  listRoute(r, 'discounts:list', (ctx: Ctx) => ctx.store.all('discounts').filter(live), {
    present: (_view, d) => d.name,
    filters: {organization_id: organizationScope, query: textSearch((d: DiscountRecord) => d.name)},
    sorts: {
      created_at: (d) => d.created_at,
      name: (d) => d.name,
      code: (d) => d.code,
      redemptions_count: (d) => d.redemptions_count,
      ends_at: notSortable('a test of what a key the emulator cannot order by answers'),
    },
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'discounts:get', findDiscount, (_view, d) => ({id: d.id, name: d.name}))
  // The document's webhook endpoint list takes no sorting: the list is declared with none.
  listRoute(r, 'webhooks:list_webhook_endpoints', (ctx: Ctx) => ctx.store.all('discounts'), {
    present: (_view, d) => d.name,
    filters: {organization_id: organizationScope},
    sorts: {},
    defaultSort: ['-created_at'],
  })
  return r
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field by the tests
type Json = any

/** Sends `GET path` to the route, as the server would; a thrown HttpError is the answer it writes. */
function get(r: Router, path: string, s = store()): {status: number; body: Json} {
  const url = new URL(path, 'http://127.0.0.1')
  const match = r.match('GET', url.pathname)
  if (!('route' in match)) throw new Error(`no route for ${path}`)
  const ctx = {store: s, now: Date.parse('2026-03-01T00:00:00Z'), params: match.params, query: url.searchParams, auth: {kind: 'organization'}} as unknown as Ctx
  ctx.view = {store: s, now: ctx.now, origin: 'http://127.0.0.1'}
  try {
    const reply = match.route.handler(ctx) as Reply
    return {status: reply.status, body: reply.body}
  } catch (error) {
    if (error instanceof HttpError) return {status: error.status, body: error.body}
    throw error
  }
}

const names = (r: Router, query: string) => get(r, `/v1/discounts/?${query}`).body.items as string[]

describe('listRoute', () => {
  const r = router()
  const rows = DISCOUNTS.filter((d) => d.deleted_at === null)

  it('registers the operation path with the token the operation table names', () => {
    expect(r.table).toEqual([
      {method: 'GET', path: '/v1/discounts/', auth: 'organization'},
      {method: 'GET', path: '/v1/discounts/:id', auth: 'organization'},
      {method: 'GET', path: '/v1/webhooks/endpoints', auth: 'organization'},
    ])
  })

  it('sorts by every sort key it reads, both ways', () => {
    const keys = ['created_at', 'name', 'code', 'redemptions_count'] as const
    for (const key of keys) {
      const ascending = [...rows].sort((a, b) => (a[key] < b[key] ? -1 : 1)).map((d) => d.name)
      expect(names(r, `sorting=${key}&limit=100`), key).toEqual(ascending)
      expect(names(r, `sorting=-${key}&limit=100`), `-${key}`).toEqual([...ascending].reverse())
    }
    // the orders really differ, so that each key is shown to be read
    expect(new Set(keys.map((k) => names(r, `sorting=${k}`).join())).size).toBe(keys.length)
  })

  it('orders by the default without sorting, and by several keys in turn', () => {
    expect(names(r, '')).toEqual(['Delta', 'Beta', 'Alpha', 'Gamma'])
    const s = store()
    s.all('discounts')[3]!.redemptions_count = 3 // Beta ties with Alpha
    const tied = get(r, '/v1/discounts/?sorting=-redemptions_count&sorting=name', s).body.items
    expect(tied).toEqual(['Gamma', 'Delta', 'Alpha', 'Beta'])
  })

  it('refuses a key declared notSortable as it refuses an unknown one', () => {
    for (const key of ['ends_at', '-ends_at', 'colour']) {
      const {status, body} = get(r, `/v1/discounts/?sorting=${key}`)
      expect(status, key).toBe(422)
      expect(body).toEqual({
        error: 'RequestValidationError',
        detail: [{type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: key}],
      })
    }
  })

  it('pages with page and limit, the service’s limit of 100 at most', () => {
    const page = get(r, '/v1/discounts/?limit=3&page=2&sorting=name').body
    expect(page).toEqual({items: ['Gamma'], pagination: {total_count: 4, max_page: 2}})
    expect(get(r, '/v1/discounts/?limit=1000').body.pagination).toEqual({total_count: 4, max_page: 1})
    expect(get(r, '/v1/discounts/?limit=0').body.detail[0]).toMatchObject({type: 'greater_than', loc: ['query', 'limit']})
  })

  it('scopes organization_id to the one organization, and filters by the declared filters', () => {
    expect(names(r, `organization_id=${ORG.toUpperCase()}`)).toHaveLength(4)
    expect(names(r, `organization_id=${CUSTOMER}`)).toEqual([])
    expect(get(r, '/v1/discounts/?organization_id=acme').body.detail[0]).toMatchObject({type: 'uuid_parsing', loc: ['query', 'organization_id']})
    expect(names(r, 'query=ta')).toEqual(['Delta', 'Beta'])
  })

  it('ignores sorting on a list the document gives none, keeping its order', () => {
    const all = get(r, '/v1/webhooks/endpoints?sorting=bogus&limit=100')
    expect(all.status).toBe(200)
    expect(all.body.items).toEqual(DISCOUNTS.map((d) => d.name).reverse())
  })
})

describe('getRoute and lookups', () => {
  const r = router()

  it('answers the record by its path id, in any case and with or without dashes', () => {
    const id = DISCOUNTS[1]!.id
    expect(get(r, `/v1/discounts/${id}`)).toEqual({status: 200, body: {id, name: 'Alpha'}})
    expect(get(r, `/v1/discounts/${id.toUpperCase().replaceAll('-', '')}`).body).toEqual({id, name: 'Alpha'})
  })

  it('answers the service’s 404 for an unknown id and for a record that no longer counts (deleted)', () => {
    const notFound = {status: 404, body: {error: 'ResourceNotFound', detail: 'Not found'}}
    expect(get(r, '/v1/discounts/d0000000-0000-4000-8000-0000000000ff')).toEqual(notFound)
    expect(get(r, `/v1/discounts/${DISCOUNTS[2]!.id}`)).toEqual(notFound)
  })

  it('answers the framework’s 422 at the path parameter for an id that is not a UUID', () => {
    expect(get(r, '/v1/discounts/not-a-uuid')).toEqual({
      status: 422,
      body: {
        error: 'RequestValidationError',
        detail: [{type: 'uuid_parsing', loc: ['path', 'id'], msg: 'Input should be a valid UUID, invalid character or length', input: 'not-a-uuid'}],
      },
    })
  })

  it('finds a portal record only for its own customer, and words the 404 when asked to', () => {
    const ctx = {store: store()} as unknown as Ctx
    expect(lookup(ctx, 'orders', ORDER.id, {customer: CUSTOMER})).toMatchObject({id: ORDER.id})
    expect(() => lookup(ctx, 'orders', ORDER.id, {customer: 'c0000000-0000-4000-8000-000000000002'})).toThrow(HttpError)
    const worded = (() => {
      try {
        lookup(ctx, 'orders', 'e0000000-0000-4000-8000-0000000000ff', {detail: 'Order not found.', param: 'order_id'})
      } catch (error) {
        return (error as HttpError).body
      }
    })()
    expect(worded).toEqual({error: 'ResourceNotFound', detail: 'Order not found.'})
    expect(() => lookup(ctx, 'orders', 'x', {param: 'order_id'})).toThrow(expect.objectContaining({status: 422}))
    expect(() => lookup(ctx, 'orders', 'x', {param: false})).toThrow(expect.objectContaining({status: 404}))
  })

  it('found() passes a value through and turns a miss into the 404', () => {
    expect(found(0)).toBe(0)
    expect(() => found(undefined)).toThrow(expect.objectContaining({status: 404, body: {error: 'ResourceNotFound', detail: 'Not found'}}))
  })
})

describe('routeOf', () => {
  it('reads the path template and the kind of token from the operation table', () => {
    expect(routeOf('customer_portal:orders:list')).toEqual({path: '/customer-portal/orders/', auth: 'customer'})
    expect(routeOf('license_keys:get_activation')).toEqual({path: '/license-keys/:id/activations/:activation_id', auth: 'organization'})
    expect(routeOf('checkouts:client_get')).toEqual({path: '/checkouts/client/:client_secret', auth: 'none'})
  })
})
