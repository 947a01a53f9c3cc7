// A fake Paddle Billing API for the migration tests: products with their prices, discounts, customers with
// addresses and businesses, and subscriptions generated from a count, every fixture typed with the official
// SDK's response types (`@paddle/paddle-node-sdk`), so the compiler checks their shape. Lists page as the
// real API does: `per_page` (50 unless said, at most 200) and the `after` cursor, with
// `meta.pagination.next` (a whole URL) and `has_more`; `status`, `type` and `include=prices` filter and
// embed as the source uses them.
import type {
  IAddressResponse,
  IBusinessResponse,
  ICustomerResponse,
  IDiscountResponse,
  IPriceResponse,
  IProductResponse,
  ISubscriptionResponse,
} from '@paddle/paddle-node-sdk'

import {FakeSource, STAMP} from './fake-source.js'

export interface PaddleFixtures {
  products: IProductResponse[]
  prices: IPriceResponse[]
  discounts: IDiscountResponse[]
  customers: ICustomerResponse[]
  addresses: IAddressResponse[]
  businesses: IBusinessResponse[]
  subscriptions: ISubscriptionResponse[]
}

/** A Paddle-looking id: its prefix and 26 characters, in the order they were made. */
export const paddleId = (prefix: string, n: number) => `${prefix}_01h${String(n).padStart(23, '0')}`

export function paddlePriceFixture(n: number, productId: string, shape: Partial<IPriceResponse> = {}): IPriceResponse {
  return {
    id: paddleId('pri', n),
    product_id: productId,
    description: `Price ${n}`,
    type: 'standard',
    name: null,
    billing_cycle: null,
    trial_period: null,
    tax_mode: 'account_setting',
    unit_price: {amount: '1000', currency_code: 'USD'},
    unit_price_overrides: [],
    quantity: {minimum: 1, maximum: 100},
    status: 'active',
    created_at: STAMP,
    updated_at: STAMP,
    custom_data: null,
    import_meta: null,
    ...shape,
  }
}

export function paddleProductFixture(n: number, shape: Partial<IProductResponse> = {}): IProductResponse {
  return {
    id: paddleId('pro', n),
    name: `Product ${n}`,
    type: 'standard',
    description: `About product ${n}`,
    tax_category: 'standard',
    image_url: null,
    custom_data: null,
    status: 'active',
    created_at: STAMP,
    updated_at: STAMP,
    import_meta: null,
    ...shape,
  }
}

type PriceShape = Partial<IPriceResponse>
const monthly = {billing_cycle: {interval: 'month', frequency: 1}} as const

/** The shapes products cycle through: every price shape the source maps or reports. */
export const PADDLE_SHAPES: Array<{product?: Partial<IProductResponse>; prices: PriceShape[]}> = [
  {
    product: {custom_data: {tier: 'gold', seats: 3}},
    prices: [
      {...monthly, unit_price: {amount: '1500', currency_code: 'USD'}},
      {billing_cycle: {interval: 'year', frequency: 1}, unit_price: {amount: '15000', currency_code: 'USD'}},
    ],
  },
  {prices: [{unit_price: {amount: '4900', currency_code: 'USD'}}]},
  {prices: [{unit_price: {amount: '0', currency_code: 'USD'}}]},
  {prices: [{unit_price: {amount: '900', currency_code: 'USD'}, quantity: {minimum: 5, maximum: 50}}]},
  {prices: [{type: 'custom', unit_price: {amount: '777', currency_code: 'USD'}}, {unit_price: {amount: '2500', currency_code: 'USD'}}]},
  {
    prices: [
      {
        ...monthly,
        unit_price: {amount: '2000', currency_code: 'USD'},
        trial_period: {interval: 'day', frequency: 7},
        unit_price_overrides: [{country_codes: ['IN', 'BR'], unit_price: {amount: '1000', currency_code: 'USD'}}],
      },
    ],
  },
  {product: {status: 'archived'}, prices: [{status: 'archived', unit_price: {amount: '3000', currency_code: 'USD'}}]},
  {prices: [{status: 'archived', unit_price: {amount: '100', currency_code: 'USD'}}, {unit_price: {amount: '200', currency_code: 'USD'}}]},
  {prices: [{billing_cycle: {interval: 'week', frequency: 2}, unit_price: {amount: '800', currency_code: 'EUR'}}]},
]

