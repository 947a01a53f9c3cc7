// A meter's quantities per period (GET /v1/meters/{id}/quantities), computed from the stored events:
// only the events the query can select are visited (by customer, or by the name the filter requires).
import {calendarProblem} from '../../../client/iso-time.js'
import {requestValidation, type ValidationIssue} from '../../core/errors.js'
import {finder} from '../../core/toolkit.js'
import type {Ctx} from '../../core/http.js'
import {normalizeUuid, UUID_RE, uuidIssue} from '../../core/validate.js'
import type {CustomerRecord} from '../customers/model.js'
import {events as eventsOf, type EventRecord} from '../events/log.js'
import {CUSTOMER_FUNCTIONS, INTERVALS, matches, quantities, requiredName, type CustomerFunction, type Interval} from './aggregate.js'
import {isTimeZone} from '../metrics/periods.js'

const DAY = 86_400_000
/** The longest range, in days, each interval may cover (the service's MAX_INTERVAL_DAYS). */
const MAX_DAYS: Record<Interval, number> = {hour: 7, day: 366, week: 365, month: 365 * 4, year: 365 * 10}
import type {MeterRecord} from './model.js'

export const meterOf = finder('meters')

/** The user events a meter may count: those with the name its filter requires, when it requires one. */
function meterEvents(ctx: Ctx, meter: MeterRecord, customers: CustomerRecord[] | null): Iterable<EventRecord> {
  const log = eventsOf(ctx.store)
  if (customers !== null) {
    const seen = new Set<string>()
    const out: EventRecord[] = []
    for (const c of customers) {
      for (const key of [c.id, ...(c.external_id ? [`ext:${c.external_id}`] : [])]) {
        for (const e of log.byCustomer(key))
          if (!seen.has(e.id)) {
            seen.add(e.id)
            out.push(e)
          }
      }
    }
    return out.filter((e) => e.source === 'user')
  }
  const name = requiredName(meter.filter)
  const rows = name === null ? log.rows : log.byName(name)
  return rows.filter((e) => e.source === 'user')
}

/**
 * Whether the meter has aggregated events, after which the service no longer changes its filter or
 * aggregation (it has a last billed event): here, whether any event it counts is stored.
 */
export function hasAggregated(ctx: Ctx, meter: MeterRecord): boolean {
  for (const e of meterEvents(ctx, meter, null)) if (matches(e, meter.filter)) return true
  return false
}

function requiredQuery(ctx: Ctx, name: string, issues: ValidationIssue[]): string | null {
  const value = ctx.query.get(name)
  if (value === null) issues.push({type: 'missing', loc: ['query', name], msg: 'Field required', input: null})
  return value
}

export function quantitiesOf(ctx: Ctx, meter: MeterRecord) {
  const issues: ValidationIssue[] = []
  const startRaw = requiredQuery(ctx, 'start_timestamp', issues)
  const endRaw = requiredQuery(ctx, 'end_timestamp', issues)
  const intervalRaw = requiredQuery(ctx, 'interval', issues)
  const start = startRaw === null ? NaN : Date.parse(startRaw)
  const end = endRaw === null ? NaN : Date.parse(endRaw)
  for (const [name, raw, value] of [
    ['start_timestamp', startRaw, start],
    ['end_timestamp', endRaw, end],
  ] as const) {
    const calendar = raw === null ? undefined : calendarProblem(raw)
    if (raw !== null && (calendar || Number.isNaN(value)))
      issues.push({
        type: 'datetime_from_date_parsing',
        loc: ['query', name],
        msg: `Input should be a valid datetime or date, ${calendar ?? 'invalid character in year'}`,
        input: raw,
      })
  }
  if (intervalRaw !== null && !(INTERVALS as readonly string[]).includes(intervalRaw)) {
    issues.push({
      type: 'enum',
      loc: ['query', 'interval'],
      msg: "Input should be 'year', 'month', 'week', 'day' or 'hour'",
      input: intervalRaw,
      ctx: {expected: "'year', 'month', 'week', 'day' or 'hour'"},
    })
  }
  const timeZone = ctx.query.get('timezone') ?? 'UTC'
  if (!isTimeZone(timeZone)) issues.push({type: 'TimeZoneName', loc: ['query', 'timezone'], msg: 'Invalid timezone name.', input: timeZone})
  const perCustomer = ctx.query.get('customer_aggregation_function')
  if (perCustomer !== null && !(CUSTOMER_FUNCTIONS as readonly string[]).includes(perCustomer)) {
    const expected = "'count', 'sum', 'max', 'min', 'avg' or 'unique'"
    issues.push({type: 'enum', loc: ['query', 'customer_aggregation_function'], msg: `Input should be ${expected}`, input: perCustomer, ctx: {expected}})
  }
  const customerIds = ctx.query.getAll('customer_id')
  customerIds.forEach((id, i) => {
    if (!UUID_RE.test(id)) issues.push(uuidIssue(customerIds.length > 1 ? ['query', 'customer_id', i] : ['query', 'customer_id'], id))
  })
  if (issues.length > 0) throw requestValidation(issues)
  // the service refuses ranges with too many periods (is_under_limits: days between the two dates)
  const span = Math.floor(end / DAY) - Math.floor(start / DAY)
  if (span > MAX_DAYS[intervalRaw as Interval]) {
    throw requestValidation([
      {
        type: 'value_error',
        loc: ['query'],
        msg: 'The interval is too small for the given date range. Use a larger interval or reduce the date range.',
        input: [startRaw, endRaw, intervalRaw],
      },
    ])
  }
  const externalIds = ctx.query.getAll('external_customer_id')
  let customers: CustomerRecord[] | null = null
  if (customerIds.length > 0 || externalIds.length > 0) {
    const ids = new Set(customerIds.map(normalizeUuid))
    customers = ctx.store.all('customers').filter((c) => ids.has(c.id) || (c.external_id !== null && externalIds.includes(c.external_id)))
  }
  const metadata = [...new Set([...ctx.query.keys()].filter((k) => /^metadata\[[^\]]+\]$/.test(k)))].map((k) => [k.slice(9, -1), ctx.query.getAll(k)] as const)
  let events = meterEvents(ctx, meter, customers)
  if (customers !== null) {
    // events of an external id not (yet) linked to a customer record count too
    const linked = new Set(customers.flatMap((c) => [c.id]))
    const extra = externalIds
      .flatMap((x) => eventsOf(ctx.store).byCustomer(`ext:${x}`))
      .filter((e) => e.source === 'user' && (e.customer_id === null || !linked.has(e.customer_id)))
    events = [...new Set([...events, ...extra])]
  }
  if (metadata.length > 0) {
    events = [...events].filter((e) => metadata.every(([key, values]) => e.metadata[key] !== undefined && values.includes(String(e.metadata[key]))))
  }
  return quantities(events, meter.filter, meter.aggregation, start, end, intervalRaw as Interval, {
    timeZone,
    perCustomer: (perCustomer ?? undefined) as CustomerFunction | undefined,
  })
}
