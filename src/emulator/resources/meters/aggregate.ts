// Meters over events (the service's meter filter and aggregation rules): which events a filter
// selects, what an aggregation makes of them, and the quantities per period. Pure; tested beside.
import {eventMs, type EventRecord} from '../events/log.js'
import type {AggregationRecord, FilterClauseRecord, FilterRecord} from './model.js'
import {INTERVALS, periodStarts, zonedIso, type Interval} from '../metrics/periods.js'

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const
export {INTERVALS, type Interval}

/** The event's value of `property`: a field of the event (`name`, `source`, `timestamp`...) or a metadata key. */
export function propertyOf(e: EventRecord, property: string): unknown {
  if (
    property === 'name' ||
    property === 'source' ||
    property === 'timestamp' ||
    property === 'external_id' ||
    property === 'customer_id' ||
    property === 'external_customer_id'
  )
    return e[property]
  const key = property.startsWith('metadata.') ? property.slice('metadata.'.length) : property
  let value: unknown = e.metadata
  for (const part of key.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return null
}

/** One clause: numbers compare as numbers, booleans as booleans, everything else as text. */
function clauseMatches(e: EventRecord, c: FilterClauseRecord): boolean {
  const actual = propertyOf(e, c.property)
  if (actual === undefined || actual === null) return c.operator === 'ne' || c.operator === 'not_like'
  if (c.operator === 'like' || c.operator === 'not_like') {
    const found = String(actual).includes(String(c.value))
    return c.operator === 'like' ? found : !found
  }
  let a: number | string | boolean
  let b: number | string | boolean
  if (typeof c.value === 'number') {
    const n = asNumber(actual)
    if (n === null) return c.operator === 'ne'
    a = n
    b = c.value
  } else if (typeof c.value === 'boolean') {
    a = typeof actual === 'boolean' ? actual : String(actual) === 'true'
    b = c.value
  } else {
    a = String(actual)
    b = c.value
  }
  switch (c.operator) {
    case 'eq':
      return a === b
    case 'ne':
      return a !== b
    case 'gt':
      return a > b
    case 'gte':
      return a >= b
    case 'lt':
      return a < b
    case 'lte':
      return a <= b
  }
}

const isClause = (c: FilterClauseRecord | FilterRecord): c is FilterClauseRecord => 'property' in c

/** Whether `e` passes `filter`; an empty `and` passes everything, an empty `or` nothing. */
export function matches(e: EventRecord, filter: FilterRecord): boolean {
  const test = (c: FilterClauseRecord | FilterRecord) => (isClause(c) ? clauseMatches(e, c) : matches(e, c))
  return filter.conjunction === 'and' ? filter.clauses.every(test) : filter.clauses.some(test)
}

/** The event name a filter requires (`name eq X` at the top of an `and`), to look events up by name. */
export function requiredName(filter: FilterRecord): string | null {
  if (filter.conjunction !== 'and') return null
  for (const c of filter.clauses) if (isClause(c) && c.property === 'name' && c.operator === 'eq' && typeof c.value === 'string') return c.value
  return null
}

/** Folds events into one quantity; events without a numeric property are left out of sum/max/min/avg. */
export class Accumulator {
  private count = 0
  private sum = 0
  private max = -Infinity
  private min = Infinity
  private values = new Set<string>()

  constructor(private readonly agg: AggregationRecord) {}

  add(e: EventRecord): void {
    if (this.agg.func === 'count') {
      this.count++
      return
    }
    const raw = propertyOf(e, this.agg.property)
    if (this.agg.func === 'unique') {
      if (raw !== undefined && raw !== null) this.values.add(JSON.stringify(raw))
      return
    }
    const n = asNumber(raw)
    if (n === null) return
    this.count++
    this.sum += n
    if (n > this.max) this.max = n
    if (n < this.min) this.min = n
  }

  value(): number {
    switch (this.agg.func) {
      case 'count':
        return this.count
      case 'sum':
        return this.sum
      case 'unique':
        return this.values.size
      case 'max':
        return this.count === 0 ? 0 : this.max
      case 'min':
        return this.count === 0 ? 0 : this.min
      case 'avg':
        return this.count === 0 ? 0 : this.sum / this.count
    }
  }
}

export interface Quantities {
  quantities: Array<{timestamp: string; quantity: number}>
  total: number
}

/** How per-customer quantities combine when the query asks for a `customer_aggregation_function`. */
export const CUSTOMER_FUNCTIONS = ['count', 'sum', 'max', 'min', 'avg', 'unique'] as const
export type CustomerFunction = (typeof CUSTOMER_FUNCTIONS)[number]

function combine(values: number[], func: CustomerFunction): number {
  if (values.length === 0) return 0
  switch (func) {
    case 'count':
      return values.length
    case 'sum':
      return values.reduce((a, b) => a + b, 0)
    case 'max':
      return Math.max(...values)
    case 'min':
      return Math.min(...values)
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length
    case 'unique':
      return new Set(values).size
  }
}

export interface QuantityOptions {
  /** IANA zone the periods follow (local midnight, Monday, first of the month...); UTC by default. */
  timeZone?: string
  /** Aggregate each customer's events first, then combine the customers' values with this function. */
  perCustomer?: CustomerFunction
}

const customerKey = (e: EventRecord) => e.customer_id ?? `ext:${e.external_customer_id ?? ''}`

/**
 * One quantity per period from the period holding `start` to the one holding `end` (periods of the
 * zone's calendar, written with the zone's offset), over the events in [start, end] that pass the
 * filter; `total` is the aggregation over all of them.
 */
export function quantities(
  events: Iterable<EventRecord>,
  filter: FilterRecord,
  agg: AggregationRecord,
  start: number,
  end: number,
  interval: Interval,
  options: QuantityOptions = {},
): Quantities {
  const timeZone = options.timeZone ?? 'UTC'
  const starts = periodStarts(start, end, interval, timeZone)
  // per period (and per customer when asked), an accumulator; the period of an event by binary search
  const periods = starts.map(() => new Map<string, Accumulator>())
  const totals = new Map<string, Accumulator>()
  const add = (map: Map<string, Accumulator>, key: string, e: EventRecord) => {
    let acc = map.get(key)
    if (!acc) map.set(key, (acc = new Accumulator(agg)))
    acc.add(e)
  }
  for (const e of events) {
    const ms = eventMs(e)
    if (ms < start || ms > end || !matches(e, filter)) continue
    const key = options.perCustomer ? customerKey(e) : ''
    add(totals, key, e)
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid]! <= ms) lo = mid
      else hi = mid - 1
    }
    if (starts[lo] !== undefined && starts[lo]! <= ms) add(periods[lo]!, key, e)
  }
  const value = (map: Map<string, Accumulator>) =>
    options.perCustomer
      ? combine(
          [...map.values()].map((a) => a.value()),
          options.perCustomer,
        )
      : (map.get('')?.value() ?? new Accumulator(agg).value())
  return {
    quantities: starts.map((t, i) => ({timestamp: zonedIso(t, timeZone), quantity: value(periods[i]!)})),
    total: value(totals),
  }
}
