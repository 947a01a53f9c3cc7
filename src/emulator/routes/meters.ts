// Meters (the service's `meter/` module): list, get, create, update (archive) and quantities per
// period computed from the stored events; customer meters (consumed, credited and balance per
// customer and meter), for the organization and in the customer portal.
import {z} from 'zod'

import {notFound, requestValidation, type ValidationIssue} from '../errors.js'
import type {EventRecord} from '../event-log.js'
import {checkOrganization, ok, type Ctx, type Router} from '../http.js'
import {uuid} from '../ids.js'
import {byField, listRows, textSearch} from '../list.js'
import {customerMeterId, customerMeterState, type CustomerMeterState} from '../domain/usage.js'
import {INTERVALS, OPERATORS, quantities, requiredName, type Interval} from '../meters.js'
import type {CustomerRecord, FilterRecord, MeterRecord} from '../model.js'
import * as present from '../present.js'
import {metadataSchema, normalizeUuid, parse, pathUuid, UUID_RE} from '../validate.js'

const clauseSchema = z.object({
  property: z.string(),
  operator: z.enum(OPERATORS),
  value: z.union([z.string(), z.int(), z.boolean()]),
})
export const filterSchema: z.ZodType<FilterRecord> = z.lazy(() =>
  z.object({
    conjunction: z.enum(['and', 'or']),
    clauses: z.array(z.union([clauseSchema, filterSchema])),
  }),
)
const aggregationSchema = z.discriminatedUnion('func', [
  z.object({func: z.literal('count')}),
  z.object({func: z.enum(['sum', 'max', 'min', 'avg']), property: z.string()}),
  z.object({func: z.literal('unique'), property: z.string()}),
])
const UNITS = ['scalar', 'token', 'custom'] as const

const meterCreate = z.object({
  name: z.string().min(3),
  filter: filterSchema,
  aggregation: aggregationSchema,
  unit: z.enum(UNITS).default('scalar'),
  custom_label: z.string().nullish(),
  custom_multiplier: z.int().gt(0).nullish(),
  metadata: metadataSchema.default({}),
  organization_id: z.uuid().nullish(),
})

const meterUpdate = z.object({
  name: z.string().min(3).nullish(),
  filter: filterSchema.nullish(),
  aggregation: aggregationSchema.nullish(),
  unit: z.enum(UNITS).nullish(),
  custom_label: z.string().nullish(),
  custom_multiplier: z.int().gt(0).nullish(),
  metadata: metadataSchema.optional(),
  is_archived: z.boolean().nullish(),
})

export function presentMeter(ctx: Ctx, m: MeterRecord) {
  return {
    metadata: m.metadata,
    created_at: m.created_at,
    modified_at: m.modified_at,
    id: m.id,
    name: m.name,
    unit: m.unit,
    custom_label: m.custom_label,
    custom_multiplier: m.custom_multiplier,
    filter: m.filter,
    aggregation: m.aggregation,
    organization_id: ctx.store.data.organization.id,
    archived_at: m.archived_at,
  }
}

function meterOf(ctx: Ctx, id: string): MeterRecord {
  const meter = ctx.store.data.meters.find((m) => m.id === id)
  if (!meter) throw notFound()
  return meter
}

