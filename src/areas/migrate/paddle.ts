// The Paddle Billing source: `/products?include=prices`, `/discounts`, `/customers` (with each one's
// `/addresses`, and `/businesses` for tax ids when asked), `/subscriptions` (counted), read with the `after`
// cursor of `meta.pagination.next` within Paddle's 240 requests a minute.
import type {Query} from '../../client/client.js'
import {setOwn} from '../../client/own-keys.js'
import {isoDigits} from './units.js'
import type {Interval, Source, SourceCustomer, SourceDiscount, SourceLeftovers, SourcePrice, SourceProduct} from './model.js'
import {type SourceClient, type SourceClientOptions, sourceClient} from './source-client.js'

export const PADDLE_API = 'https://api.paddle.com'
export const PADDLE_SANDBOX_API = 'https://sandbox-api.paddle.com'
/** Paddle allows 240 requests a minute from one IP address for most operations. */
export const PADDLE_BUDGET = {name: 'paddle', limit: 240, windowMs: 60_000}

/** The API a key belongs to: a sandbox key (`pdl_sdbx_...`) to the sandbox's, a live one to the live API. */
export const paddleApiBase = (key: string) => (/^pdl_sdbx_/.test(key) ? PADDLE_SANDBOX_API : PADDLE_API)

export interface PaddleOptions
  extends Partial<Pick<SourceClientOptions, 'budget' | 'sleep' | 'now' | 'random' | 'maxWaitMs' | 'debug' | 'keyName' | 'deadlineMs'>> {
  key: string
  /** The API of the key's environment unless said: a sandbox key (`pdl_sdbx_...`) reads the sandbox. */
  apiBase?: string
  /** Read each customer's addresses (one request per customer); on unless false. */
  addresses?: boolean
  /** Read each customer's businesses for a tax id (one more request per customer); off unless true. */
  businesses?: boolean
  /** Items per page, 1-200. */
  pageSize?: number
}

interface ListBody<T> {
  data: T[]
  meta?: {pagination?: {next?: string | null; has_more?: boolean}}
}

export interface PaddlePrice {
  id: string
  product_id: string
  description: string
  type?: string | null
  name?: string | null
  billing_cycle?: {interval: Interval; frequency: number} | null
  trial_period?: {interval: Interval; frequency: number} | null
  unit_price: {amount: string; currency_code: string}
  unit_price_overrides?: Array<{country_codes: string[]}> | null
  quantity: {minimum: number; maximum: number}
  status: string
}
export interface PaddleProduct {
  id: string
  name: string
  type?: string | null
  description?: string | null
  status: string
  custom_data?: Record<string, unknown> | null
  prices?: PaddlePrice[] | null
}
export interface PaddleDiscount {
  id: string
  status: string
  description: string
  code?: string | null
  mode?: string
  type: 'flat' | 'flat_per_seat' | 'percentage'
  amount: string
  currency_code?: string | null
  recur: boolean
  maximum_recurring_intervals?: number | null
  usage_limit?: number | null
  restrict_to?: string[] | null
  expires_at?: string | null
}
export interface PaddleCustomer {
  id: string
  name?: string | null
  email: string
}
export interface PaddleAddress {
  first_line?: string | null
  second_line?: string | null
  city?: string | null
  postal_code?: string | null
  region?: string | null
  country_code: string
}
interface PaddleBusiness {
  tax_identifier?: string | null
}