export function paddleFixtures(counts: {products: number; customers: number; subscriptions?: number}): PaddleFixtures {
  const f: PaddleFixtures = {products: [], prices: [], discounts: [], customers: [], addresses: [], businesses: [], subscriptions: []}
  let priceN = 0
  for (let i = 0; i < counts.products; i++) {
    const shape = PADDLE_SHAPES[i % PADDLE_SHAPES.length]!
    const product = paddleProductFixture(i, shape.product)
    f.products.push(product)
    for (const price of shape.prices) f.prices.push(paddlePriceFixture(++priceN, product.id, price))
  }
  const discount = (n: number, shape: Partial<IDiscountResponse>): IDiscountResponse => ({
    id: paddleId('dsc', n),
    status: 'active',
    description: `Discount ${n}`,
    enabled_for_checkout: true,
    code: `CODE${n}`,
    mode: 'standard',
    type: 'percentage',
    amount: '10',
    currency_code: null,
    recur: false,
    maximum_recurring_intervals: null,
    usage_limit: null,
    restrict_to: null,
    expires_at: null,
    custom_data: null,
    times_used: 0,
    created_at: STAMP,
    updated_at: STAMP,
    import_meta: null,
    discount_group_id: null,
    discount_group: null,
    ...shape,
  })
  const restricted = [f.products[1]?.id, f.prices[0]?.id, f.prices[1]?.id].filter((id): id is string => id !== undefined)
  f.discounts.push(discount(1, {description: 'Launch', code: 'LAUNCH', amount: '12.5'}))
  f.discounts.push(discount(2, {type: 'flat', amount: '500', currency_code: 'USD', recur: true, maximum_recurring_intervals: 3, restrict_to: restricted}))
  f.discounts.push(discount(3, {type: 'flat_per_seat', amount: '200', currency_code: 'EUR', recur: true, usage_limit: 50}))
  f.discounts.push(discount(4, {code: null, status: 'expired', expires_at: '2025-06-01T00:00:00Z'}))
  f.discounts.push(discount(5, {mode: 'custom', code: null, description: 'One transaction'}))
  // limited to the yearly price of a product that also has a monthly one
  if (f.prices[1]) f.discounts.push(discount(6, {description: 'Yearly only', code: 'YEARLY20', amount: '20', restrict_to: [f.prices[1].id]}))
  for (let i = 0; i < counts.customers; i++) {
    const customer: ICustomerResponse = {
      id: paddleId('ctm', i),
      name: i % 3 === 0 ? null : `Customer ${i}`,
      email: `customer${i}@example.com`,
      marketing_consent: false,
      status: 'active',
      custom_data: null,
      locale: 'en',
      created_at: STAMP,
      updated_at: STAMP,
      import_meta: null,
    }
    f.customers.push(customer)
    if (i % 2 === 0) {
      f.addresses.push({
        id: paddleId('add', i),
        customer_id: customer.id,
        description: null,
        first_line: `${i} Main Street`,
        second_line: null,
        city: 'Berlin',
        postal_code: '10115',
        region: null,
        country_code: 'DE',
        custom_data: null,
        status: 'active',
        created_at: STAMP,
        updated_at: STAMP,
        import_meta: null,
      })
    }
    if (i % 4 === 0) {
      f.businesses.push({
        id: paddleId('biz', i),
        customer_id: customer.id,
        name: `Business ${i}`,
        company_number: null,
        tax_identifier: `DE${String(100000000 + i)}`,
        status: 'active',
        contacts: [],
        created_at: STAMP,
        updated_at: STAMP,
        custom_data: null,
        import_meta: null,
      })
    }
  }
  const statuses = ['active', 'trialing', 'past_due', 'paused', 'canceled'] as const
  for (let i = 0; i < (counts.subscriptions ?? 25); i++) {
    f.subscriptions.push({
      id: paddleId('sub', i),
      status: statuses[i % statuses.length]!,
      customer_id: paddleId('ctm', i),
      address_id: paddleId('add', i),
      business_id: null,
      currency_code: 'USD',
      created_at: STAMP,
      updated_at: STAMP,
      collection_mode: 'automatic',
      billing_cycle: {interval: 'month', frequency: 1},
      management_urls: null,
      items: [],
    })
  }
  return f
}

