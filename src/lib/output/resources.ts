// Each resource's columns, and the registry commands pick from with `columnsFor(resource, --columns)`.
import {child, column, field, moneyColumn, selectColumns, type ColumnsSpec, type ResourceColumns, type Row} from './columns.js'
import {formatMoney} from './format.js'
import {billingColumns} from './resources-billing.js'
import {catalogColumns} from './resources-catalog.js'
import {customerColumns} from './resources-customers.js'
import {portalColumns} from './resources-portal.js'

// ---- resources ----

const INTERVAL_ADVERB: Record<string, string> = {day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly'}

/** `one-time`, `recurring (monthly)`, `recurring (every 3 months)`. */
export function productType(row: Row): string {
  const interval = row.recurring_interval
  if (typeof interval !== 'string') return 'one-time'
  const count = typeof row.recurring_interval_count === 'number' ? row.recurring_interval_count : 1
  return count > 1 ? `recurring (every ${count} ${interval}s)` : `recurring (${INTERVAL_ADVERB[interval] ?? interval})`
}

/** The first non-archived price as text: `$12.00`, `free`, `pay what you want (min $1.00)`, `metered`... */
export function productPrice(row: Row): string {
  const prices = Array.isArray(row.prices) ? row.prices.map(child) : []
  const price = prices.find((p) => p !== undefined && p.is_archived !== true)
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
    case 'seat_based':
      return 'per seat'
    case 'metered_unit':
    case 'metered_tiers':
      return 'metered'
    default:
      return typeof price.amount_type === 'string' ? price.amount_type.replaceAll('_', ' ') : ''
  }
}

export const productColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('name', 'Name', 'text'),
    column('type', 'Type', 'text', productType),
    column('price', 'Price', 'text', productPrice),
    column('archived', 'Archived', 'bool', field('is_archived')),
    column('visibility', 'Visibility', 'status'),
    column('created_at', 'Created', 'date'),
    column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'name', 'type', 'price', 'archived', 'created_at'],
  fields: [
    'id', 'created_at', 'modified_at', 'trial_interval', 'trial_interval_count', 'name', 'description', 'visibility',
    'recurring_interval', 'recurring_interval_count', 'meter_interval', 'meter_interval_count', 'is_recurring',
    'is_archived', 'is_deletable', 'organization_id', 'metadata', 'prices', 'benefits', 'medias', 'attached_custom_fields',
  ],
}

export const orderColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('created_at', 'Created', 'date'),
    column('status', 'Status', 'status'),
    column('customer', 'Customer', 'text', (row) => child(row.customer)?.email ?? row.customer_id),
    column('product', 'Product', 'text', (row) => child(row.product)?.name ?? ''),
    moneyColumn('net_amount', 'Net'),
    moneyColumn('total_amount', 'Total'),
    column('invoice', 'Invoice', 'bool', field('is_invoice_generated')),
    column('billing_reason', 'Reason', 'text'),
    moneyColumn('tax_amount', 'Tax'),
    moneyColumn('refunded_amount', 'Refunded'),
    column('modified_at', 'Modified', 'date'),
  ],
  defaults: ['id', 'created_at', 'status', 'customer', 'product', 'net_amount', 'total_amount', 'invoice'],
  fields: [
    'id', 'created_at', 'modified_at', 'status', 'paid', 'subtotal_amount', 'discount_amount', 'net_amount', 'tax_amount',
    'total_amount', 'applied_balance_amount', 'due_amount', 'refunded_amount', 'refunded_tax_amount', 'refundable_amount',
    'refundable_tax_amount', 'currency', 'billing_reason', 'billing_name', 'billing_address', 'invoice_number',
    'receipt_number', 'is_invoice_generated', 'seats', 'units', 'customer_id', 'product_id', 'discount_id',
    'subscription_id', 'checkout_id', 'next_payment_attempt_at', 'metadata', 'custom_field_data', 'platform_fee_amount',
    'platform_fee_currency', 'customer', 'product', 'discount', 'subscription', 'items', 'description',
  ],
}

export const profileColumns: ResourceColumns = {
  columns: [
    column('active', 'Active', 'bool', (row) => (row.active ? '*' : '')),
    column('name', 'Name', 'text'),
    column('environment', 'Environment', 'status'),
    column('base_url', 'URL', 'text'),
    column('token', 'Token', 'text'),
    column('rate_limit', 'Rate limit', 'text'),
    column('organization_id', 'Organization', 'id'),
  ],
  defaults: ['active', 'name', 'environment', 'base_url', 'token'],
  fields: ['active', 'name', 'environment', 'base_url', 'token', 'rate_limit', 'organization_id'],
}

/** Per-id results of a command run on ids from stdin. */
export const resultColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('ok', 'OK', 'bool'),
    column('error', 'Error', 'text', (row) => child(row.error)?.message ?? ''),
  ],
  defaults: ['id', 'ok', 'error'],
  fields: ['id', 'ok', 'result', 'error'],
}

/** Columns by resource name; commands pick theirs with `columnsFor(name, flags.columns)`. */
export const resourceColumns: Record<string, ResourceColumns> = {
  products: productColumns,
  orders: orderColumns,
  profiles: profileColumns,
  results: resultColumns,
  ...catalogColumns,
  ...billingColumns,
  ...customerColumns,
  ...portalColumns,
}

const GENERIC_SKIP = new Set(['id', 'created_at', 'modified_at', 'organization_id'])
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

/** For a resource without declared columns: id, created_at, then the first `extra` scalar fields of `sample`. */
export function genericColumns(sample: Row | undefined, extra = 4): ResourceColumns {
  const keys = sample ? Object.keys(sample) : []
  const base = ['id', 'created_at'].filter((k) => !sample || k in sample)
  const scalars = keys.filter((k) => !GENERIC_SKIP.has(k) && isScalar(sample?.[k])).slice(0, extra)
  return {
    columns: [column('id', 'ID', 'id'), column('created_at', 'Created', 'date')],
    defaults: [...base, ...scalars],
    fields: sample ? keys : undefined,
  }
}

/**
 * The columns for a resource and `--columns`: checked at once for known resources (a ColumnError
 * is thrown before any request), chosen from the first row for the others.
 */
export function columnsFor(resource: string, requested?: string): ColumnsSpec {
  const known = resourceColumns[resource]
  if (known) return selectColumns(known.columns, known.defaults, requested, known.fields)
  return (first) => {
    const generic = genericColumns(first)
    return selectColumns(generic.columns, generic.defaults, requested, generic.fields)
  }
}
