// A fake Lemon Squeezy API (JSON:API, `/v1/...`) for the migration tests: stores, products, variants with
// their price models, discounts, customers and subscriptions generated from a count, every fixture typed
// with the official SDK's types (`@lemonsqueezy/lemonsqueezy.js`), so the compiler checks their shape.
// Lists page as the real API does: `page[number]`, `page[size]` (10 unless said, at most 100),
// `meta.page` and `links.next`; `filter[...]` and `include` as the source uses them.
import type {ListCustomers, ListDiscounts, ListPrices, ListProducts, ListStores, ListSubscriptions, ListVariants} from '@lemonsqueezy/lemonsqueezy.js'

import {FakeSource, STAMP} from './fake-source.js'

export type LsStore = ListStores['data'][number]
export type LsProduct = ListProducts['data'][number]
export type LsVariant = ListVariants['data'][number]
export type LsPrice = ListPrices['data'][number]
export type LsDiscount = ListDiscounts['data'][number]
export type LsCustomer = ListCustomers['data'][number]
export type LsSubscription = ListSubscriptions['data'][number]
type Resource = {id: string; type: string; attributes: object; relationships: object}

export interface LsFixtures {
  stores: LsStore[]
  products: LsProduct[]
  variants: LsVariant[]
  prices: LsPrice[]
  discounts: LsDiscount[]
  customers: LsCustomer[]
  subscriptions: LsSubscription[]
}

const rel = (self: string, data?: Array<{id: string; type: 'variants' | 'prices'}>) => ({
  links: {related: `https://api.lemonsqueezy.com/v1/${self}`, self: `https://api.lemonsqueezy.com/v1/${self}/relationships`},
  ...(data ? {data} : {}),
})

export function lsStore(id: string, currency: 'USD' | 'EUR'): LsStore {
  return {
    type: 'stores',
    id,
    attributes: {
      name: `Store ${id}`,
      slug: `store-${id}`,
      domain: `store-${id}.example.test`,
      url: `https://store-${id}.example.test`,
      avatar_url: '',
      plan: 'fresh',
      country: currency === 'USD' ? 'US' : 'DE',
      country_nicename: currency === 'USD' ? 'United States' : 'Germany',
      currency,
      total_sales: 0,
      total_revenue: 0,
      thirty_day_sales: 0,
      thirty_day_revenue: 0,
      created_at: STAMP,
      updated_at: STAMP,
    },
    relationships: {
      products: rel(`stores/${id}/products`),
      orders: rel(`stores/${id}/orders`),
      subscriptions: rel(`stores/${id}/subscriptions`),
      discounts: rel(`stores/${id}/discounts`),
      'license-keys': rel(`stores/${id}/license-keys`),
      webhooks: rel(`stores/${id}/webhooks`),
    },
    links: {self: `https://api.lemonsqueezy.com/v1/stores/${id}`},
  }
}

export function lsProduct(id: number, storeId: number, name: string, status: 'published' | 'draft' = 'published'): LsProduct {
  return {
    type: 'products',
    id: String(id),
    attributes: {
      store_id: storeId,
      name,
      slug: `product-${id}`,
      description: `<p>About ${name} &amp; more</p>`,
      status,
      status_formatted: status,
      thumb_url: '',
      large_thumb_url: '',
      price: 0,
      price_formatted: '',
      from_price: null,
      from_price_formatted: null,
      to_price: null,
      to_price_formatted: null,
      pay_what_you_want: false,
      buy_now_url: '',
      created_at: STAMP,
      updated_at: STAMP,
      test_mode: true,
    },
    relationships: {store: rel(`products/${id}/store`), variants: rel(`products/${id}/variants`)},
    links: {self: `https://api.lemonsqueezy.com/v1/products/${id}`},
  }
}

export type PriceShape = Partial<LsPrice['attributes']>

export function lsPrice(id: number, variantId: number, shape: PriceShape): LsPrice {
  return {
    type: 'prices',
    id: String(id),
    attributes: {
      variant_id: variantId,
      category: 'one_time',
      scheme: 'standard',
      usage_aggregation: null,
      unit_price: 1000,
      unit_price_decimal: null,
      setup_fee_enabled: null,
      setup_fee: null,
      package_size: 1,
      tiers: null,
      renewal_interval_unit: null,
      renewal_interval_quantity: null,
      trial_interval_unit: null,
      trial_interval_quantity: null,
      min_price: null,
      suggested_price: null,
      tax_code: 'saas',
      created_at: STAMP,
      updated_at: STAMP,
      ...shape,
    },
    relationships: {variant: rel(`prices/${id}/variant`)},
    links: {self: `https://api.lemonsqueezy.com/v1/prices/${id}`},
  }
}

