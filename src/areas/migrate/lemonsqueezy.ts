// The Lemon Squeezy source: its JSON:API (`/v1/stores`, `/products`, `/variants` with their current price,
// `/discounts`, `/customers`, `/subscriptions`), read page by page (`page[number]`, `page[size]` up to 100,
// `meta.page.lastPage`) within its 300 requests a minute. A variant is what has a price: each variant
// becomes one product (`Product — Variant` when the product has several), its id the variant's id.
import type {Query} from '../../client/client.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {isoDigits} from './units.js'
import type {Interval, Source, SourceCustomer, SourceDiscount, SourceLeftovers, SourcePrice, SourceProduct} from './model.js'
import {type SourceClient, type SourceClientOptions, sourceClient} from './source-client.js'

export const LEMONSQUEEZY_API = 'https://api.lemonsqueezy.com/v1'
/** Lemon Squeezy allows 300 API requests a minute. */
export const LEMONSQUEEZY_BUDGET = {name: 'lemonsqueezy', limit: 300, windowMs: 60_000}

export interface LemonSqueezyOptions
  extends Partial<Pick<SourceClientOptions, 'budget' | 'sleep' | 'now' | 'random' | 'maxWaitMs' | 'debug' | 'keyName' | 'deadlineMs'>> {
  key: string
  apiBase?: string
  /** Only this store's products, discounts and customers (the key sees every store of its user). */
  store?: string
  /** Items per page, 1-100. */
  pageSize?: number
}

/** What the source reads of a JSON:API resource: its id, attributes and related ids. */
export interface Resource<A> {
  id: string
  type: string
  attributes: A
  relationships?: Record<string, {data?: {id: string; type: string} | Array<{id: string; type: string}> | null}>
}

interface ListBody<A> {
  data: Array<Resource<A>>
  included?: Array<Resource<Record<string, unknown>>>
  meta?: {page?: {lastPage?: number; total?: number}}
  links?: {next?: string | null}
}

interface StoreAttrs {
  currency: string
}
export interface ProductAttrs {
  store_id: number
  name: string
  description: string | null
  status: string
}
export interface VariantAttrs {
  product_id: number
  name: string
  description: string | null
  status: string
  has_license_keys: boolean
  license_activation_limit: number
  is_license_limit_unlimited: boolean
  license_length_value: number
  license_length_unit: 'days' | 'months' | 'years'
  is_license_length_unlimited: boolean
  // deprecated price attributes, read when the variant's price model is not included
  price: number
  is_subscription: boolean
  interval: Interval | null
  interval_count: number | null
  has_free_trial: boolean
  pay_what_you_want: boolean
  min_price: number
  suggested_price: number
}
/** A price (`/v1/prices`) as it maps: a variant's current price is its `price-model`. */
export interface PriceAttrs {
  category: 'one_time' | 'subscription' | 'lead_magnet' | 'pwyw'
  scheme: 'standard' | 'package' | 'graduated' | 'volume'
  usage_aggregation: 'sum' | 'last_during_period' | 'last_ever' | 'max' | null
  unit_price: number | null
  unit_price_decimal: string | null
  setup_fee_enabled: boolean | null
  setup_fee: number | null
  package_size: number
  renewal_interval_unit: Interval | null
  renewal_interval_quantity: number | null
  trial_interval_unit: Interval | null
  trial_interval_quantity: number | null
  min_price: number | null
  suggested_price: number | null
}
export interface DiscountAttrs {
  store_id: number
  name: string
  code: string
  amount: number
  amount_type: 'percent' | 'fixed'
  is_limited_to_products: boolean
  is_limited_redemptions: boolean
  max_redemptions: number
  starts_at: string | null
  expires_at: string | null
  duration: 'once' | 'repeating' | 'forever'
  duration_in_months: number
  status: string
}
export interface CustomerAttrs {
  name: string | null
  email: string | null
  city: string | null
  region: string | null
  country: string | null
}

