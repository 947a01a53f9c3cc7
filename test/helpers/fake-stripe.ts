// A fake Stripe API for `till migrate stripe` tests (not part of the shipped emulator): GET lists of
// products, prices, coupons, promotion codes, customers, subscriptions and billing meters, paged with
// `limit`, `starting_after` and `has_more` as Stripe's API does, behind a bearer key. Every fixture is
// typed with the official `stripe` package's types, so the compiler checks its shape. Faults on demand:
// 429 with Retry-After, 5xx.
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

import type Stripe from 'stripe'

export interface StripeData {
  products: Stripe.Product[]
  prices: Stripe.Price[]
  coupons: Stripe.Coupon[]
  promotionCodes: Stripe.PromotionCode[]
  customers: Stripe.Customer[]
  subscriptions: Array<Pick<Stripe.Subscription, 'id' | 'object' | 'status'>>
  meters: Stripe.Billing.Meter[]
}

export interface FakeStripe {
  url: string
  data: StripeData
  /** Every request's path and query, in order. */
  requests: string[]
  /** Headers seen (to check the key went in the Authorization header only). */
  authorizations: Set<string>
  /** The next `n` list requests are answered with `status` (429 with Retry-After: 0, or a 5xx). */
  fail(n: number, status: number): void
  /** The next request to `path` (`/v1/customers`) is answered with `status`. */
  failOn(path: string, status: number): void
  stop(): Promise<void>
}

const now = 1_760_000_000

export const stripeProduct = (id: string, name: string, extra: Partial<Stripe.Product> = {}): Stripe.Product => ({
  id,
  object: 'product',
  active: true,
  created: now,
  default_price: null,
  description: null,
  images: [],
  livemode: false,
  marketing_features: [],
  metadata: {},
  name,
  package_dimensions: null,
  shippable: null,
  tax_code: null,
  tax_details: null,
  type: 'service',
  updated: now,
  url: null,
  ...extra,
})

export const stripePrice = (id: string, product: string, extra: Partial<Stripe.Price> = {}): Stripe.Price => ({
  id,
  object: 'price',
  active: true,
  billing_scheme: 'per_unit',
  created: now,
  currency: 'usd',
  custom_unit_amount: null,
  livemode: false,
  lookup_key: null,
  metadata: {},
  nickname: null,
  product,
  recurring: null,
  tax_behavior: 'unspecified',
  tiers_mode: null,
  transform_quantity: null,
  type: 'one_time',
  unit_amount: 1000,
  unit_amount_decimal: null,
  ...extra,
})

export const monthly = (
  interval: Stripe.Price.Recurring.Interval = 'month',
  count = 1,
  extra: Partial<Stripe.Price.Recurring> = {},
): Stripe.Price.Recurring => ({
  interval,
  interval_count: count,
  meter: null,
  trial_period_days: null,
  usage_type: 'licensed',
  ...extra,
})

export const stripeCoupon = (id: string, extra: Partial<Stripe.Coupon> = {}): Stripe.Coupon => ({
  id,
  object: 'coupon',
  amount_off: null,
  created: now,
  currency: null,
  duration: 'once',
  duration_in_months: null,
  livemode: false,
  max_redemptions: null,
  metadata: {},
  name: `Coupon ${id}`,
  percent_off: 10,
  redeem_by: null,
  times_redeemed: 0,
  valid: true,
  ...extra,
})

export const stripePromotionCode = (id: string, code: string, coupon: string, extra: Partial<Stripe.PromotionCode> = {}): Stripe.PromotionCode => ({
  id,
  object: 'promotion_code',
  active: true,
  code,
  created: now,
  customer: null,
  customer_account: null,
  expires_at: null,
  livemode: false,
  max_redemptions: null,
  metadata: {},
  promotion: {coupon, type: 'coupon'},
  restrictions: {first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null},
  times_redeemed: 0,
  ...extra,
})

export const stripeCustomer = (id: string, email: string | null, extra: Partial<Stripe.Customer> = {}): Stripe.Customer => ({
  id,
  object: 'customer',
  address: null,
  balance: 0,
  created: now,
  default_source: null,
  description: null,
  email,
  invoice_settings: {custom_fields: null, default_payment_method: null, footer: null, rendering_options: null},
  livemode: false,
  metadata: {},
  name: null,
  shipping: null,
  ...extra,
})

export const stripeMeter = (id: string, eventName: string): Stripe.Billing.Meter => ({
  id,
  object: 'billing.meter',
  created: now,
  customer_mapping: {event_payload_key: 'stripe_customer_id', type: 'by_id'},
  default_aggregation: {formula: 'sum'},
  display_name: eventName,
  event_name: eventName,
  event_time_window: null,
  livemode: false,
  status: 'active',
  status_transitions: {deactivated_at: null},
  updated: now,
  value_settings: {event_payload_key: 'value'},
})

export const emptyData = (): StripeData => ({products: [], prices: [], coupons: [], promotionCodes: [], customers: [], subscriptions: [], meters: []})

