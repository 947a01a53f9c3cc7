// The column model for table, csv and tsv output, `--columns` selection, and each resource's columns.
// JSON output ignores columns: it keeps the API's values untouched.
import {ExitCode, TillError} from '../errors.js'
import {formatIso, formatMoney, formatRelative, isMoney, looksLikeDatetime, text, type Money} from './format.js'

export type Row = Record<string, unknown>

/** How a column's values are shown. Without a kind, ISO datetimes are shown as dates and anything else as text. */
export type ColumnKind = 'money' | 'date' | 'text' | 'id' | 'bool' | 'status'

export interface Column<T = Row> {
  /** The name `--columns` selects it by. */
  key: string
  header: string
  /** The value to show; a money column returns a `Money` (`{amount, currency}`) or null. */
  get(row: T): unknown
  kind?: ColumnKind
}

/** A fixed column list, or one chosen from the first row (called with undefined for an empty list). */
export type ColumnsSpec = Column[] | ((first: Row | undefined) => Column[])

/** A resource's declared columns, the ones shown by default, and its top-level wire fields. */
export interface ResourceColumns {
  columns: Column[]
  defaults: string[]
  /** Top-level field names of the resource, selectable with `--columns` even without a declared column. */
  fields?: readonly string[]
}

/** `--columns` named a column that does not exist; a usage error (exit 2). */
export class ColumnError extends TillError {
  constructor(
    readonly unknown: string[],
    readonly valid: string[],
  ) {
    const names = unknown.map((n) => `"${n}"`).join(', ')
    const problem = unknown.length === 0 ? 'No columns given.' : `Unknown column${unknown.length > 1 ? 's' : ''} ${names}.`
    super(`${problem} Valid columns: ${valid.join(', ')}.`, ExitCode.usage)
    this.name = 'ColumnError'
  }
}

// ---- building columns ----

const field = (key: string) => (row: Row) => row[key]

/** A nested object of a row, or undefined. */
const child = (value: unknown): Row | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row) : undefined

const column = (key: string, header: string, kind?: ColumnKind, get: (row: Row) => unknown = field(key)): Column => ({key, header, kind, get})

/** A money column reading minor units from `key` and the currency from `currencyKey` of the same row. */
export function moneyColumn(key: string, header: string, currencyKey = 'currency'): Column {
  return column(key, header, 'money', (row) => asMoney(row[key], row[currencyKey]))
}

const asMoney = (amount: unknown, currency: unknown): Money | unknown =>
  typeof amount === 'number' && typeof currency === 'string' ? {amount, currency} : amount

/**
 * A column for any top-level field, its kind guessed from the name: `id`/`*_id` ids,
 * `*_amount` money (with the row's `currency` or `price_currency`), `status`; objects show as JSON.
 */
export function fieldColumn(key: string): Column {
  if (key === 'id' || key.endsWith('_id')) return column(key, key, 'id')
  if (key === 'status') return column(key, key, 'status')
  if (key.endsWith('_amount')) return column(key, key, 'money', (row) => asMoney(row[key], row.currency ?? row.price_currency))
  return column(key, key)
}

// ---- selection ----

/** Comma-separated names, trimmed, empty ones dropped. */
const splitNames = (requested: string) => requested.split(',').map((n) => n.trim()).filter((n) => n !== '')

/**
 * The columns `--columns a,b,c` asks for, in that order; `defaults` without it. A name that is not a
 * declared column is still accepted as a top-level field when `fields` lists it, or when `fields` is
 * not given (nothing to check against). Unknown names throw a ColumnError listing the valid ones.
 */
export function selectColumns(all: Column[], defaults: string[], requested?: string, fields?: readonly string[]): Column[] {
  const declared = new Map(all.map((c) => [c.key, c]))
  const names = requested === undefined ? defaults : splitNames(requested)
  const unknown = names.filter((n) => !declared.has(n) && fields !== undefined && !fields.includes(n))
  if (unknown.length > 0) throw new ColumnError(unknown, [...new Set([...declared.keys(), ...(fields ?? [])])])
  if (names.length === 0) throw new ColumnError([], [...declared.keys()])
  return names.map((n) => declared.get(n) ?? fieldColumn(n))
}

/** Field columns for every top-level key of `row`: the view of a resource without declared columns. */
export const allFieldColumns = (row: object): Column[] => Object.keys(row).map(fieldColumn)

// ---- showing a cell ----

export interface CellStyle {
  /** Dates relative to `now` ("3 hours ago"), in full ISO, or both ("2025-01-01T10:00:00Z (3 hours ago)"). */
  dates: 'relative' | 'iso' | 'both'
  /** Thousands separators in money, for people. */
  grouping: boolean
  now: number
}

function dateText(value: unknown, style: CellStyle): string {
  if (value === null || value === undefined || value === '') return ''
  if (style.dates === 'iso') return formatIso(value)
  const rel = formatRelative(value as string | number | Date, style.now)
  return style.dates === 'relative' ? rel : `${formatIso(value)} (${rel})`
}

/** A column's value in `row` as plain, unstyled text. */
export function cellText(col: Column, row: Row, style: CellStyle): string {
  const value = col.get(row)
  if (col.kind === 'money' && isMoney(value)) return formatMoney(value.amount, value.currency, {grouping: style.grouping})
  if (col.kind === 'date' || (col.kind === undefined && looksLikeDatetime(value))) return dateText(value, style)
  return text(value)
}

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

/** Columns by resource name; commands pick theirs with `columnsFor(name, flags.columns)`. */
export const resourceColumns: Record<string, ResourceColumns> = {
  products: productColumns,
  orders: orderColumns,
  profiles: profileColumns,
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
