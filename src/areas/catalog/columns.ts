// Columns of products, checkouts, checkout links, benefits and grants.
import {asMoney, child, column, type ResourceColumns, type Row} from '../../cli/output/columns.js'
import {decimalShift, formatMoney, minorDigits} from '../../cli/output/format.js'
import {columnsOf} from '../../cli/output/typed-columns.js'
import type {Schema} from '../../client/wire/index.js'

const checkout = columnsOf<Schema<'Checkout'>>()
const checkoutLink = columnsOf<Schema<'CheckoutLink'>>()
const benefit = columnsOf<Schema<'Benefit'>>()
const grant = columnsOf<Schema<'BenefitGrant'>>()
const product = columnsOf<Schema<'Product'>>()

/** The name of a nested object, or the fallback field. */
const nameOf =
  (key: string, prop = 'name', fallback?: string) =>
  (row: Row) =>
    child(row[key])?.[prop] ?? (fallback ? row[fallback] : '')

/** Names of the nested products, comma-separated. */
const productNames = (row: Row) => (Array.isArray(row.products) ? row.products.map((p) => child(p)?.name ?? '').join(', ') : '')

/** A short text for a benefit's properties: the note of a custom benefit, limits of license keys. */
export function benefitDetail(row: Row): string {
  const p = child(row.properties)
  if (!p) return ''
  if (row.type === 'custom') return typeof p.note === 'string' ? p.note : ''
  if (row.type !== 'license_keys') return ''
  const parts: string[] = []
  if (p.prefix) parts.push(`prefix ${String(p.prefix)}`)
  const activations = child(p.activations)
  if (activations?.limit) parts.push(`${String(activations.limit)} activations`)
  if (p.limit_usage) parts.push(`${String(p.limit_usage)} uses`)
  const expires = child(p.expires)
  if (expires) parts.push(`expires after ${String(expires.ttl)} ${String(expires.timeframe)}${expires.ttl === 1 ? '' : 's'}`)
  return parts.join(', ')
}

export const checkoutColumns: ResourceColumns = {
  columns: [
    checkout.column('id', 'ID', 'id'),
    checkout.column('created_at', 'Created', 'date'),
    checkout.column('status', 'Status', 'status'),
    checkout.column('product', 'Product', 'text', nameOf('product')),
    checkout.column('customer_email', 'Customer', 'text'),
    checkout.money('total_amount', 'Total'),
    checkout.column('expires_at', 'Expires', 'date'),
    checkout.column('url', 'URL', 'text'),
    checkout.money('amount', 'Amount'),
    checkout.money('net_amount', 'Net'),
    checkout.money('tax_amount', 'Tax'),
    checkout.column('external_customer_id', 'External customer', 'text'),
    checkout.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'created_at', 'status', 'product', 'customer_email', 'total_amount', 'expires_at'],
  fields: checkout.fields([
    'id',
    'created_at',
    'modified_at',
    'custom_field_data',
    'payment_processor',
    'status',
    'client_secret',
    'url',
    'expires_at',
    'success_url',
    'return_url',
    'embed_origin',
    'amount',
    'seats',
    'min_seats',
    'max_seats',
    'discount_amount',
    'net_amount',
    'tax_amount',
    'tax_behavior',
    'total_amount',
    'currency',
    'allow_trial',
    'active_trial_interval',
    'active_trial_interval_count',
    'trial_end',
    'trial_interval',
    'trial_interval_count',
    'organization_id',
    'product_id',
    'discount_id',
    'allow_discount_codes',
    'require_billing_address',
    'is_discount_applicable',
    'is_free_product_price',
    'is_payment_required',
    'is_payment_setup_required',
    'is_payment_form_required',
    'customer_id',
    'is_business_customer',
    'customer_name',
    'customer_email',
    'customer_ip_address',
    'customer_billing_name',
    'customer_billing_address',
    'customer_tax_id',
    'payment_processor_metadata',
    'billing_address_fields',
    'external_customer_id',
    'customer_metadata',
    'metadata',
    'subscription_id',
    'products',
    'product',
    'prices',
    'discount',
    'attached_custom_fields',
    'locale',
    'product_price_id',
    'product_price',
    'payment_method_type',
  ]),
}

export const checkoutLinkColumns: ResourceColumns = {
  columns: [
    checkoutLink.column('id', 'ID', 'id'),
    checkoutLink.column('created_at', 'Created', 'date'),
    checkoutLink.column('label', 'Label', 'text'),
    checkoutLink.column('products', 'Products', 'text', productNames),
    checkoutLink.column('url', 'URL', 'text'),
    checkoutLink.column('discount_codes', 'Discount codes', 'bool', checkoutLink.field('allow_discount_codes')),
    checkoutLink.column('success_url', 'Success URL', 'text'),
    checkoutLink.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'created_at', 'label', 'products', 'url'],
  fields: checkoutLink.fields([
    'id',
    'created_at',
    'modified_at',
    'metadata',
    'payment_processor',
    'client_secret',
    'success_url',
    'return_url',
    'label',
    'allow_discount_codes',
    'require_billing_address',
    'discount_id',
    'seats',
    'trial_interval',
    'trial_interval_count',
    'organization_id',
    'products',
    'discount',
    'url',
  ]),
}