const taxIds = (value: string): Stripe.ApiList<Stripe.TaxId> => ({
  object: 'list',
  has_more: false,
  url: '/v1/tax_ids',
  data: [
    {
      id: `txi_${value.replace(/\W/g, '')}`,
      object: 'tax_id',
      country: 'FR',
      created: 0,
      customer: null,
      customer_account: null,
      livemode: false,
      owner: null,
      type: 'eu_vat',
      value,
      verification: null,
    },
  ],
})

/** A source of `products` products (every third yearly, every fifth pay-what-you-want) and `customers` customers. */
export function generatedStripe(products: number, customers: number): StripeData {
  const data = emptyData()
  for (let i = 0; i < products; i++) {
    const id = `prod_Gen${String(i).padStart(5, '0')}`
    data.products.push(stripeProduct(id, `Generated product ${i}`, {description: i % 2 ? `Description ${i}` : null, metadata: {tier: String(i % 3)}}))
    const price =
      i % 5 === 4
        ? stripePrice(`price_Gen${i}`, id, {unit_amount: null, custom_unit_amount: {minimum: 500, maximum: null, preset: 1000}})
        : stripePrice(`price_Gen${i}`, id, {
            unit_amount: 100 * (i + 1),
            type: i % 3 ? 'recurring' : 'one_time',
            recurring: i % 3 ? monthly(i % 3 === 2 ? 'year' : 'month') : null,
          })
    data.prices.push(price)
  }
  data.coupons.push(stripeCoupon('SPRING', {percent_off: 20, duration: 'repeating', duration_in_months: 3}))
  data.coupons.push(stripeCoupon('FIVE', {percent_off: null, amount_off: 500, currency: 'usd', applies_to: {products: ['prod_Gen00001']}}))
  data.promotionCodes.push(stripePromotionCode('promo_Spring1', 'SPRING2026', 'SPRING'))
  for (let i = 0; i < customers; i++) {
    data.customers.push(
      stripeCustomer(`cus_Gen${String(i).padStart(6, '0')}`, `gen-${i}@example.com`, {
        name: `Customer ${i}`,
        address: i % 4 === 0 ? {city: 'Paris', country: 'FR', line1: `${i} rue de Rivoli`, line2: null, postal_code: '75001', state: null} : null,
        // a tax id as Stripe writes it (the service keeps it normalized: a re-run compares the two)
        ...(i % 8 === 0 ? {tax_ids: taxIds(`FR 12.${String(i).padStart(9, '0')}`)} : {}),
        default_source: i % 10 === 0 ? `card_${i}` : null,
      }),
    )
  }
  data.subscriptions.push({id: 'sub_1', object: 'subscription', status: 'active'}, {id: 'sub_2', object: 'subscription', status: 'canceled'})
  return data
}

/** One page of `items` as Stripe lists them. */
function page<T extends {id: string}>(items: T[], url: URL): Stripe.ApiList<T> {
  const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 10))
  const after = url.searchParams.get('starting_after')
  const start = after === null ? 0 : items.findIndex((i) => i.id === after) + 1
  const data = items.slice(start, start + limit)
  return {object: 'list', data, has_more: start + limit < items.length, url: url.pathname}
}

export async function startFakeStripe(data: StripeData, key: string): Promise<FakeStripe> {
  const requests: string[] = []
  const authorizations = new Set<string>()
  const faults: number[] = []
  const pathFaults = new Map<string, number>()
  const lists: Record<string, (url: URL) => Array<{id: string}>> = {
    '/v1/products': () => data.products,
    '/v1/prices': (url) => data.prices.filter((p) => url.searchParams.get('active') !== 'true' || p.active),
    '/v1/coupons': () => data.coupons,
    '/v1/promotion_codes': () => data.promotionCodes,
    '/v1/customers': () => data.customers,
    '/v1/subscriptions': (url) => data.subscriptions.filter((s) => s.status === (url.searchParams.get('status') ?? s.status)),
    '/v1/billing/meters': () => data.meters,
  }
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {'content-type': 'application/json', ...headers})
    res.end(JSON.stringify(body))
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    requests.push(`${url.pathname}${url.search}`)
    authorizations.add(String(req.headers.authorization))
    if (req.method !== 'GET') return send(res, 405, {error: {message: 'GET only'}})
    if (req.headers.authorization !== `Bearer ${key}`) return send(res, 401, {error: {type: 'invalid_request_error', message: 'Invalid API Key provided'}})
    const list = lists[url.pathname]
    if (!list) return send(res, 404, {error: {message: `Unrecognized request URL (GET: ${url.pathname})`}})
    const once = pathFaults.get(url.pathname)
    if (once !== undefined) {
      pathFaults.delete(url.pathname)
      return send(res, once, {error: {type: 'invalid_request_error', message: 'Refused on purpose'}})
    }
    const fault = faults.shift()
    if (fault === 429) return send(res, 429, {error: {message: 'Too many requests'}}, {'retry-after': '0'})
    if (fault !== undefined) return send(res, fault, {error: {message: 'An unknown error occurred'}})
    send(res, 200, page(list(url), url))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    data,
    requests,
    authorizations,
    fail(n, status) {
      for (let i = 0; i < n; i++) faults.push(status)
    },
    failOn(path, status) {
      pathFaults.set(path, status)
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