export interface VariantShape {
  name?: string
  status?: 'pending' | 'draft' | 'published'
  licenseKeys?: {limit: number | null; length: {value: number; unit: 'days' | 'months' | 'years'} | null}
}

export function lsVariant(id: number, productId: number, priceId: number, shape: VariantShape = {}): LsVariant {
  const keys = shape.licenseKeys
  return {
    type: 'variants',
    id: String(id),
    attributes: {
      product_id: productId,
      name: shape.name ?? 'Default',
      slug: `variant-${id}`,
      description: '',
      has_license_keys: keys !== undefined,
      license_activation_limit: keys?.limit ?? 5,
      is_license_limit_unlimited: keys !== undefined && keys.limit === null,
      license_length_value: keys?.length?.value ?? 1,
      license_length_unit: keys?.length?.unit ?? 'years',
      is_license_length_unlimited: keys !== undefined && keys.length === null,
      links: [],
      sort: 0,
      status: shape.status ?? 'pending',
      status_formatted: shape.status ?? 'pending',
      created_at: STAMP,
      updated_at: STAMP,
      test_mode: true,
      // the deprecated price attributes, still sent
      price: 0,
      is_subscription: false,
      interval: null,
      interval_count: null,
      has_free_trial: false,
      trial_interval: 'day',
      trial_interval_count: 0,
      pay_what_you_want: false,
      min_price: 0,
      suggested_price: 0,
    },
    relationships: {
      product: rel(`variants/${id}/product`),
      files: rel(`variants/${id}/files`),
      'price-model': rel(`variants/${id}/price-model`, [{id: String(priceId), type: 'prices'}]),
    },
    links: {self: `https://api.lemonsqueezy.com/v1/variants/${id}`},
  }
}

/** The price shapes products cycle through: every category, scheme and usage setting the source maps. */
export const LS_SHAPES: Array<{price: PriceShape; variant?: VariantShape; variants?: number; status?: 'draft'}> = [
  {price: {category: 'subscription', unit_price: 1500, renewal_interval_unit: 'month', renewal_interval_quantity: 1}},
  {
    price: {
      category: 'subscription',
      unit_price: 12000,
      renewal_interval_unit: 'year',
      renewal_interval_quantity: 1,
      trial_interval_unit: 'day',
      trial_interval_quantity: 14,
    },
  },
  {price: {category: 'one_time', unit_price: 4900}},
  {price: {category: 'pwyw', unit_price: 0, min_price: 500}},
  {price: {category: 'lead_magnet', unit_price: 0}},
  {price: {category: 'one_time', unit_price: 2900}, variants: 2},
  {
    price: {
      category: 'subscription',
      scheme: 'graduated',
      renewal_interval_unit: 'month',
      renewal_interval_quantity: 1,
      tiers: [{last_unit: 'inf', unit_price: 10, unit_price_decimal: null, fixed_fee: 0}],
    },
  },
  {price: {category: 'one_time', scheme: 'package', package_size: 10}},
  {
    price: {
      category: 'subscription',
      usage_aggregation: 'sum',
      unit_price: 0,
      unit_price_decimal: '0.5',
      renewal_interval_unit: 'month',
      renewal_interval_quantity: 1,
    },
  },
  {price: {category: 'one_time', unit_price: 9900}, variant: {licenseKeys: {limit: 3, length: {value: 1, unit: 'years'}}}, status: 'draft'},
  {price: {category: 'subscription', unit_price: 900, renewal_interval_unit: 'week', renewal_interval_quantity: 2, setup_fee_enabled: true, setup_fee: 2500}},
  {
    price: {
      category: 'subscription',
      usage_aggregation: 'last_ever',
      unit_price: 0,
      unit_price_decimal: '3',
      renewal_interval_unit: 'month',
      renewal_interval_quantity: 1,
    },
  },
  {price: {category: 'one_time', unit_price: 1900}, variant: {licenseKeys: {limit: null, length: null}}},
]

