// The column model for table, csv and tsv output and `--columns` selection (resources' columns: resources.ts).
// JSON output with --columns keeps only those fields (projectRow in paths.ts), with the API's values untouched.
import {ExitCode, TillError} from '../../client/till-error.js'
import {valueAt} from './paths.js'
import {formatBytes, formatIso, formatMoney, formatRelative, isMoney, looksLikeDatetime, text, type Money} from './format.js'
import {nearestName} from '../suggest.js'

export type Row = Record<string, unknown>

/**
 * How a column's values are shown. Without a kind, ISO datetimes are shown as dates and anything else as
 * text. `money` (a `Money`) and `bytes` (a number) are formatted for people in tables and detail views,
 * and raw (minor units, a byte count) in csv and tsv.
 */
export type ColumnKind = 'money' | 'date' | 'text' | 'id' | 'bool' | 'status' | 'bytes'

export interface Column<T = Row> {
  /** The name `--columns` selects it by. */
  key: string
  header: string
  /** The value to show; a money column returns a `Money` (`{amount, currency}`) or null. */
  get(row: T): unknown
  kind?: ColumnKind
  /**
   * The columns that stand for this one in csv and tsv, when it shows a value made for people from
   * several raw ones (a price as `$15.00` or `pay what you want`: its type and amount in minor units).
   */
  raw?: Column<T>[]
}

/** A fixed column list, or one chosen from the first row (called with undefined for an empty list). */
export type ColumnsSpec = Column[] | ((first: Row | undefined) => Column[])

/** A list of a resource shown in its detail view's summary, one line per item (an order's items, a product's prices). */
export interface DetailList {
  /** Its heading: `Items`, `Prices`. */
  title: string
  /** The top-level field that holds it. */
  key: string
  /** One item as a line for people; `row` is the resource (for its currency). */
  line(item: Row, row: Row): string
}

/** A resource's detail view: what an operator looks at first, then the rest of its fields under a heading. */
export interface DetailView {
  /** The summary, in order: a column's header is its label, its kind how the value is shown; empty values are left out. */
  summary: Column[]
  /** Lists shown after the summary (live prices before archived ones). */
  lists?: DetailList[]
  /** Top-level fields the summary and its lists show: left out of the rest. */
  covers: readonly string[]
}

/** A resource's declared columns, the ones shown by default, and its top-level wire fields. */
export interface ResourceColumns {
  columns: Column[]
  defaults: string[]
  /** Top-level field names of the resource, selectable with `--columns` even without a declared column. */
  fields?: readonly string[]
  /** Its detail view's summary (`get` on a terminal); without one, the view is every field. */
  detail?: DetailView
}

