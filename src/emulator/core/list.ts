// List endpoints: filters, sorting and page/limit pagination (server/polar/kit/pagination.py).
import {calendarProblem} from '../../client/iso-time.js'
import {requestValidation, type ValidationIssue} from './errors.js'
import type {Metadata} from './model.js'
import {intIssue, normalizeUuid, parseBool, UUID_RE} from './validate.js'

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100

/** What a sort key or a filter reads from a row. */
export type Scalar = string | number | boolean | null | undefined

export type FilterType = 'string' | 'uuid' | 'bool' | 'datetime' | readonly string[]

/** `X` is what the reads are given besides the row: the request (the toolkit passes its `Ctx`). */
export interface Filter<T, X = unknown> {
  /** How its values are parsed; a function of the request when that depends on it (the values of the request's API version). */
  type: FilterType | ((x: X) => FilterType)
  /** True when the row matches any of the given values (already parsed to the filter's type). */
  match: (row: T, values: Array<string | boolean | number>, x: X) => boolean
}

export interface ListSpec<T, X = unknown> {
  filters?: Record<string, Filter<T, X>>
  /** Sort keys and how to read them from a row; absent: the list takes no `sorting` (the parameter is ignored). */
  sorts?: Record<string, (row: T, x: X) => Scalar>
  /** Applied when no `sorting` is given, e.g. `['-created_at']`. */
  defaultSort?: string[]
  /** Enables `metadata[key]=value` filtering. */
  metadata?: (row: T) => Metadata
}

export interface Page<U> {
  items: U[]
  pagination: {total_count: number; max_page: number}
}

function positiveInt(query: URLSearchParams, name: string, fallback: number, issues: ValidationIssue[]): number {
  // A repeated scalar parameter takes its last value, as the service's framework does.
  const raw = query.getAll(name).at(-1) ?? null
  if (raw === null) return fallback
  if (!/^[+-]?\d+$/.test(raw.trim())) {
    issues.push(intIssue(['query', name], raw))
    return fallback
  }
  const n = Number(raw)
  if (n <= 0) {
    issues.push({type: 'greater_than', loc: ['query', name], msg: 'Input should be greater than 0', input: raw, ctx: {gt: 0}})
    return fallback
  }
  return n
}