export function lemonSqueezySource(options: LemonSqueezyOptions): Source & {close(): Promise<void>} {
  const client = sourceClient({
    label: 'Lemon Squeezy',
    baseUrl: options.apiBase ?? LEMONSQUEEZY_API,
    key: options.key,
    keyName: options.keyName ?? 'LEMONSQUEEZY_API_KEY',
    budget: options.budget ?? LEMONSQUEEZY_BUDGET,
    accept: 'application/vnd.api+json',
    maxWaitMs: options.maxWaitMs,
    deadlineMs: options.deadlineMs,
    debug: options.debug,
    sleep: options.sleep,
    now: options.now,
    random: options.random,
  })
  const size = Math.min(100, Math.max(1, options.pageSize ?? 100))
  const storeFilter: Query = options.store ? {'filter[store_id]': options.store} : {}
  let currencies: Promise<Map<string, string>> | undefined
  /** Each store's currency (prices and fixed discounts are in it), checking --store. */
  const storeCurrencies = () => {
    currencies ??= (async () => {
      const map = new Map<string, string>()
      for await (const store of list<StoreAttrs>(client, '/stores', {}, size)) map.set(store.id, store.attributes.currency.toLowerCase())
      if (options.store && !map.has(options.store)) {
        throw new TillError(
          `Lemon Squeezy has no store ${options.store} for this API key`,
          ExitCode.notFound,
          `its stores: ${[...map.keys()].join(', ') || 'none'}; choose one with --store`,
        )
      }
      return map
    })()
    return currencies
  }
  const currencyOf = async (storeId: number | string) => (await storeCurrencies()).get(String(storeId)) ?? 'usd'

  return {
    name: 'lemonsqueezy',
    minorDigits: isoDigits,
    async *products(progress) {
      await storeCurrencies()
      const products = new Map<string, Resource<ProductAttrs>>()
      for await (const product of list<ProductAttrs>(client, '/products', storeFilter, size)) products.set(product.id, product)
      const variants = new Map<string, Array<{variant: Resource<VariantAttrs>; price: Resource<PriceAttrs> | undefined}>>()
      for await (const {item, included} of listWithIncluded<VariantAttrs>(client, '/variants', {include: 'price-model'}, size)) {
        const productId = String(item.attributes.product_id)
        if (!products.has(productId)) continue
        const priceId = relatedIds(item, 'price-model')[0]
        const price = included.find((r) => r.type === 'prices' && r.id === priceId) as Resource<PriceAttrs> | undefined
        const group = variants.get(productId) ?? []
        group.push({variant: item, price})
        variants.set(productId, group)
      }
      let n = 0
      for (const product of products.values()) {
        const currency = await currencyOf(product.attributes.store_id)
        const all = variants.get(product.id) ?? []
        // a `pending` variant is the product's default one, shown only when it has no other variants
        const shown = all.some((v) => v.variant.attributes.status !== 'pending') ? all.filter((v) => v.variant.attributes.status !== 'pending') : all
        for (const {variant, price} of shown) {
          yield variantProduct(product, variant, price, currency, shown.length > 1)
          progress?.(++n)
        }
      }
    },
    async *discounts(progress) {
      let n = 0
      for await (const discount of list<DiscountAttrs>(client, '/discounts', {...storeFilter, include: 'variants'}, size)) {
        yield lemonSqueezyDiscount(discount, await currencyOf(discount.attributes.store_id))
        progress?.(++n)
      }
    },
    async *customers(progress) {
      let n = 0
      for await (const customer of list<CustomerAttrs>(client, '/customers', storeFilter, size)) {
        yield lemonSqueezyCustomer(customer)
        progress?.(++n)
      }
    },
    async leftovers(): Promise<SourceLeftovers> {
      let activeSubscriptions = 0
      // every subscription that renews or will again (a cancelled one only runs to the end of its period)
      for (const status of ['on_trial', 'active', 'paused', 'past_due']) {
        const body = await client.page<ListBody<unknown>>('/subscriptions', {...storeFilter, 'filter[status]': status, 'page[size]': 1})
        activeSubscriptions += body.meta?.page?.total ?? body.data.length
      }
      // Lemon Squeezy keeps a card only with the subscription it renews: counted with the subscriptions
      return {activeSubscriptions, savedPaymentMethods: 0}
    },
    close: () => client.close(),
  }
}