const REFUSALS: Record<number, [string, string]> = {
  401: ['authentication_malformed', 'Authentication header included, but incorrectly formatted'],
  404: ['not_found', 'Entity not found'],
  405: ['method_not_allowed', 'Method not allowed'],
  429: ['too_many_requests', 'IP address exceeded the allowed rate limit. Retry after the number of seconds in the Retry-After header.'],
}

/** The fake server over `fixtures`; its requests and queued faults are the FakeSource's. */
export function fakePaddle(fixtures: PaddleFixtures, key = 'pdl_sdbx_apikey_0123456789'): FakeSource {
  const lists: Record<string, Array<{id: string; status: string; type?: string | null; customer_id?: string}>> = {
    '/products': fixtures.products,
    '/prices': fixtures.prices,
    '/discounts': fixtures.discounts,
    '/customers': fixtures.customers,
    '/subscriptions': fixtures.subscriptions,
  }
  const owned = /^\/customers\/([^/]+)\/(addresses|businesses)$/
  const byCustomer = <T extends {customer_id: string}>(items: T[]) => {
    const map = new Map<string, T[]>()
    for (const item of items) map.set(item.customer_id, [...(map.get(item.customer_id) ?? []), item])
    return map
  }
  const owners = {addresses: byCustomer(fixtures.addresses), businesses: byCustomer(fixtures.businesses)}
  return new FakeSource(
    key,
    (path, query, base) => {
      const m = owned.exec(path)
      const all: Array<{id: string; status: string; type?: string | null}> | undefined = m
        ? (owners[m[2] as 'addresses' | 'businesses'].get(decodeURIComponent(m[1]!)) ?? [])
        : lists[path]
      if (!all) return undefined
      const statuses = query.get('status')?.split(',')
      const types = query.get('type')?.split(',')
      const items = all.filter((x) => (!statuses || statuses.includes(x.status)) && (!types || types.includes(x.type ?? 'standard')))
      const perPage = Math.min(200, Math.max(1, Number(query.get('per_page') ?? 50)))
      const after = query.get('after')
      const start = after ? items.findIndex((x) => x.id === after) + 1 : 0
      let data: unknown[] = items.slice(start, start + perPage)
      if (path === '/products' && query.get('include') === 'prices') {
        data = (data as IProductResponse[]).map((p) => ({...p, prices: fixtures.prices.filter((price) => price.product_id === p.id)}))
      }
      const last = items[start + data.length - 1]
      const next = new URLSearchParams(query)
      if (last) next.set('after', last.id)
      return {
        status: 200,
        body: {
          data,
          meta: {
            request_id: '00000000-0000-0000-0000-000000000000',
            pagination: {per_page: perPage, next: `${base}${path}?${next}`, has_more: start + data.length < items.length, estimated_total: items.length},
          },
        },
      }
    },
    (status) => {
      const [code, detail] = REFUSALS[status] ?? ['internal_error', 'An internal error occurred']
      return {
        error: {type: status >= 500 ? 'api_error' : 'request_error', code, detail, documentation_url: `https://developer.paddle.com/errors/shared/${code}`},
        meta: {request_id: '00000000-0000-0000-0000-000000000000'},
      }
    },
  )
}