export function paddleSource(options: PaddleOptions): Source & {close(): Promise<void>} {
  const client = sourceClient({
    label: 'Paddle',
    baseUrl: options.apiBase ?? paddleApiBase(options.key),
    key: options.key,
    keyName: options.keyName ?? 'PADDLE_API_KEY',
    budget: options.budget ?? PADDLE_BUDGET,
    maxWaitMs: options.maxWaitMs,
    deadlineMs: options.deadlineMs,
    debug: options.debug,
    sleep: options.sleep,
    now: options.now,
    random: options.random,
  })
  const perPage = Math.min(200, Math.max(1, options.pageSize ?? 200))
  return {
    name: 'paddle',
    minorDigits: isoDigits,
    async *products(progress) {
      let n = 0
      const query = {include: 'prices', status: 'active,archived', type: 'standard', per_page: perPage}
      for await (const product of list<PaddleProduct>(client, '/products', query)) {
        yield paddleProduct(product)
        progress?.(++n)
      }
    },
    async *discounts(progress) {
      let n = 0
      for await (const discount of list<PaddleDiscount>(client, '/discounts', {per_page: perPage})) {
        // a custom-mode discount was made for one transaction by the API, not offered at checkout
        if (discount.mode === 'custom') continue
        yield paddleDiscount(discount)
        progress?.(++n)
      }
    },
    async *customers(progress) {
      let n = 0
      for await (const customer of list<PaddleCustomer>(client, '/customers', {status: 'active', per_page: perPage})) {
        const path = `/customers/${encodeURIComponent(customer.id)}`
        const address = options.addresses === false ? undefined : (await client.page<ListBody<PaddleAddress>>(`${path}/addresses`, {status: 'active'})).data[0]
        let taxId: string | undefined
        if (options.businesses) {
          const businesses = await client.page<ListBody<PaddleBusiness>>(`${path}/businesses`, {status: 'active'})
          taxId = businesses.data.find((b) => b.tax_identifier)?.tax_identifier ?? undefined
        }
        yield paddleCustomer(customer, address, taxId)
        progress?.(++n)
      }
    },
    async leftovers(): Promise<SourceLeftovers> {
      let activeSubscriptions = 0
      const query = {status: 'active,trialing,past_due,paused', per_page: perPage}
      for await (const _ of list<{id: string}>(client, '/subscriptions', query)) activeSubscriptions++
      // Paddle lists saved payment methods per customer only: they go with the subscriptions' migration
      return {activeSubscriptions, savedPaymentMethods: 0}
    },
    close: () => client.close(),
  }
}

/**
 * Every item of a Paddle list, following `meta.pagination.next` (the `after` cursor) while `has_more`; a
 * `next` seen before, a page seen before, or a `next` on another origin stops it (./paging.ts).
 */
async function* list<T>(client: SourceClient, path: string, query: Query): AsyncGenerator<T> {
  const guard = client.guard(path)
  let body = await client.page<ListBody<T>>(path, query)
  for (;;) {
    guard.page(body.data as Array<{id?: unknown}>)
    yield* body.data
    const next = body.meta?.pagination?.next
    if (!body.meta?.pagination?.has_more || !next || body.data.length === 0) return
    guard.next(String(next))
    body = await client.page<ListBody<T>>(String(next))
  }
}

export function paddleProduct(p: PaddleProduct): SourceProduct {
  const archived = p.status === 'archived'
  const changes: string[] = []
  const prices: SourcePrice[] = []
  // an archived product keeps its archived prices (so it converts); an active one sells only its active ones
  for (const price of p.prices ?? []) {
    if (!archived && price.status !== 'active') continue
    prices.push(paddlePrice(price))
    if (price.trial_period) {
      changes.push(
        `price ${price.id}: its free trial of ${price.trial_period.frequency} ${price.trial_period.interval}(s) is not moved: set one on the Polar product`,
      )
    }
    const countries = (price.unit_price_overrides ?? []).flatMap((o) => o.country_codes)
    if (countries.length > 0) changes.push(`price ${price.id}: its country prices (${countries.join(', ')}) are not moved: Polar has one price per currency`)
  }
  const metadata: Record<string, string> = {}
  for (const [key, value] of Object.entries(p.custom_data ?? {})) {
    if (value === null || value === undefined) continue
    setOwn(metadata, key, typeof value === 'string' ? value : JSON.stringify(value))
  }
  return {id: p.id, name: p.name, description: p.description || null, archived, prices, licenseKeys: null, metadata, ...(changes.length > 0 ? {changes} : {})}
}