/** `products` products (every 50th in a second store, in euros), each of a shape of LS_SHAPES in turn, and `customers` customers. */
export function lsFixtures(counts: {products: number; customers: number; subscriptions?: number}): LsFixtures {
  const f: LsFixtures = {
    stores: [lsStore('1', 'USD'), lsStore('2', 'EUR')],
    products: [],
    variants: [],
    prices: [],
    discounts: [],
    customers: [],
    subscriptions: [],
  }
  let variantId = 5000
  let priceId = 90000
  for (let i = 0; i < counts.products; i++) {
    const shape = LS_SHAPES[i % LS_SHAPES.length]!
    const id = 100 + i
    f.products.push(lsProduct(id, i % 50 === 49 ? 2 : 1, `Product ${i}`, shape.status))
    const several = shape.variants ?? 1
    if (several > 1) {
      // the default variant of a product with variants stays `pending` and is not sold
      f.variants.push(lsVariant(++variantId, id, ++priceId, {status: 'pending'}))
      f.prices.push(lsPrice(priceId, variantId, shape.price))
    }
    for (let v = 0; v < several; v++) {
      f.variants.push(lsVariant(++variantId, id, ++priceId, {...shape.variant, ...(several > 1 ? {name: `Tier ${v + 1}`, status: 'published'} : {})}))
      f.prices.push(lsPrice(priceId, variantId, {...shape.price, ...(several > 1 ? {unit_price: (shape.price.unit_price ?? 0) + v * 1000} : {})}))
    }
  }
  const firstVariants = f.variants.slice(0, 3).map((v) => ({id: v.id, type: 'variants' as const}))
  f.discounts.push(lsDiscount(1, {name: 'Launch', code: 'LAUNCH20', amount: 20, amount_type: 'percent', duration: 'once'}))
  f.discounts.push(
    lsDiscount(2, {name: 'Ten off', code: 'TENOFF', amount: 1000, amount_type: 'fixed', duration: 'repeating', duration_in_months: 3}, firstVariants),
  )
  f.discounts.push(
    lsDiscount(3, {
      name: 'Forever',
      code: 'FOREVER5',
      amount: 5,
      amount_type: 'percent',
      duration: 'forever',
      is_limited_redemptions: true,
      max_redemptions: 100,
    }),
  )
  f.discounts.push(lsDiscount(4, {name: 'Old', code: 'OLD', amount: 50, amount_type: 'percent', status: 'draft', expires_at: '2025-01-01T00:00:00.000000Z'}))
  f.discounts.push(lsDiscount(5, {name: 'Euro', code: 'EURO', amount: 300, amount_type: 'fixed', store_id: 2}))
  for (let i = 0; i < counts.customers; i++) f.customers.push(lsCustomer(1 + i, i))
  const statuses = ['active', 'on_trial', 'past_due', 'paused', 'cancelled', 'expired'] as const
  for (let i = 0; i < (counts.subscriptions ?? 30); i++) f.subscriptions.push(lsSubscription(1 + i, statuses[i % statuses.length]!))
  return f
}

export function lsDiscount(id: number, a: Partial<LsDiscount['attributes']>, variants?: Array<{id: string; type: 'variants'}>): LsDiscount {
  return {
    type: 'discounts',
    id: String(id),
    attributes: {
      store_id: 1,
      name: 'Discount',
      code: `CODE${id}`,
      amount: 10,
      amount_type: 'percent',
      is_limited_to_products: variants !== undefined,
      is_limited_redemptions: false,
      max_redemptions: 0,
      starts_at: null,
      expires_at: null,
      duration: 'once',
      duration_in_months: 1,
      status: 'published',
      status_formatted: 'Published',
      created_at: STAMP,
      updated_at: STAMP,
      test_mode: true,
      ...a,
    },
    relationships: {
      store: rel(`discounts/${id}/store`),
      variants: rel(`discounts/${id}/variants`, variants),
      'discount-redemptions': rel(`discounts/${id}/discount-redemptions`),
    },
    links: {self: `https://api.lemonsqueezy.com/v1/discounts/${id}`},
  }
}

export function lsCustomer(id: number, i: number): LsCustomer {
  const located = i % 2 === 0
  return {
    type: 'customers',
    id: String(id),
    attributes: {
      store_id: i % 50 === 49 ? 2 : 1,
      name: `Customer ${i}`,
      email: `customer${i}@example.com`,
      status: 'subscribed',
      city: located ? 'Berlin' : null,
      region: located ? 'Berlin' : null,
      country: located ? 'DE' : null,
      total_revenue_currency: 0,
      mrr: 0,
      status_formatted: 'Subscribed',
      country_formatted: located ? 'Germany' : null,
      total_revenue_currency_formatted: '$0.00',
      mrr_formatted: '$0.00',
      urls: {customer_portal: null},
      created_at: STAMP,
      updated_at: STAMP,
      test_mode: true,
    },
    relationships: {
      store: rel(`customers/${id}/store`),
      orders: rel(`customers/${id}/orders`),
      subscriptions: rel(`customers/${id}/subscriptions`),
      'license-keys': rel(`customers/${id}/license-keys`),
    },
    links: {self: `https://api.lemonsqueezy.com/v1/customers/${id}`},
  }
}

