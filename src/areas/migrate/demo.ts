// `till migrate stripe --demo`: a made-up Stripe account, served on 127.0.0.1 in Stripe's wire shape (lists
// of 100 with `starting_after` and `has_more`), so that the real Stripe reader, converter and writer run end
// to end with no key and no network. Every name in it says "Demo", its objects are migrated from
// `stripe-demo:`, and the report says it is demo data. It shows what a migration does: a product in two
// intervals, two currencies, pay what you want, a metered price, a tiered price that cannot move, an
// amount in ISK, codes (one expired), customers with and without what Polar needs.
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

/** The source name of a demo run: its objects' `migrated_from` start with it, and the report names it. */
export const DEMO_SOURCE = 'stripe-demo'
/** The key the demo source is read with (it takes any; a test-mode key paces it as Stripe's test mode). */
export const DEMO_KEY = 'rk_test_demo'
/** What the report and the notes say of a demo run. */
export const DEMO_NOTE = "demo data: till's built-in example of a Stripe account, served on 127.0.0.1; nothing was read from Stripe"

type Wire = Record<string, unknown> & {id: string}

const CREATED = 1_767_225_600 // 2026-01-01

const product = (id: string, name: string, extra: Record<string, unknown> = {}): Wire => ({
  id,
  object: 'product',
  active: true,
  name,
  description: `${name}: an example product of till's demo`,
  default_price: null,
  metadata: {demo: 'true'},
  created: CREATED,
  ...extra,
})

const price = (id: string, productId: string, extra: Record<string, unknown>): Wire => ({
  id,
  object: 'price',
  active: true,
  product: productId,
  currency: 'usd',
  type: 'one_time',
  billing_scheme: 'per_unit',
  unit_amount: null,
  unit_amount_decimal: null,
  custom_unit_amount: null,
  recurring: null,
  transform_quantity: null,
  nickname: null,
  created: CREATED,
  ...extra,
})

const every = (interval: string, usage: 'licensed' | 'metered' = 'licensed', meter: string | null = null) => ({
  interval,
  interval_count: 1,
  usage_type: usage,
  meter,
})

const coupon = (id: string, name: string, extra: Record<string, unknown>): Wire => ({
  id,
  object: 'coupon',
  name,
  percent_off: null,
  amount_off: null,
  currency: null,
  duration: 'once',
  duration_in_months: null,
  max_redemptions: null,
  redeem_by: null,
  valid: true,
  applies_to: {products: []},
  ...extra,
})

const code = (id: string, text: string, couponId: string, extra: Record<string, unknown> = {}): Wire => ({
  id,
  object: 'promotion_code',
  code: text,
  active: true,
  expires_at: null,
  max_redemptions: null,
  promotion: {type: 'coupon', coupon: couponId},
  ...extra,
})

const customer = (n: number, extra: Record<string, unknown> = {}): Wire => ({
  id: `cus_Demo${String(n).padStart(3, '0')}`,
  object: 'customer',
  email: `demo.customer${n}@example.com`,
  name: `Demo Customer ${n}`,
  address: null,
  tax_ids: {object: 'list', data: [], has_more: false},
  default_source: null,
  invoice_settings: {default_payment_method: null},
  ...extra,
})