/** One Paddle price in the normalized shape. */
export function paddlePrice(p: PaddlePrice): SourcePrice {
  const interval = p.billing_cycle?.interval ?? null
  const intervalCount = p.billing_cycle?.frequency ?? 1
  const raw = `${p.type ?? 'standard'}/${p.billing_cycle ? `every ${p.billing_cycle.frequency} ${p.billing_cycle.interval}` : 'one-time'}`
  if (p.type === 'custom') return {kind: 'unsupported', id: p.id, raw, reason: 'a custom (non-catalog) price, made for one transaction or subscription,'}
  if (p.quantity.minimum > 1) {
    return {kind: 'unsupported', id: p.id, raw, reason: `a minimum quantity of ${p.quantity.minimum}`}
  }
  const currency = p.unit_price.currency_code.toLowerCase()
  const amount = Number(p.unit_price.amount)
  if (!Number.isSafeInteger(amount) || amount < 0) return {kind: 'unsupported', id: p.id, raw, reason: `an amount of "${p.unit_price.amount}" minor units`}
  if (amount === 0) return {kind: 'free', id: p.id, currency, interval, intervalCount, raw}
  return {kind: 'fixed', id: p.id, money: {amount, currency}, interval, intervalCount, raw}
}

export function paddleDiscount(d: PaddleDiscount): SourceDiscount {
  const changes: string[] = []
  let value: SourceDiscount['value']
  if (d.type === 'percentage') value = {type: 'percentage', basisPoints: Math.round(Number(d.amount) * 100)}
  else {
    value = {type: 'fixed', money: {amount: Number(d.amount), currency: (d.currency_code ?? 'usd').toLowerCase()}}
    if (d.type === 'flat_per_seat') changes.push('Paddle takes its amount off each unit; Polar takes it off the order once')
  }
  let duration: SourceDiscount['duration'] = {type: 'once'}
  if (d.recur && d.maximum_recurring_intervals) {
    duration = {type: 'repeating', months: d.maximum_recurring_intervals}
    changes.push(`Paddle applies it for ${d.maximum_recurring_intervals} billing periods; Polar counts months (the same for monthly prices)`)
  } else if (d.recur) duration = {type: 'forever'}
  // a price named keeps its own id: the discount is limited to the product made from it (one interval of a product)
  const restricted = d.restrict_to ?? []
  const productIds = [...new Set(restricted.filter((id) => !id.startsWith('pri_')))]
  const priceIds = [...new Set(restricted.filter((id) => id.startsWith('pri_')))]
  return {
    id: d.id,
    name: d.description,
    code: d.code || null,
    value,
    duration,
    maxRedemptions: d.usage_limit ?? null,
    startsAt: null,
    endsAt: d.expires_at ?? null,
    productIds,
    ...(priceIds.length > 0 ? {priceIds} : {}),
    archived: d.status !== 'active',
    ...(changes.length > 0 ? {changes} : {}),
  }
}

/** The tax id type of a business's tax identifier, from its address's country (Polar needs one). */
const EU_COUNTRIES = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '))
const TAX_ID_TYPES: Record<string, string> = {GB: 'gb_vat', CH: 'ch_vat', NO: 'no_vat', AU: 'au_abn', CA: 'ca_bn', IN: 'in_gst', NZ: 'nz_gst', US: 'us_ein'}

export function paddleCustomer(c: PaddleCustomer, address: PaddleAddress | undefined, taxIdentifier?: string): SourceCustomer {
  const country = address?.country_code
  const type = country ? (EU_COUNTRIES.has(country) ? 'eu_vat' : TAX_ID_TYPES[country]) : undefined
  return {
    id: c.id,
    email: c.email || null,
    name: c.name || null,
    billingAddress: address
      ? {
          line1: address.first_line || null,
          line2: address.second_line || null,
          postalCode: address.postal_code || null,
          city: address.city || null,
          state: address.region || null,
          country: address.country_code,
        }
      : null,
    taxId: taxIdentifier && type ? {value: taxIdentifier, type} : null,
  }
}
