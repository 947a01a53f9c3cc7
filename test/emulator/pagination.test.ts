// Pagination math on a store of 250 orders (server/polar/kit/pagination.py).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, unknownId, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {brief, expectValidationError} from '../helpers/expect.js'
import {allowRefusals} from '../helpers/contract.js'

const ORDERS = 250

describe('pagination', () => {
  let emulator: Emulator
  let env: EnvHandle

  beforeAll(async () => {
    emulator = await startEmulator({orders: ORDERS})
    env = emulator.production
  })
  afterAll(() => emulator?.stop())

  const orders = (query: string) => api(env, 'GET', `/orders/?${query}`)

  it('250 items at limit 100: total_count 250, max_page 3, pages of 100, 100, 50', async () => {
    const sizes: number[] = []
    for (const page of [1, 2, 3]) {
      const res = await orders(`limit=100&page=${page}`)
      expect(res.status, brief(res)).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual(['items', 'pagination'])
      expect(res.body.pagination).toEqual({total_count: ORDERS, max_page: 3})
      sizes.push(res.body.items.length)
    }
    expect(sizes).toEqual([100, 100, 50])
  })

  it('a page past the end is 200 with no items and the same pagination', async () => {
    for (const page of [4, 1000]) {
      const res = await orders(`limit=100&page=${page}`)
      expect(res.status, brief(res)).toBe(200)
      expect(res.body).toEqual({items: [], pagination: {total_count: ORDERS, max_page: 3}})
    }
  })

  it('limit above 100 is silently clamped to 100', async () => {
    for (const limit of [101, 500, 1_000_000]) {
      const res = await orders(`limit=${limit}`)
      expect(res.status, brief(res)).toBe(200)
      expect(res.body.items).toHaveLength(100)
      expect(res.body.pagination).toEqual({total_count: ORDERS, max_page: 3})
    }
  })

  it('default limit is 10 and default page is 1', async () => {
    const res = await orders('')
    expect(res.status, brief(res)).toBe(200)
    expect(res.body.items).toHaveLength(10)
    expect(res.body.pagination).toEqual({total_count: ORDERS, max_page: 25})
    const first = await orders('page=1&limit=10')
    expect(res.body.items.map((o: {id: string}) => o.id)).toEqual(first.body.items.map((o: {id: string}) => o.id))
  })

  it('max_page is ceil(total_count / limit)', async () => {
    for (const limit of [1, 7, 10, 33, 99, 100]) {
      const res = await orders(`limit=${limit}`)
      expect(res.body.pagination).toEqual({total_count: ORDERS, max_page: Math.ceil(ORDERS / limit)})
      expect(res.body.items).toHaveLength(Math.min(limit, ORDERS))
    }
  })

  it('page is a window offset: page=2&limit=10 is items 11-20 of the same ordering', async () => {
    const big = await orders('limit=100')
    const second = await orders('page=2&limit=10')
    const ids = (r: typeof big) => r.body.items.map((o: {id: string}) => o.id)
    expect(ids(second)).toEqual(ids(big).slice(10, 20))
  })

  it('page=0 and limit=0 are 422 greater_than at the query parameter', async () => {
    allowRefusals()
    expectValidationError(await orders('page=0'), 'RequestValidationError', ['query', 'page'], 'greater_than')
    expectValidationError(await orders('limit=0'), 'RequestValidationError', ['query', 'limit'], 'greater_than')
    expectValidationError(await orders('page=-3'), 'RequestValidationError', ['query', 'page'], 'greater_than')
    const both = await orders('page=0&limit=0')
    expectValidationError(both, 'RequestValidationError', ['query', 'page'], 'greater_than')
    expectValidationError(both, 'RequestValidationError', ['query', 'limit'], 'greater_than')
  })

  it('a non-integer page or limit is 422 at the query parameter', async () => {
    allowRefusals()
    for (const value of ['abc', '1.5', 'true']) {
      expectValidationError(await orders(`page=${value}`), 'RequestValidationError', ['query', 'page'])
      expectValidationError(await orders(`limit=${value}`), 'RequestValidationError', ['query', 'limit'])
    }
  })

  it('no results: total_count 0 and max_page 0', async () => {
    const none = await orders(`customer_id=${unknownId()}`)
    expect(none.status, brief(none)).toBe(200)
    expect(none.body).toEqual({items: [], pagination: {total_count: 0, max_page: 0}})
    const products = await api(env, 'GET', '/products/?query=no-product-is-called-like-this')
    expect(products.status, brief(products)).toBe(200)
    expect(products.body).toEqual({items: [], pagination: {total_count: 0, max_page: 0}})
  })

  it('walking pages 1..max_page yields every order exactly once', async () => {
    for (const limit of [100, 7]) {
      const ids: string[] = []
      const first = await orders(`limit=${limit}&page=1`)
      const maxPage = first.body.pagination.max_page
      for (let page = 1; page <= maxPage; page++) {
        const res = page === 1 ? first : await orders(`limit=${limit}&page=${page}`)
        expect(res.body.pagination).toEqual(first.body.pagination)
        ids.push(...res.body.items.map((o: {id: string}) => o.id))
      }
      expect(ids).toHaveLength(ORDERS)
      expect(new Set(ids).size).toBe(ORDERS)
    }
  })

  it('a filtered walk covers exactly the filtered set', async () => {
    const paid = await orders('status=paid&limit=100')
    const total = paid.body.pagination.total_count
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThan(ORDERS)
    const ids = new Set<string>()
    for (let page = 1; page <= Math.ceil(total / 9); page++) {
      const res = await orders(`status=paid&limit=9&page=${page}`)
      expect(res.body.pagination).toEqual({total_count: total, max_page: Math.ceil(total / 9)})
      for (const o of res.body.items) {
        expect(o.status).toBe('paid')
        ids.add(o.id)
      }
    }
    expect(ids.size).toBe(total)
  })

  // Every list endpoint of the Core API uses the same envelope (server/polar/kit/pagination.py).
  it.each([
    '/products/',
    '/orders/',
    '/customers/',
    '/subscriptions/',
    '/refunds/',
    '/benefits/',
    '/benefit-grants/',
    '/license-keys/',
    '/checkouts/',
    '/checkout-links/',
    '/webhooks/endpoints',
    '/organizations/',
  ])('GET %s has the {items, pagination:{total_count, max_page}} envelope', async (path) => {
    allowRefusals()
    const res = await api(env, 'GET', `${path}?limit=3`)
    expect(res.status, brief(res)).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['items', 'pagination'])
    expect(Object.keys(res.body.pagination).sort()).toEqual(['max_page', 'total_count'])
    const {total_count: total, max_page: maxPage} = res.body.pagination
    expect(Number.isInteger(total)).toBe(true)
    expect(maxPage).toBe(Math.ceil(total / 3))
    expect(res.body.items).toHaveLength(Math.min(3, total))
    expectValidationError(await api(env, 'GET', `${path}?page=0`), 'RequestValidationError', ['query', 'page'], 'greater_than')
  })
})