export const benefitColumns: ResourceColumns = {
  columns: [
    benefit.column('id', 'ID', 'id'),
    benefit.column('created_at', 'Created', 'date'),
    benefit.column('type', 'Type', 'status'),
    benefit.column('description', 'Description', 'text'),
    benefit.column('detail', 'Detail', 'text', benefitDetail),
    benefit.column('visibility', 'Visibility', 'status'),
    benefit.column('deletable', 'Deletable', 'bool'),
    benefit.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'created_at', 'type', 'description', 'detail'],
  fields: benefit.fields([
    'id',
    'created_at',
    'modified_at',
    'type',
    'description',
    'selectable',
    'deletable',
    'is_deleted',
    'organization_id',
    'metadata',
    'visibility',
    'visibility_configurable',
    'properties',
  ]),
}

export const benefitGrantColumns: ResourceColumns = {
  columns: [
    grant.column('id', 'ID', 'id'),
    grant.column('created_at', 'Created', 'date'),
    grant.column('customer', 'Customer', 'text', nameOf('customer', 'email', 'customer_id')),
    grant.column('granted', 'Granted', 'bool', grant.field('is_granted')),
    grant.column('granted_at', 'Granted at', 'date'),
    grant.column('revoked_at', 'Revoked at', 'date'),
    grant.column('benefit', 'Benefit', 'text', nameOf('benefit', 'description', 'benefit_id')),
    grant.column('order_id', 'Order', 'id'),
    grant.column('subscription_id', 'Subscription', 'id'),
    grant.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'created_at', 'customer', 'granted', 'granted_at', 'revoked_at'],
  fields: grant.fields([
    'id',
    'created_at',
    'modified_at',
    'granted_at',
    'is_granted',
    'revoked_at',
    'is_revoked',
    'subscription_id',
    'order_id',
    'customer_id',
    'member_id',
    'benefit_id',
    'error',
    'customer',
    'member',
    'benefit',
    'properties',
  ]),
}