/** `--columns` named a column that does not exist; a usage error (exit 2). */
export class ColumnError extends TillError {
  constructor(
    readonly unknown: string[],
    readonly valid: string[],
  ) {
    const names = unknown.map((n) => `"${n}"`).join(', ')
    // the valid name nearest to each unknown one, when one is near enough to be meant (`idd` -> `id`)
    const near = unknown.map((n) => nearestName(n, valid)).filter((n): n is string => n !== undefined)
    const meant = near.length > 0 ? ` Did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : ''
    const problem = unknown.length === 0 ? 'No columns given.' : `Unknown column${unknown.length > 1 ? 's' : ''} ${names}.${meant}`
    super(`${problem} Valid columns: ${valid.join(', ')}.`, ExitCode.usage)
    this.name = 'ColumnError'
  }
}

// ---- building columns ----

export const field = (key: string) => (row: Row) => row[key]

/** A nested object of a row, or undefined. */
export const child = (value: unknown): Row | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row) : undefined)

export const column = (key: string, header: string, kind?: ColumnKind, get: (row: Row) => unknown = field(key)): Column => ({key, header, kind, get})

/** A money column reading minor units from `key` and the currency from `currencyKey` of the same row. */
export function moneyColumn(key: string, header: string, currencyKey = 'currency'): Column {
  return column(key, header, 'money', (row) => asMoney(row[key], row[currencyKey]))
}

export const asMoney = (amount: unknown, currency: unknown): Money | unknown =>
  typeof amount === 'number' && typeof currency === 'string' ? {amount, currency} : amount

/**
 * A column for any top-level field, its kind guessed from the name: `id`/`*_id` ids,
 * `*_amount` money (with the row's `currency` or `price_currency`), `status`; objects show as JSON.
 */
export function fieldColumn(key: string): Column {
  if (key === 'id' || key.endsWith('_id')) return column(key, key, 'id')
  if (key === 'status') return column(key, key, 'status')
  if (key === 'amount' || key.endsWith('_amount')) return column(key, key, 'money', (row) => asMoney(row[key], row.currency ?? row.price_currency))
  return column(key, key)
}

// ---- selection ----

/** Comma-separated names, trimmed, empty ones dropped. */
const splitNames = (requested: string) =>
  requested
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')

/**
 * The columns `--columns a,b,c` asks for, in that order; `defaults` without it. A name that is not a
 * declared column is still accepted as a top-level field when `fields` lists it, or when `fields` is
 * not given (nothing to check against). Unknown names throw a ColumnError listing the valid ones.
 */
export function selectColumns(all: Column[], defaults: string[], requested?: string, fields?: readonly string[]): Column[] {
  const declared = new Map(all.map((c) => [c.key, c]))
  const names = requested === undefined ? defaults : splitNames(requested)
  // A dotted path (customer.email) is known when its first part is.
  const known = (n: string) => declared.has(n) || fields === undefined || fields.includes(n)
  const unknown = names.filter((n) => !declared.has(n) && !known(n.split('.')[0]!))
  if (unknown.length > 0) throw new ColumnError(unknown, [...new Set([...declared.keys(), ...(fields ?? [])])])
  if (names.length === 0) throw new ColumnError([], [...declared.keys()])
  return names.map((n) => declared.get(n) ?? (n.includes('.') ? pathColumn(n) : fieldColumn(n)))
}

/** A column for a dotted path into nested objects, its kind guessed from the last part as fieldColumn does. */
function pathColumn(path: string): Column {
  const base = fieldColumn(path.split('.').at(-1)!)
  const parent = path.split('.').slice(0, -1).join('.')
  const get =
    base.kind === 'money'
      ? (row: Row) => {
          const owner = child(valueAt(row, parent)) ?? {}
          return asMoney(valueAt(row, path), owner.currency ?? owner.price_currency ?? row.currency)
        }
      : (row: Row) => valueAt(row, path)
  return {...base, key: path, header: path, get}
}

/**
 * The columns of csv and tsv output: a column made for people gives way to its raw columns, and money
 * columns carry raw minor units, so when one is shown without a `currency` column, one is added at the
 * end with the currency of the row's first amount.
 */
export function machineColumns(chosen: Column[]): Column[] {
  const seen = new Set<string>()
  const columns = chosen.flatMap((c) => c.raw ?? [c]).filter((c) => !seen.has(c.key) && seen.add(c.key))
  const money = columns.filter((c) => c.kind === 'money')
  if (money.length === 0 || columns.some((c) => c.key === 'currency')) return columns
  const currency = (row: Row) => {
    for (const c of money) {
      const value = c.get(row)
      if (isMoney(value)) return value.currency
    }
    return row.currency ?? null
  }
  return [...columns, column('currency', 'Currency', 'text', currency)]
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
  /** Raw values for machines (csv, tsv): money as its amount in minor units (the currency is a column of its own). */
  raw?: boolean
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
  if (col.kind === 'money' && isMoney(value)) return style.raw ? String(value.amount) : formatMoney(value.amount, value.currency, {grouping: style.grouping})
  if (col.kind === 'bytes' && typeof value === 'number') return style.raw ? String(value) : formatBytes(value)
  if (col.kind === 'date' || (col.kind === undefined && looksLikeDatetime(value))) return dateText(value, style)
  return text(value)
}

// ---- columns of the command line itself, and the lookup by resource name ----

export const profileColumns: ResourceColumns = {
  columns: [
    column('active', 'Active', 'bool', (row) => (row.active ? '*' : '')),
    column('name', 'Name', 'text'),
    column('environment', 'Environment', 'status'),
    column('base_url', 'URL', 'text'),
    column('token', 'Token', 'text'),
    column('token_store', 'Kept in', 'text'),
    column('rate_limit', 'Rate limit', 'text'),
    column('organization_id', 'Organization', 'id'),
  ],
  defaults: ['active', 'name', 'environment', 'base_url', 'token', 'token_store'],
  fields: ['active', 'name', 'environment', 'base_url', 'token', 'token_store', 'rate_limit', 'organization_id', 'api_version'],
}

/** Per-id results of a command run on ids from stdin. */
export const resultColumns: ResourceColumns = {
  columns: [
    column('id', 'ID', 'id'),
    column('ok', 'OK', 'bool'),
    column('status', 'Status', 'status'),
    column('error', 'Error', 'text', (row) => child(row.error)?.message ?? row.reason ?? ''),
  ],
  defaults: ['id', 'ok', 'status', 'error'],
  fields: ['id', 'ok', 'status', 'result', 'reason', 'error'],
}

// `till auth status` on a terminal: every field under its label, with the words for the values scripts read
// raw under --json (`no-keyring` is "no OS keyring could be used").
const TOKEN_SOURCES: Record<string, string> = {
  env: 'the environment (TILL_TOKEN)',
  profile: "the profile's token",
  oauth: 'a browser sign-in',
  emulator: "the emulator's data",
  none: 'none',
}
const TOKEN_STORES: Record<string, string> = {
  keyring: 'the OS keyring',
  file: 'the config file',
  environment: 'the environment (TILL_TOKEN)',
  emulator: "the emulator's data",
}
const STORE_REASONS: Record<string, string> = {
  'no-keyring': 'no OS keyring could be used',
  'insecure-storage': 'asked for with --insecure-storage',
}

/** A value in words when it is one of `words`' keys, else as it is. */
const worded = (key: string, words: Record<string, string>) => (row: Record<string, unknown>) => {
  const value = row[key]
  return typeof value === 'string' ? (words[value] ?? value) : value
}

const authColumns = [
  column('profile', 'Profile', 'text'),
  column('environment', 'Environment', 'status'),
  column('base_url', 'Base URL', 'text'),
  column('organization', 'Organization', 'text'),
  column('credential', 'Credential', 'text'),
  column('token', 'Token', 'text'),
  column('token_source', 'Token source', 'text', worded('token_source', TOKEN_SOURCES)),
  column('token_store', 'Token store', 'text', worded('token_store', TOKEN_STORES)),
  column('token_store_reason', 'Kept there because', 'text', worded('token_store_reason', STORE_REASONS)),
  column('scopes', 'Scopes', 'text'),
  column('missing_scopes', 'Missing scopes', 'text', (row) => (Array.isArray(row.missing_scopes) ? row.missing_scopes.join(', ') : row.missing_scopes)),
  column('failing', 'Failing', 'text', (row) => (Array.isArray(row.failing) ? row.failing.join(', ') : row.failing)),
  column('expires_at', 'Expires at', 'date'),
  column('refreshable', 'Refreshable', 'bool'),
  column('oauth_client_id', 'OAuth client id', 'text'),
  column('works', 'Works', 'text'),
  column('rate_budget', 'Rate budget', 'text'),
]
const authFields = authColumns.map((c) => c.key)

/** `till auth status`: piped without a format, its first four fields, as before the view had columns. */
const authStatusColumns: ResourceColumns = {
  columns: authColumns,
  defaults: authFields.slice(0, 4),
  fields: authFields,
  detail: {summary: authColumns, covers: authFields},
}

export const cliColumns: Record<string, ResourceColumns> = {profiles: profileColumns, results: resultColumns, 'auth-status': authStatusColumns}

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
export function columnsFor(registry: Record<string, ResourceColumns>, resource: string, requested?: string): ColumnsSpec {
  const known = Object.hasOwn(registry, resource) ? registry[resource] : undefined
  if (known) return selectColumns(known.columns, known.defaults, requested, known.fields)
  return (first) => {
    const generic = genericColumns(first)
    return selectColumns(generic.columns, generic.defaults, requested, generic.fields)
  }
}
