// GET /v1/metrics/ and /v1/metrics/limits (server/polar/metrics/endpoints.py): query validation with the
// service's error shapes, the interval limits, and the metrics computed from the store.
import {requestValidation, type ValidationIssue} from '../../core/errors.js'
import {ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {checkoutStatus} from '../checkouts/present.js'
import {orderStatus} from '../orders/present.js'
import {normalizeUuid, UUID_RE, uuidIssue} from '../../core/validate.js'
import {computeMetrics, METRICS, METRIC_SLUGS} from './compute.js'
import {dayBounds, INTERVALS, isTimeZone, zonedIso, type Interval} from './periods.js'

const MIN_DATE = '2023-01-01'
const MAX_DAYS: Record<Interval, number> = {hour: 7, day: 366, week: 7 * 53, month: 365 * 4, year: 365 * 10}
const MIN_DAYS: Record<Interval, number> = {hour: 0, day: 0, week: 14, month: 60, year: 366}
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000

function validDate(raw: string): boolean {
  if (!DATE_RE.test(raw)) return false
  const d = new Date(`${raw}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(raw)
}

interface MetricsQuery {
  startDate: string
  endDate: string
  interval: Interval
  timeZone: string
  productIds?: Set<string>
  billingTypes?: Set<string>
  customerIds?: Set<string>
  metrics?: string[]
}

function uuidSet(ctx: Ctx, name: string, issues: ValidationIssue[]): Set<string> | undefined {
  const values = ctx.query.getAll(name)
  if (values.length === 0) return undefined
  const set = new Set<string>()
  values.forEach((v, i) => {
    if (UUID_RE.test(v)) set.add(normalizeUuid(v))
    else issues.push(uuidIssue(['query', name, i], v))
  })
  return set
}

function parseQuery(ctx: Ctx): MetricsQuery {
  const issues: ValidationIssue[] = []
  const date = (name: string): string => {
    const raw = ctx.query.get(name)
    if (raw === null) issues.push({type: 'missing', loc: ['query', name], msg: 'Field required', input: null})
    else if (!validDate(raw))
      issues.push({
        type: 'date_from_datetime_parsing',
        loc: ['query', name],
        msg: 'Input should be a valid date or datetime, invalid date separator',
        input: raw,
      })
    return raw ?? ''
  }
  const startDate = date('start_date')
  const endDate = date('end_date')
  const interval = ctx.query.get('interval')
  if (interval === null) issues.push({type: 'missing', loc: ['query', 'interval'], msg: 'Field required', input: null})
  else if (!(INTERVALS as readonly string[]).includes(interval)) {
    issues.push({
      type: 'enum',
      loc: ['query', 'interval'],
      msg: "Input should be 'year', 'month', 'week', 'day' or 'hour'",
      input: interval,
      ctx: {expected: "'year', 'month', 'week', 'day' or 'hour'"},
    })
  }
  const timeZone = ctx.query.get('timezone') ?? 'UTC'
  if (!isTimeZone(timeZone)) issues.push({type: 'TimeZoneName', loc: ['query', 'timezone'], msg: 'Invalid timezone name.', input: timeZone})
  const productIds = uuidSet(ctx, 'product_id', issues)
  const customerIds = uuidSet(ctx, 'customer_id', issues)
  uuidSet(ctx, 'organization_id', issues)
  const billing = ctx.query.getAll('billing_type')
  billing.forEach((b, i) => {
    if (b !== 'one_time' && b !== 'recurring')
      issues.push({
        type: 'enum',
        loc: ['query', 'billing_type', i],
        msg: "Input should be 'one_time' or 'recurring'",
        input: b,
        ctx: {expected: "'one_time' or 'recurring'"},
      })
  })
  if (issues.length > 0) throw requestValidation(issues)
  const span = dayNumber(endDate) - dayNumber(startDate)
  if (span < 0 || span > MAX_DAYS[interval as Interval]) {
    throw requestValidation([
      {
        type: 'value_error',
        loc: ['query'],
        msg: 'The interval is too big. Try to change the interval or reduce the date range.',
        input: [startDate, endDate, interval],
      },
    ])
  }
  const metrics = ctx.query.getAll('metrics')
  if (metrics.length > 0) {
    const invalid = [...new Set(metrics.filter((m) => !METRIC_SLUGS.has(m)))].sort()
    if (invalid.length > 0)
      throw requestValidation([{type: 'value_error', loc: ['query', 'metrics'], msg: `Invalid metric slugs: ${invalid.join(', ')}`, input: metrics}])
  }
  return {
    startDate,
    endDate,
    interval: interval as Interval,
    timeZone,
    productIds,
    customerIds,
    billingTypes: billing.length > 0 ? new Set(billing) : undefined,
    metrics: metrics.length > 0 ? metrics : undefined,
  }
}

/** The metrics the query asks for, as the service computes them: each period's values and the totals. */
function metricsOf(ctx: Ctx, q: MetricsQuery) {
  const {start, end} = dayBounds(q.startDate, q.endDate, q.timeZone)
  const result = computeMetrics({
    orders: ctx.store.all('orders'),
    subscriptions: ctx.store.all('subscriptions'),
    checkouts: ctx.store.all('checkouts'),
    products: new Map(ctx.store.all('products').map((p) => [p.id, p])),
    paid: (o) => ['paid', 'refunded', 'partially_refunded'].includes(orderStatus(o, ctx.now)),
    checkoutStatus: (c) => checkoutStatus(ctx.view, c),
    start,
    end,
    now: ctx.now,
    interval: q.interval,
    timeZone: q.timeZone,
    productIds: q.productIds,
    billingTypes: q.billingTypes,
    customerIds: q.customerIds,
  })
  // the service leaves out the values of metrics not asked for (response_model_exclude_none)
  const shown = q.metrics ? METRICS.filter((m) => q.metrics!.includes(m.slug)) : METRICS
  return {result, shown}
}

function getMetrics(ctx: Ctx) {
  const q = parseQuery(ctx)
  const {result, shown} = metricsOf(ctx, q)
  const pick = (values: Record<string, number>) => Object.fromEntries(shown.map((m) => [m.slug, values[m.slug]]))
  return ok({
    periods: result.periods.map((p) => ({timestamp: zonedIso(p.start, q.timeZone), ...pick(p.values)})),
    totals: pick(result.totals),
    metrics: Object.fromEntries(shown.map((m) => [m.slug, {slug: m.slug, display_name: m.display_name, type: m.type}])),
  })
}

/** A CSV field as Python's `excel` dialect writes it: quoted when it holds a comma, a quote or a line break. */
const csvField = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** GET /metrics/export: the same query, as CSV: a `Timestamp` column, then one column per metric by its display name. */
function exportMetrics(ctx: Ctx): Reply {
  const q = parseQuery(ctx)
  const {result, shown} = metricsOf(ctx, q)
  const rows = [
    ['Timestamp', ...shown.map((m) => m.display_name)],
    ...result.periods.map((p) => [zonedIso(p.start, q.timeZone), ...shown.map((m) => p.values[m.slug])]),
  ]
  return {status: 200, raw: {contentType: 'text/csv; charset=utf-8', data: rows.map((r) => `${r.map(csvField).join(',')}\r\n`).join('')}}
}

export function register(router: Router): void {
  router.get('/metrics/', 'organization', getMetrics)
  router.get('/metrics/export', 'organization', exportMetrics)
  router.get('/metrics/limits', 'organization', () =>
    ok({
      min_date: MIN_DATE,
      intervals: Object.fromEntries(INTERVALS.map((i) => [i, {min_days: MIN_DAYS[i], max_days: MAX_DAYS[i]}])),
    }),
  )
}