/** The demo account, list by list (the paths of Stripe's API). */
export function demoAccount(): Record<string, Wire[]> {
  const customers = Array.from({length: 12}, (_, i) => customer(i + 1))
  customers[0] = customer(1, {
    address: {line1: '1 Demo Street', line2: null, postal_code: '75001', city: 'Paris', state: null, country: 'FR'},
    tax_ids: {object: 'list', data: [{type: 'eu_vat', value: 'FR12345678901'}], has_more: false},
    invoice_settings: {default_payment_method: 'pm_Demo1'},
  })
  customers[1] = customer(2, {address: {line1: '2 Demo Road', line2: null, postal_code: '10001', city: 'New York', state: 'NY', country: 'US'}})
  customers[2] = customer(3, {email: null, name: 'Demo Customer without e-mail'})
  customers[3] = customer(4, {default_source: 'card_Demo4'})
  return {
    '/v1/products': [
      product('prod_DemoStarter', 'Demo Starter', {default_price: 'price_DemoStarterMonth'}),
      product('prod_DemoTeam', 'Demo Team'),
      product('prod_DemoTipJar', 'Demo Tip Jar'),
      product('prod_DemoApi', 'Demo API Calls'),
      product('prod_DemoVolume', 'Demo Volume Licences'),
      product('prod_DemoIceland', 'Demo Reykjavik Plan'),
      product('prod_DemoRetired', 'Demo Retired Plan', {active: false}),
    ],
    '/v1/prices': [
      price('price_DemoStarterMonth', 'prod_DemoStarter', {type: 'recurring', unit_amount: 900, recurring: every('month')}),
      price('price_DemoStarterYear', 'prod_DemoStarter', {type: 'recurring', unit_amount: 9000, recurring: every('year')}),
      price('price_DemoTeamUsd', 'prod_DemoTeam', {type: 'recurring', unit_amount: 2900, recurring: every('month')}),
      price('price_DemoTeamEur', 'prod_DemoTeam', {type: 'recurring', currency: 'eur', unit_amount: 2700, recurring: every('month')}),
      price('price_DemoTipJar', 'prod_DemoTipJar', {custom_unit_amount: {minimum: 300, maximum: null, preset: 500}}),
      price('price_DemoApiBase', 'prod_DemoApi', {type: 'recurring', unit_amount: 1000, recurring: every('month')}),
      price('price_DemoApiCalls', 'prod_DemoApi', {
        type: 'recurring',
        unit_amount_decimal: '0.5',
        recurring: every('month', 'metered', 'mtr_DemoCalls'),
      }),
      price('price_DemoVolume', 'prod_DemoVolume', {type: 'recurring', billing_scheme: 'tiered', recurring: every('month')}),
      // 5,000 ISK: Stripe counts ISK in hundredths, as Polar does
      price('price_DemoIceland', 'prod_DemoIceland', {type: 'recurring', currency: 'isk', unit_amount: 500_000, recurring: every('month')}),
    ],
    '/v1/billing/meters': [{id: 'mtr_DemoCalls', object: 'billing.meter', event_name: 'demo.api_call'}],
    '/v1/coupons': [
      coupon('co_DemoWelcome', 'Demo Welcome', {percent_off: 20, duration: 'repeating', duration_in_months: 3}),
      coupon('co_DemoTenOff', 'Demo Ten Off Team', {amount_off: 1000, currency: 'usd', applies_to: {products: ['prod_DemoTeam']}}),
      coupon('co_DemoSpring', 'Demo Spring 2020', {percent_off: 15}),
    ],
    '/v1/promotion_codes': [
      code('promo_DemoWelcome', 'DEMO-WELCOME', 'co_DemoWelcome'),
      code('promo_DemoSpring', 'DEMOSPRING2020', 'co_DemoSpring', {expires_at: 1_593_475_200}),
    ],
    '/v1/customers': customers,
    '/v1/subscriptions': [
      {id: 'sub_Demo1', object: 'subscription', status: 'active'},
      {id: 'sub_Demo2', object: 'subscription', status: 'active'},
    ],
  }
}

export interface DemoServer {
  /** The base URL to read it at: `http://127.0.0.1:PORT`. */
  url: string
  close(): Promise<void>
}

/** Serves the demo account on 127.0.0.1 (a port the system picks) until closed. */
export async function startStripeDemo(): Promise<DemoServer> {
  const account = demoAccount()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const list = req.method === 'GET' ? account[url.pathname] : undefined
    res.setHeader('content-type', 'application/json')
    if (!list) {
      res.statusCode = 404
      res.end(JSON.stringify({error: {type: 'invalid_request_error', message: `The demo has no ${req.method} ${url.pathname}`}}))
      return
    }
    const status = url.searchParams.get('status')
    const active = url.searchParams.get('active')
    const matching = list.filter((item) => (status === null || item.status === status) && (active === null || String(item.active) === active))
    const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 10) || 10))
    const after = url.searchParams.get('starting_after')
    const start = after === null ? 0 : matching.findIndex((item) => item.id === after) + 1
    const data = matching.slice(start, start + limit)
    res.end(JSON.stringify({object: 'list', url: url.pathname, data, has_more: start + limit < matching.length}))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