async function* listWithIncluded<A>(
  client: SourceClient,
  path: string,
  query: Query,
  size: number,
): AsyncGenerator<{item: Resource<A>; included: Array<Resource<Record<string, unknown>>>}> {
  // page numbers always advance: a source that ignores them is stopped by the page it sends again (./paging.ts)
  const guard = client.guard(path)
  for (let page = 1; ; page++) {
    const body = await client.page<ListBody<A>>(path, {...query, 'page[number]': page, 'page[size]': size})
    guard.page(body.data)
    for (const item of body.data) yield {item, included: body.included ?? []}
    const last = body.meta?.page?.lastPage
    if (body.data.length === 0 || (last !== undefined ? page >= last : !body.links?.next)) return
  }
}

async function* list<A>(client: SourceClient, path: string, query: Query, size: number): AsyncGenerator<Resource<A>> {
  for await (const {item} of listWithIncluded<A>(client, path, query, size)) yield item
}

/** The ids a relationship names: JSON:API's to-one `data` is an object, to-many an array. */
export function relatedIds(resource: Resource<unknown>, name: string): string[] {
  const data = resource.relationships?.[name]?.data
  if (!data) return []
  return (Array.isArray(data) ? data : [data]).map((d) => d.id)
}

const LICENSE_DAYS = {days: 1, months: 30, years: 365} as const

export function variantProduct(
  product: Resource<ProductAttrs>,
  variant: Resource<VariantAttrs>,
  price: Resource<PriceAttrs> | undefined,
  currency: string,
  several: boolean,
): SourceProduct {
  const v = variant.attributes
  const changes: string[] = []
  const attrs = price?.attributes ?? priceOfVariant(v)
  const converted = lemonSqueezyPrice(price?.id ?? `variant-${variant.id}`, attrs, currency, product.attributes.name)
  if (attrs.setup_fee_enabled && attrs.setup_fee) changes.push(`its setup fee of ${attrs.setup_fee} (minor units) is not moved: Polar prices have none`)
  if (attrs.trial_interval_unit && attrs.trial_interval_quantity) {
    changes.push(`its free trial of ${attrs.trial_interval_quantity} ${attrs.trial_interval_unit}(s) is not moved: set one on the Polar product`)
  }
  let licenseKeys: SourceProduct['licenseKeys'] = null
  if (v.has_license_keys) {
    const expiresInDays = v.is_license_length_unlimited ? null : v.license_length_value * LICENSE_DAYS[v.license_length_unit]
    if (expiresInDays !== null && v.license_length_unit !== 'days') {
      changes.push(`license keys that expire after ${v.license_length_value} ${v.license_length_unit} expire after ${expiresInDays} days`)
    }
    licenseKeys = {activationLimit: v.is_license_limit_unlimited ? null : v.license_activation_limit, expiresInDays}
  }
  return {
    id: variant.id,
    name: several ? `${product.attributes.name} — ${v.name}` : product.attributes.name,
    description: plainText(v.description) || plainText(product.attributes.description) || null,
    archived: product.attributes.status === 'draft' || v.status === 'draft',
    prices: [converted],
    licenseKeys,
    metadata: {lemonsqueezy_product_id: product.id, lemonsqueezy_variant_id: variant.id, lemonsqueezy_store_id: String(product.attributes.store_id)},
    ...(changes.length > 0 ? {changes} : {}),
  }
}