const INTERVAL_ADVERB: Record<string, string> = {day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly'}

/** `one-time`, `recurring (monthly)`, `recurring (every 3 months)`. */
export function productType(row: Row): string {
  const interval = row.recurring_interval
  if (typeof interval !== 'string') return 'one-time'
  const count = typeof row.recurring_interval_count === 'number' ? row.recurring_interval_count : 1
  return count > 1 ? `recurring (every ${count} ${interval}s)` : `recurring (${INTERVAL_ADVERB[interval] ?? interval})`
}

/** A product's first non-archived price. */
const livePrice = (row: Row): Row | undefined => (Array.isArray(row.prices) ? row.prices.map(child) : []).find((p) => p !== undefined && p.is_archived !== true)

/**
 * The first non-archived price as text (`$12.00`, `free`, `pay what you want (min $1.00)`...), and its metered
 * prices after it, a free base price left out: `$10.00 + $0.005/unit of API calls`.
 */
export const productPrice = (row: Row): string => {
  const live = (Array.isArray(row.prices) ? row.prices.map(child) : []).filter((p): p is Row => p !== undefined && p.is_archived !== true)
  const metered = live.filter((p) => p.amount_type === 'metered_unit')
  if (metered.length === 0) return priceText(livePrice(row))
  const base = live.find((p) => p.amount_type !== 'metered_unit' && p.amount_type !== 'metered_tiers')
  const baseText = base ? priceText(base) : ''
  return [...(baseText && baseText !== 'free' ? [baseText] : []), ...metered.map(priceText)].join(' + ')
}

/** A unit price kept in minor units with decimals (`"0.5"` cents) as money: `$0.005`. */
export function unitMoney(unitAmount: unknown, currency: string): string {
  const digits = minorDigits(currency)
  const major = decimalShift(String(unitAmount), -digits)
  if (major === undefined) return String(unitAmount)
  const [whole, fraction = ''] = major.split('.')
  const shown = digits === 0 && fraction === '' ? whole! : `${whole}.${fraction.padEnd(digits, '0')}`
  // the currency's symbol and its place, from how one whole unit is written
  return formatMoney(10 ** digits, currency).replace(/1(\.0+)?/, shown)
}

/** Seat tiers as text: `$10.00 a seat (1-5 seats), $8.00 a seat (6+ seats)`, `graduated:` in front of graduated tiers. */
export function seatTiersText(tiers: unknown, money: (amount: unknown) => string): string {
  const t = child(tiers)
  const list = Array.isArray(t?.tiers) ? t.tiers.map(child).filter((x) => x !== undefined) : []
  const text = list
    .map(
      (x) =>
        `${money(x.price_per_seat)} a seat (${x.max_seats === null || x.max_seats === undefined ? `${x.min_seats}+` : `${x.min_seats}-${x.max_seats}`} seats)`,
    )
    .join(', ')
  return t?.seat_tier_type === 'graduated' ? `graduated: ${text}` : text
}

/** A price as text: `$12.00`, `free`, `pay what you want (min $1.00)`, `per seat: $10.00 a seat (1+ seats)`, `metered`. */
export function priceText(price: Row | undefined): string {
  if (!price) return ''
  const currency = typeof price.price_currency === 'string' ? price.price_currency : 'usd'
  const money = (amount: unknown) => (typeof amount === 'number' ? formatMoney(amount, currency) : '')
  switch (price.amount_type) {
    case 'fixed':
      return price.price_amount === 0 ? 'free' : money(price.price_amount)
    case 'free':
      return 'free'
    case 'custom':
      return typeof price.minimum_amount === 'number' && price.minimum_amount > 0
        ? `pay what you want (min ${money(price.minimum_amount)})`
        : 'pay what you want'
    case 'seat_based': {
      const tiers = seatTiersText(price.seat_tiers, money)
      return tiers ? `per seat: ${tiers}` : 'per seat'
    }
    case 'metered_unit': {
      const meter = child(price.meter)
      const of = typeof meter?.name === 'string' ? ` of ${meter.name}` : typeof price.meter_id === 'string' ? ` of meter ${price.meter_id}` : ''
      const cap = typeof price.cap_amount === 'number' ? ` (cap ${money(price.cap_amount)})` : ''
      return `${unitMoney(price.unit_amount, currency)}/unit${of}${cap}`
    }
    case 'metered_tiers':
      return 'metered'
    default:
      return typeof price.amount_type === 'string' ? price.amount_type.replaceAll('_', ' ') : ''
  }
}

export const productColumns: ResourceColumns = {
  columns: [
    product.column('id', 'ID', 'id'),
    product.column('name', 'Name', 'text'),
    product.column('type', 'Type', 'text', productType),
    {
      ...product.column('price', 'Price', 'text', productPrice),
      // csv and tsv: the live price's type and its amount in minor units (a currency column follows)
      raw: [
        column('price_type', 'Price type', 'text', (row) => livePrice(row)?.amount_type),
        column('price_amount', 'Price amount', 'money', (row) => {
          const price = livePrice(row)
          return asMoney(price?.price_amount, price?.price_currency)
        }),
      ],
    },
    product.column('archived', 'Archived', 'bool', product.field('is_archived')),
    product.column('visibility', 'Visibility', 'status'),
    product.column('created_at', 'Created', 'date'),
    product.column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'name', 'type', 'price', 'archived', 'created_at'],
  fields: product.fields([
    'id',
    'created_at',
    'modified_at',
    'trial_interval',
    'trial_interval_count',
    'name',
    'description',
    'visibility',
    'recurring_interval',
    'recurring_interval_count',
    'meter_interval',
    'meter_interval_count',
    'is_recurring',
    'is_archived',
    'organization_id',
    'metadata',
    'prices',
    'benefits',
    'medias',
    'attached_custom_fields',
  ]),
}

/** A price in a detail view's list: its text, `archived` when it is, and its id. */
export const priceLine = (price: Row): string =>
  [priceText(price) || String(price.amount_type ?? ''), price.is_archived === true ? '(archived)' : '', String(price.id ?? '')]
    .filter((p) => p !== '')
    .join('  ')

const trial = (row: Row) =>
  typeof row.trial_interval === 'string' ? `${String(row.trial_interval_count ?? 1)} ${row.trial_interval}${row.trial_interval_count === 1 ? '' : 's'}` : ''

productColumns.detail = {
  summary: [
    product.column('id', 'ID', 'id'),
    product.column('name', 'Name', 'text'),
    product.column('description', 'Description', 'text'),
    product.column('type', 'Type', 'text', productType),
    product.column('visibility', 'Visibility', 'status'),
    product.column('archived', 'Archived', 'bool', (row) => (row.is_archived ? true : undefined)),
    product.column('trial', 'Free trial', 'text', trial),
    product.column('created_at', 'Created', 'date'),
    product.column('modified_at', 'Modified', 'date'),
  ],
  lists: [
    {title: 'Prices', key: 'prices', line: priceLine},
    {title: 'Benefits', key: 'benefits', line: (b) => `${String(b.description ?? '')}  (${String(b.type ?? '')})`},
  ],
  covers: [
    'id',
    'name',
    'description',
    'recurring_interval',
    'recurring_interval_count',
    'is_recurring',
    'visibility',
    'is_archived',
    'trial_interval',
    'trial_interval_count',
    'created_at',
    'modified_at',
    'prices',
    'benefits',
  ],
}

export const catalogColumns: Record<string, ResourceColumns> = {
  products: productColumns,
  checkouts: checkoutColumns,
  'checkout-links': checkoutLinkColumns,
  benefits: benefitColumns,
  'benefit-grants': benefitGrantColumns,
}