/** The user events a meter may count: those with the name its filter requires, when it requires one. */
function meterEvents(ctx: Ctx, meter: MeterRecord, customers: CustomerRecord[] | null): Iterable<EventRecord> {
  const log = ctx.store.events
  if (customers !== null) {
    const seen = new Set<string>()
    const out: EventRecord[] = []
    for (const c of customers) {
      for (const key of [c.id, ...(c.external_id ? [`ext:${c.external_id}`] : [])]) {
        for (const e of log.byCustomer(key)) if (!seen.has(e.id)) {
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

function requiredQuery(ctx: Ctx, name: string, issues: ValidationIssue[]): string | null {
  const value = ctx.query.get(name)
  if (value === null) issues.push({type: 'missing', loc: ['query', name], msg: 'Field required', input: null})
  return value
}

function quantitiesOf(ctx: Ctx, meter: MeterRecord) {
  const issues: ValidationIssue[] = []
  const startRaw = requiredQuery(ctx, 'start_timestamp', issues)
  const endRaw = requiredQuery(ctx, 'end_timestamp', issues)
  const intervalRaw = requiredQuery(ctx, 'interval', issues)
  const start = startRaw === null ? NaN : Date.parse(startRaw)
  const end = endRaw === null ? NaN : Date.parse(endRaw)
  for (const [name, raw, value] of [['start_timestamp', startRaw, start], ['end_timestamp', endRaw, end]] as const) {
    if (raw !== null && Number.isNaN(value)) issues.push({type: 'datetime_from_date_parsing', loc: ['query', name], msg: 'Input should be a valid datetime or date, invalid character in year', input: raw})
  }
  if (intervalRaw !== null && !(INTERVALS as readonly string[]).includes(intervalRaw)) {
    issues.push({type: 'enum', loc: ['query', 'interval'], msg: "Input should be 'year', 'month', 'week', 'day' or 'hour'", input: intervalRaw, ctx: {expected: "'year', 'month', 'week', 'day' or 'hour'"}})
  }
  const customerIds = ctx.query.getAll('customer_id')
  customerIds.forEach((id, i) => {
    if (!UUID_RE.test(id)) issues.push({type: 'uuid_parsing', loc: customerIds.length > 1 ? ['query', 'customer_id', i] : ['query', 'customer_id'], msg: 'Input should be a valid UUID, invalid character or length', input: id})
  })
  if (issues.length > 0) throw requestValidation(issues)
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
    const extra = externalIds.flatMap((x) => ctx.store.events.byCustomer(`ext:${x}`)).filter((e) => e.source === 'user' && (e.customer_id === null || !linked.has(e.customer_id)))
    events = [...new Set([...events, ...extra])]
  }
  if (metadata.length > 0) {
    events = [...events].filter((e) => metadata.every(([key, values]) => e.metadata[key] !== undefined && values.includes(String(e.metadata[key]))))
  }
  return quantities(events, meter.filter, meter.aggregation, start, end, intervalRaw as Interval)
}

// ---- customer meters ----

function customerMeters(ctx: Ctx, customers: CustomerRecord[], meters: MeterRecord[]) {
  const out: Array<{state: CustomerMeterState; customer: CustomerRecord; meter: MeterRecord}> = []
  for (const customer of customers) {
    for (const meter of meters) {
      const state = customerMeterState(ctx, customer, meter)
      if (state) out.push({state, customer, meter})
    }
  }
  return out.sort((a, b) => (a.state.created_at < b.state.created_at ? -1 : a.state.created_at > b.state.created_at ? 1 : 0))
}

type CustomerMeterRow = ReturnType<typeof customerMeters>[number]

function presentCustomerMeter(ctx: Ctx, row: CustomerMeterRow) {
  return {...row.state, customer: present.customer(ctx.view, row.customer), meter: presentMeter(ctx, row.meter)}
}

/** The portal's shape: no customer, and only the meter's id, name and times. */
function presentPortalMeter(ctx: Ctx, row: CustomerMeterRow) {
  const m = row.meter
  return {...row.state, meter: {created_at: m.created_at, modified_at: m.modified_at, id: m.id, name: m.name}}
}

function listCustomerMeters(ctx: Ctx, customers: CustomerRecord[], shape: (ctx: Ctx, row: CustomerMeterRow) => unknown = presentCustomerMeter) {
  const rows = customerMeters(ctx, customers, ctx.store.data.meters.filter((m) => m.archived_at === null))
  return listRows(
    rows,
    ctx.query,
    {
      filters: {
        organization_id: byField('uuid', () => ctx.store.data.organization.id),
        customer_id: byField('uuid', (r: CustomerMeterRow) => r.customer.id),
        external_customer_id: byField('string', (r: CustomerMeterRow) => r.customer.external_id),
        meter_id: byField('uuid', (r: CustomerMeterRow) => r.meter.id),
        query: textSearch((r: CustomerMeterRow) => r.meter.name),
      },
      sorts: {
        created_at: (r) => r.state.created_at,
        modified_at: (r) => r.state.modified_at,
        customer_id: (r) => r.customer.id,
        customer_name: (r) => r.customer.name,
        meter_id: (r) => r.meter.id,
        meter_name: (r) => r.meter.name,
        consumed_units: (r) => r.state.consumed_units,
        credited_units: (r) => r.state.credited_units,
        balance: (r) => r.state.balance,
      },
      defaultSort: ['-modified_at'],
    },
    (r) => shape(ctx, r),
  )
}

function findCustomerMeter(ctx: Ctx, customers: CustomerRecord[], id: string): CustomerMeterRow {
  for (const customer of customers) {
    for (const meter of ctx.store.data.meters) {
      if (customerMeterId(customer.id, meter.id) !== id) continue
      const state = customerMeterState(ctx, customer, meter)
      if (state) return {state, customer, meter}
    }
  }
  throw notFound()
}

const liveCustomers = (ctx: Ctx) => ctx.store.all('customers').filter((c) => c.deleted_at === null)

function portalCustomer(ctx: Ctx): CustomerRecord {
  const id = ctx.auth.kind === 'customer' ? ctx.auth.customerId : ''
  const customer = ctx.store.get('customers', id)
  if (!customer) throw notFound()
  return customer
}

export function register(r: Router): void {
  r.get('/meters/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.data.meters,
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            query: textSearch((m: MeterRecord) => m.name),
            is_archived: {type: 'bool', match: (m: MeterRecord, [v]) => (m.archived_at !== null) === v},
          },
          sorts: {created_at: (m) => m.created_at, name: (m) => m.name},
          defaultSort: ['created_at'],
          metadata: (m) => m.metadata,
        },
        (m) => presentMeter(ctx, m),
      ),
    ),
  )

  r.post('/meters/', 'organization', (ctx) => {
    const input = parse(meterCreate, ctx.body)
    checkOrganization(ctx, input.organization_id)
    const meter = ctx.store.write(() => {
      const m: MeterRecord = {
        id: uuid(),
        created_at: new Date(ctx.now).toISOString(),
        modified_at: null,
        name: input.name,
        unit: input.unit,
        custom_label: input.custom_label ?? null,
        custom_multiplier: input.custom_multiplier ?? null,
        filter: input.filter,
        aggregation: input.aggregation,
        metadata: input.metadata,
        archived_at: null,
      }
      ctx.store.data.meters.push(m)
      return m
    })
    return ok(presentMeter(ctx, meter), 201)
  })

  r.get('/meters/:id', 'organization', (ctx) => ok(presentMeter(ctx, meterOf(ctx, pathUuid(ctx.params)))))

  r.patch('/meters/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    meterOf(ctx, id)
    const input = parse(meterUpdate, ctx.body)
    const meter = ctx.store.write(() => {
      const m = meterOf(ctx, id)
      const now = new Date(ctx.now).toISOString()
      if (input.name != null) m.name = input.name
      if (input.filter != null) m.filter = input.filter
      if (input.aggregation != null) m.aggregation = input.aggregation
      if (input.unit != null) m.unit = input.unit
      if (input.custom_label !== undefined) m.custom_label = input.custom_label
      if (input.custom_multiplier !== undefined) m.custom_multiplier = input.custom_multiplier
      if (input.metadata !== undefined) m.metadata = input.metadata
      if (input.is_archived != null) m.archived_at = input.is_archived ? (m.archived_at ?? now) : null
      m.modified_at = now
      return m
    })
    return ok(presentMeter(ctx, meter))
  })

  r.get('/meters/:id/quantities', 'organization', (ctx) => ok(quantitiesOf(ctx, meterOf(ctx, pathUuid(ctx.params)))))

  r.get('/customer-meters/', 'organization', (ctx) => ok(listCustomerMeters(ctx, liveCustomers(ctx))))
  r.get('/customer-meters/:id', 'organization', (ctx) => ok(presentCustomerMeter(ctx, findCustomerMeter(ctx, liveCustomers(ctx), pathUuid(ctx.params)))))
  r.get('/customer-portal/meters/', 'customer', (ctx) => ok(listCustomerMeters(ctx, [portalCustomer(ctx)], presentPortalMeter)))
  r.get('/customer-portal/meters/:id', 'customer', (ctx) => ok(presentPortalMeter(ctx, findCustomerMeter(ctx, [portalCustomer(ctx)], pathUuid(ctx.params)))))
}