function parseFilterValue(type: FilterType, raw: string): string | boolean | number | Error {
  if (Array.isArray(type)) {
    if (type.includes(raw)) return raw
    return new Error(
      `Input should be ${type
        .map((t) => `'${t}'`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
    )
  }
  switch (type) {
    case 'uuid':
      return UUID_RE.test(raw) ? normalizeUuid(raw) : new Error('Input should be a valid UUID, invalid character or length')
    case 'bool':
      return parseBool(raw) ?? new Error('Input should be a valid boolean, unable to interpret input')
    case 'datetime': {
      const t = Date.parse(raw)
      const calendar = calendarProblem(raw)
      if (calendar) return new Error(`Input should be a valid datetime or date, ${calendar}`)
      return Number.isNaN(t) ? new Error('Input should be a valid datetime or date, invalid character in year') : t
    }
    default:
      return raw
  }
}

const ERROR_TYPES: Record<string, string> = {uuid: 'uuid_parsing', bool: 'bool_parsing', datetime: 'datetime_from_date_parsing'}

function compare(a: Scalar, b: Scalar): number {
  if (a === b) return 0
  if (a === null || a === undefined) return 1
  if (b === null || b === undefined) return -1
  return a < b ? -1 : 1
}

/**
 * Answers a list request over `rows`, which must be in ascending `created_at` order
 * (the store keeps them so). Sorting by `created_at` alone walks the rows without sorting,
 * so paging through very large lists stays cheap.
 */
export function listRows<T, U, X = unknown>(rows: readonly T[], query: URLSearchParams, spec: ListSpec<T, X>, present: (row: T) => U, x?: X): Page<U> {
  const issues: ValidationIssue[] = []
  const page = positiveInt(query, 'page', 1, issues)
  const limit = Math.min(positiveInt(query, 'limit', DEFAULT_LIMIT, issues), MAX_LIMIT)

  const sorting = spec.sorts ? query.getAll('sorting').filter((s) => s !== '') : []
  const sortKeys = sorting.length > 0 ? sorting : (spec.defaultSort ?? [])
  for (const key of sorting) {
    // Own keys only: `__proto__`, `toString` or `constructor` are unknown criteria, not inherited functions.
    if (!Object.hasOwn(spec.sorts!, key.replace(/^-/, ''))) {
      issues.push({type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: key})
    }
  }

  const active: Array<{filter: Filter<T, X>; values: Array<string | boolean | number>}> = []
  for (const [name, filter] of Object.entries(spec.filters ?? {})) {
    const raw = query.getAll(name)
    if (raw.length === 0) continue
    const values: Array<string | boolean | number> = []
    const parsing = typeof filter.type === 'function' ? filter.type(x as X) : filter.type
    raw.forEach((r, i) => {
      const parsed = parseFilterValue(parsing, r)
      if (parsed instanceof Error) {
        const type = Array.isArray(parsing) ? 'enum' : (ERROR_TYPES[parsing as string] ?? 'value_error')
        issues.push({type, loc: raw.length > 1 ? ['query', name, i] : ['query', name], msg: parsed.message, input: r})
      } else values.push(parsed)
    })
    active.push({filter, values})
  }
  const metadataFilters: Array<[string, string[]]> = []
  if (spec.metadata) {
    const keys = new Set([...query.keys()].filter((k) => /^metadata\[[^\]]+\]$/.test(k)))
    for (const k of keys) metadataFilters.push([k.slice(9, -1), query.getAll(k)])
  }
  if (issues.length > 0) throw requestValidation(issues)

  const matches = (row: T) =>
    active.every(({filter, values}) => filter.match(row, values, x as X)) &&
    metadataFilters.every(([key, values]) => {
      const value = spec.metadata!(row)[key]
      return value !== undefined && values.includes(String(value))
    })

  const filtering = active.length > 0 || metadataFilters.length > 0
  let ordered: readonly T[]
  const onlyCreated = sortKeys.length === 1 && sortKeys[0]!.replace(/^-/, '') === 'created_at'
  if (sortKeys.length === 0 || onlyCreated) {
    const base = filtering ? rows.filter(matches) : rows
    const descending = sortKeys[0]?.startsWith('-') ?? false
    const total = base.length
    const start = (page - 1) * limit
    const slice: T[] = []
    for (let i = start; i < Math.min(start + limit, total); i++) slice.push(descending ? base[total - 1 - i]! : base[i]!)
    return {items: slice.map(present), pagination: {total_count: total, max_page: Math.ceil(total / limit)}}
  }
  ordered = filtering ? rows.filter(matches) : [...rows]
  const keys = sortKeys.map((k) => ({read: spec.sorts![k.replace(/^-/, '')]!, sign: k.startsWith('-') ? -1 : 1}))
  ordered = [...ordered].sort((a, b) => {
    for (const {read, sign} of keys) {
      const c = compare(read(a, x as X), read(b, x as X))
      if (c !== 0) return sign * c
    }
    return 0
  })
  const total = ordered.length
  const items = ordered.slice((page - 1) * limit, page * limit)
  return {items: items.map(present), pagination: {total_count: total, max_page: Math.ceil(total / limit)}}
}

// Filter builders for the common cases.
export const byField = <T, X = unknown>(type: FilterType, read: (row: T, x: X) => Scalar): Filter<T, X> => ({
  type,
  match: (row, values, x) => {
    const v = read(row, x)
    return values.some((x) => (typeof x === 'string' && typeof v === 'string' ? x.toLowerCase() === v.toLowerCase() : x === v))
  },
})

export const after = <T, X = unknown>(read: (row: T, x: X) => string | null): Filter<T, X> => ({
  type: 'datetime',
  match: (row, values, x) => {
    const v = read(row, x)
    return v !== null && Date.parse(v) > (values[0] as number)
  },
})

export const before = <T, X = unknown>(read: (row: T, x: X) => string | null): Filter<T, X> => ({
  type: 'datetime',
  match: (row, values, x) => {
    const v = read(row, x)
    return v !== null && Date.parse(v) < (values[0] as number)
  },
})

export const textSearch = <T, X = unknown>(...reads: Array<(row: T, x: X) => string | null | undefined>): Filter<T, X> => ({
  type: 'string',
  match: (row, values, x) => {
    const needle = String(values[0]).toLowerCase()
    return reads.some((read) => (read(row, x) ?? '').toLowerCase().includes(needle))
  },
})
