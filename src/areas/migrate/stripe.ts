// The Stripe source: products with their prices, coupons and promotion codes, customers (with their tax
// ids), and counts of what an API client cannot move (active subscriptions, saved payment methods). Read
// with a restricted (read-only) key, 100 objects a page, `starting_after` the last id while `has_more`,
// through the client's one retry loop (./source-client.ts), paced within Stripe's documented read limit.
// The wire shapes below are the few fields read, as Stripe's API reference documents them (the tests'
// fake server is typed with the official `stripe` package's types).
import type {Budget} from '../../client/pace.js'
import {type SourceClient, type SourceClientOptions, sourceClient} from './source-client.js'
import {stripeDigits} from './units.js'
import type {Interval, Source, SourceCustomer, SourceDiscount, SourceLeftovers, SourcePrice, SourceProduct} from './model.js'

interface List<T> {
  data: T[]
  has_more: boolean
}

interface StripeProduct {
  id: string
  name: string
  description: string | null
  active: boolean
  default_price?: string | {id: string} | null
  metadata: Record<string, string>
}

interface StripePrice {
  id: string
  active: boolean
  product: string | {id: string}
  currency: string
  type: 'one_time' | 'recurring'
  billing_scheme: 'per_unit' | 'tiered'
  unit_amount: number | null
  unit_amount_decimal: string | null
  custom_unit_amount: {minimum: number | null; maximum: number | null; preset: number | null} | null
  recurring: {interval: Interval; interval_count: number; usage_type: 'licensed' | 'metered'; meter?: string | null} | null
  transform_quantity: {divide_by: number} | null
  nickname: string | null
}

interface StripeCoupon {
  id: string
  name: string | null
  percent_off: number | null
  amount_off: number | null
  currency: string | null
  duration: 'once' | 'forever' | 'repeating'
  duration_in_months: number | null
  max_redemptions: number | null
  redeem_by: number | null
  valid: boolean
  applies_to?: {products: string[]}
}

interface StripePromotionCode {
  id: string
  code: string
  active: boolean
  expires_at: number | null
  max_redemptions: number | null
  promotion?: {coupon: string | StripeCoupon | null}
  /** API versions before 2025: the coupon at the top. */
  coupon?: string | StripeCoupon
}

interface StripeCustomer {
  id: string
  email: string | null
  name?: string | null
  address?: {line1: string | null; line2: string | null; postal_code: string | null; city: string | null; state: string | null; country: string | null} | null
  tax_ids?: {data: Array<{type: string; value: string}>}
  default_source?: string | null
  invoice_settings?: {default_payment_method?: string | {id: string} | null}
}

const idOf = (ref: string | {id: string} | null | undefined) => (ref === null || ref === undefined ? null : typeof ref === 'string' ? ref : ref.id)
const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString())

/** Every object of a Stripe list, page after page (a page or a cursor seen before stops it: ./paging.ts). */
async function* paged<T extends {id: string}>(client: SourceClient, path: string, query: Record<string, string>, progress?: (n: number) => void) {
  const guard = client.guard(path)
  let after: string | undefined
  let n = 0
  for (;;) {
    const page = await client.page<List<T>>(path, {...query, limit: '100', ...(after === undefined ? {} : {starting_after: after})})
    guard.page(page.data)
    for (const item of page.data) {
      yield item
      progress?.(++n)
    }
    if (!page.has_more || page.data.length === 0) return
    after = String(page.data.at(-1)!.id)
    guard.next(after)
  }
}

/** A Stripe price in the normalized shape. */
export function stripePrice(p: StripePrice, productName: string, meters: Map<string, string>): SourcePrice {
  const interval = p.recurring?.interval ?? null
  const intervalCount = p.recurring?.interval_count ?? 1
  const currency = p.currency.toLowerCase()
  const raw = `${p.type}${p.recurring ? ` ${p.recurring.usage_type}` : ''} ${p.billing_scheme}`
  if (p.billing_scheme === 'tiered') return {kind: 'unsupported', id: p.id, reason: 'tiered pricing (graduated or volume)', raw}
  if (p.transform_quantity) return {kind: 'unsupported', id: p.id, reason: `package pricing (per ${p.transform_quantity.divide_by} units)`, raw}
  if (p.recurring?.usage_type === 'metered') {
    const meterName = (p.recurring.meter ? meters.get(p.recurring.meter) : undefined) ?? `${productName} usage`
    const unitAmount = p.unit_amount_decimal ?? String(p.unit_amount ?? 0)
    return {kind: 'metered', id: p.id, currency, unitAmount, meterName, interval: p.recurring.interval, intervalCount, raw}
  }
  if (p.custom_unit_amount) {
    const c = p.custom_unit_amount
    return {kind: 'custom', id: p.id, currency, minimum: c.minimum, maximum: c.maximum, preset: c.preset, interval, intervalCount, raw: 'custom_unit_amount'}
  }
  if (p.unit_amount === null) {
    // a decimal unit amount of a licensed price: whole minor units only
    const decimal = Number(p.unit_amount_decimal ?? Number.NaN)
    if (!Number.isInteger(decimal)) return {kind: 'unsupported', id: p.id, reason: `a fraction of a minor unit (${p.unit_amount_decimal})`, raw}
    return {kind: 'fixed', id: p.id, money: {amount: decimal, currency}, interval, intervalCount, raw}
  }
  if (p.unit_amount === 0) return {kind: 'free', id: p.id, currency, interval, intervalCount, raw}
  return {kind: 'fixed', id: p.id, money: {amount: p.unit_amount, currency}, interval, intervalCount, raw}
}

/**
 * Stripe's documented read limits: 100 requests a second in live mode, 25 in test mode (a `_test_` key).
 * A little under each, as Stripe advises.
 */