/** A variant's price from its deprecated attributes, when its price model was not included. */
function priceOfVariant(v: VariantAttrs): PriceAttrs {
  return {
    category: v.pay_what_you_want ? 'pwyw' : v.is_subscription ? 'subscription' : 'one_time',
    scheme: 'standard',
    usage_aggregation: null,
    unit_price: v.price,
    unit_price_decimal: null,
    setup_fee_enabled: null,
    setup_fee: null,
    package_size: 1,
    renewal_interval_unit: v.is_subscription ? v.interval : null,
    renewal_interval_quantity: v.is_subscription ? (v.interval_count ?? 1) : null,
    trial_interval_unit: null,
    trial_interval_quantity: null,
    min_price: v.pay_what_you_want ? v.min_price : null,
    suggested_price: v.pay_what_you_want ? v.suggested_price : null,
  }
}

/** One Lemon Squeezy price in the normalized shape; tiers, packages and last-value usage are not Polar's. */
export function lemonSqueezyPrice(id: string, p: PriceAttrs, currency: string, productName: string): SourcePrice {
  const raw = `${p.category}/${p.scheme}${p.usage_aggregation ? `/usage:${p.usage_aggregation}` : ''}`
  const interval = p.renewal_interval_unit
  const intervalCount = interval ? (p.renewal_interval_quantity ?? 1) : 1
  if (p.scheme === 'graduated' || p.scheme === 'volume') {
    return {kind: 'unsupported', id, raw, reason: `${p.scheme} tiered pricing`}
  }
  if (p.scheme === 'package') {
    return {kind: 'unsupported', id, raw, reason: `package pricing (${p.package_size} units per package)`}
  }
  if (p.usage_aggregation) {
    if (p.usage_aggregation !== 'sum' || !interval) {
      return {kind: 'unsupported', id, raw, reason: `usage counted as its ${p.usage_aggregation.replace(/_/g, ' ')} value`}
    }
    const unitAmount = p.unit_price_decimal ?? String(p.unit_price ?? 0)
    return {kind: 'metered', id, currency, unitAmount, meterName: `${productName} usage`, interval, intervalCount, raw}
  }
  if (p.category === 'lead_magnet') return {kind: 'free', id, currency, interval, intervalCount, raw}
  if (p.category === 'pwyw') {
    return {kind: 'custom', id, currency, minimum: p.min_price || null, maximum: null, preset: p.suggested_price ?? null, interval, intervalCount, raw}
  }
  const amount = p.unit_price ?? 0
  if (amount === 0) return {kind: 'free', id, currency, interval, intervalCount, raw}
  return {kind: 'fixed', id, money: {amount, currency}, interval, intervalCount, raw}
}

export function lemonSqueezyDiscount(d: Resource<DiscountAttrs>, currency: string): SourceDiscount {
  const a = d.attributes
  return {
    id: d.id,
    name: a.name,
    code: a.code || null,
    value: a.amount_type === 'percent' ? {type: 'percentage', basisPoints: Math.round(a.amount * 100)} : {type: 'fixed', money: {amount: a.amount, currency}},
    duration: a.duration === 'repeating' ? {type: 'repeating', months: a.duration_in_months} : {type: a.duration},
    maxRedemptions: a.is_limited_redemptions ? a.max_redemptions : null,
    startsAt: a.starts_at,
    endsAt: a.expires_at,
    // limited to variants, which are the products the migration makes
    productIds: a.is_limited_to_products ? relatedIds(d, 'variants') : [],
    archived: a.status === 'draft',
  }
}

export function lemonSqueezyCustomer(c: Resource<CustomerAttrs>): SourceCustomer {
  const a = c.attributes
  return {
    id: c.id,
    email: a.email || null,
    name: a.name || null,
    // Lemon Squeezy keeps a customer's city, region and country, no street address
    billingAddress: a.country ? {line1: null, line2: null, postalCode: null, city: a.city || null, state: a.region || null, country: a.country} : null,
    taxId: null,
  }
}

/** Lemon Squeezy descriptions are HTML: the text, paragraphs on lines of their own. */
export function plainText(html: string | null): string {
  if (!html) return ''
  return html
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