export function lsSubscription(id: number, status: LsSubscription['attributes']['status']): LsSubscription {
  const links = (name: string) => rel(`subscriptions/${id}/${name}`)
  return {
    type: 'subscriptions',
    id: String(id),
    attributes: {
      store_id: 1,
      customer_id: id,
      order_id: id,
      order_item_id: id,
      product_id: 100,
      variant_id: 5001,
      product_name: 'Product 0',
      variant_name: 'Default',
      user_name: 'Someone',
      user_email: `someone${id}@example.com`,
      status,
      status_formatted: status,
      card_brand: 'visa',
      card_last_four: '4242',
      pause: null,
      cancelled: status === 'cancelled',
      trial_ends_at: null,
      billing_anchor: 1,
      first_subscription_item: null,
      urls: {update_payment_method: '', customer_portal: '', customer_portal_update_subscription: ''},
      renews_at: STAMP,
      ends_at: null,
      created_at: STAMP,
      updated_at: STAMP,
      test_mode: true,
    },
    relationships: {
      store: links('store'),
      customer: links('customer'),
      order: links('order'),
      'order-item': links('order-item'),
      product: links('product'),
      variant: links('variant'),
      'subscription-items': links('subscription-items'),
      'subscription-invoices': links('subscription-invoices'),
    },
    links: {self: `https://api.lemonsqueezy.com/v1/subscriptions/${id}`},
  }
}

const REFUSALS: Record<number, string> = {401: 'Unauthenticated.', 404: 'Not found.', 405: 'Method not allowed.', 429: 'Too Many Attempts.'}

/** The fake server over `fixtures`; its requests and queued faults are the FakeSource's. */
export function fakeLemonSqueezy(fixtures: LsFixtures, key = 'ls_test_key_0123456789'): FakeSource {
  const byId = <T extends {id: string}>(items: T[]) => new Map(items.map((item) => [item.id, item]))
  const prices = byId(fixtures.prices)
  const variants = byId(fixtures.variants)
  const lists: Record<string, Resource[]> = {
    '/v1/stores': fixtures.stores,
    '/v1/products': fixtures.products,
    '/v1/variants': fixtures.variants,
    '/v1/prices': fixtures.prices,
    '/v1/discounts': fixtures.discounts,
    '/v1/customers': fixtures.customers,
    '/v1/subscriptions': fixtures.subscriptions,
  }
  return new FakeSource(
    key,
    (path, query, base) => {
      const all = lists[path]
      if (!all) return undefined
      const filters = [...query.entries()].filter(([k]) => k.startsWith('filter['))
      const items = all.filter((item) => filters.every(([k, v]) => String((item.attributes as Record<string, unknown>)[k.slice('filter['.length, -1)]) === v))
      const size = Math.min(100, Math.max(1, Number(query.get('page[size]') ?? 10)))
      const number = Math.max(1, Number(query.get('page[number]') ?? 1))
      const lastPage = Math.max(1, Math.ceil(items.length / size))
      const data = items.slice((number - 1) * size, number * size)
      const link = (n: number) => {
        const q = new URLSearchParams(query)
        q.set('page[number]', String(n))
        q.set('page[size]', String(size))
        return `${base}${path}?${q}`
      }
      const included: Resource[] = []
      for (const name of (query.get('include') ?? '').split(',').filter(Boolean)) {
        const from = name === 'price-model' ? prices : variants
        const relName = name === 'price-model' ? 'price-model' : 'variants'
        for (const item of data) {
          for (const d of (item.relationships as Record<string, {data?: Array<{id: string}>}>)[relName]?.data ?? []) {
            const found = from.get(d.id)
            if (found && !included.includes(found)) included.push(found)
          }
        }
      }
      return {
        status: 200,
        body: {
          jsonapi: {version: '1.0'},
          meta: {
            page: {
              currentPage: number,
              from: data.length ? (number - 1) * size + 1 : 0,
              lastPage,
              perPage: size,
              to: (number - 1) * size + data.length,
              total: items.length,
            },
          },
          links: {
            first: link(1),
            last: link(lastPage),
            ...(number < lastPage ? {next: link(number + 1)} : {}),
            ...(number > 1 ? {prev: link(number - 1)} : {}),
          },
          data,
          ...(query.has('include') ? {included} : {}),
        },
      }
    },
    (status) => ({
      jsonapi: {version: '1.0'},
      errors: [{status: String(status), title: REFUSALS[status] ?? 'Server Error', detail: REFUSALS[status] ?? 'Server Error'}],
    }),
    'application/vnd.api+json',
  )
}