export const stripeBudget = (key: string): Budget =>
  /^[a-z]+_test_/.test(key) ? {name: 'stripe', limit: 20, windowMs: 1000} : {name: 'stripe', limit: 80, windowMs: 1000}

export interface StripeOptions extends Partial<Pick<SourceClientOptions, 'keyName' | 'deadlineMs' | 'maxWaitMs' | 'debug' | 'sleep' | 'now' | 'random'>> {
  key: string
  base?: string
  budget?: Budget
  /** The source's name (`migrated_from` prefix, the report's source): `stripe` unless a demo says otherwise. */
  name?: string
}

export function stripeSource(options: StripeOptions): Source & {close(): Promise<void>} {
  const http = sourceClient({
    label: 'Stripe',
    baseUrl: options.base ?? 'https://api.stripe.com',
    key: options.key,
    keyName: options.keyName ?? 'STRIPE_API_KEY',
    budget: options.budget ?? stripeBudget(options.key),
    maxWaitMs: options.maxWaitMs,
    deadlineMs: options.deadlineMs,
    debug: options.debug,
    sleep: options.sleep,
    now: options.now,
    random: options.random,
  })
  let coupons: Map<string, StripeCoupon> | undefined
  const leftovers: SourceLeftovers = {activeSubscriptions: 0, savedPaymentMethods: 0}
  let customersCounted = false

  async function allCoupons(): Promise<Map<string, StripeCoupon>> {
    if (coupons) return coupons
    coupons = new Map()
    for await (const c of paged<StripeCoupon>(http, '/v1/coupons', {'expand[]': 'data.applies_to'})) coupons.set(c.id, c)
    return coupons
  }

  function discountOf(id: string, coupon: StripeCoupon, code: StripePromotionCode | null): SourceDiscount {
    return {
      id,
      name: coupon.name ?? code?.code ?? coupon.id,
      code: code?.code ?? null,
      value:
        coupon.percent_off !== null
          ? {type: 'percentage', basisPoints: Math.round(coupon.percent_off * 100)}
          : {type: 'fixed', money: {amount: coupon.amount_off ?? 0, currency: (coupon.currency ?? 'usd').toLowerCase()}},
      duration: coupon.duration === 'repeating' ? {type: 'repeating', months: coupon.duration_in_months ?? 1} : {type: coupon.duration},
      maxRedemptions: code?.max_redemptions ?? coupon.max_redemptions,
      startsAt: null,
      endsAt: iso(code?.expires_at ?? coupon.redeem_by),
      productIds: coupon.applies_to?.products ?? [],
      archived: !coupon.valid || (code !== null && !code.active),
    }
  }

  return {
    name: options.name ?? 'stripe',
    minorDigits: stripeDigits,
    close: () => http.close(),
    async *products(progress) {
      const meters = new Map<string, string>()
      const prices = new Map<string, StripePrice[]>()
      for await (const p of paged<StripePrice>(http, '/v1/prices', {active: 'true'})) {
        const product = idOf(p.product)!
        prices.set(product, [...(prices.get(product) ?? []), p])
        if (p.recurring?.meter) meters.set(p.recurring.meter, '')
      }
      if (meters.size > 0) for await (const m of paged<{id: string; event_name: string}>(http, '/v1/billing/meters', {})) meters.set(m.id, m.event_name)
      for await (const p of paged<StripeProduct>(http, '/v1/products', {}, progress)) {
        const own = prices.get(p.id) ?? []
        // the default price first: where the source has several of one kind, it is the one kept
        const first = idOf(p.default_price)
        own.sort((a, b) => Number(b.id === first) - Number(a.id === first))
        yield {
          id: p.id,
          name: p.name,
          description: p.description === '' ? null : p.description,
          archived: !p.active,
          prices: own.map((price) => stripePrice(price, p.name, meters)),
          licenseKeys: null,
          metadata: p.metadata ?? {},
        } satisfies SourceProduct
      }
    },
    async *discounts(progress) {
      const all = await allCoupons()
      const withCodes = new Set<string>()
      let n = 0
      for await (const code of paged<StripePromotionCode>(http, '/v1/promotion_codes', {})) {
        const couponId = idOf(code.promotion?.coupon ?? code.coupon)
        const coupon = couponId === null ? undefined : all.get(couponId)
        if (!coupon) continue
        withCodes.add(coupon.id)
        yield discountOf(code.id, coupon, code)
        progress?.(++n)
      }
      for (const coupon of all.values()) {
        if (withCodes.has(coupon.id)) continue
        yield discountOf(coupon.id, coupon, null)
        progress?.(++n)
      }
    },
    async *customers(progress) {
      leftovers.savedPaymentMethods = 0
      for await (const c of paged<StripeCustomer>(http, '/v1/customers', {'expand[]': 'data.tax_ids'}, progress)) {
        if (c.default_source || idOf(c.invoice_settings?.default_payment_method)) leftovers.savedPaymentMethods++
        const a = c.address
        const tax = c.tax_ids?.data[0]
        yield {
          id: c.id,
          email: c.email,
          name: c.name ?? null,
          billingAddress: a?.country
            ? {line1: a.line1, line2: a.line2, postalCode: a.postal_code, city: a.city, state: a.state, country: a.country.toUpperCase()}
            : null,
          taxId: tax ? {value: tax.value, type: tax.type} : null,
        } satisfies SourceCustomer
      }
      customersCounted = true
    },
    async leftovers() {
      if (!customersCounted) for await (const _ of this.customers()) void _
      let active = 0
      for await (const _ of paged<{id: string}>(http, '/v1/subscriptions', {status: 'active'})) active++
      return {...leftovers, activeSubscriptions: active}
    },
  }
}
