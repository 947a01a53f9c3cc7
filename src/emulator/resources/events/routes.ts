// Events (server/polar/event/endpoints.py): ingest with deduplication by external id,
// list with the service's filters, get one, and the names seen with their counts.
import {z} from '../../core/zod.js'

import {requestValidation, ruleValidation, type ValidationIssue} from '../../core/errors.js'
import {ok, checkOrganization, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {after, before, byField} from '../../core/list.js'
import {found, listRoute, organizationScope, pathId} from '../../core/toolkit.js'
import {intIssue, parse, UUID_RE, uuidIssue} from '../../core/validate.js'
import type {CustomerRecord} from '../customers/model.js'
import {matches, requiredName} from '../meters/aggregate.js'
import type {FilterRecord} from '../meters/model.js'
import {filterSchema} from '../meters/schemas.js'
import {eventLog, events, withMs, type EventName, type EventRecord} from './log.js'
import {presentEvent, presentName} from './present.js'
import {addEventTypes, untypedNames} from '../event-types/routes.js'

const metadataValue: z.ZodType = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), metadataValue)]))

const eventBase = {
  name: z.string(),
  timestamp: z.iso.datetime({offset: true}).optional(),
  organization_id: z.uuid().nullish(),
  external_id: z.string().nullish(),
  parent_id: z.string().nullish(),
  metadata: z.record(z.string(), metadataValue).default({}),
}
const byCustomerId = z.object({...eventBase, customer_id: z.uuid()})
const byExternalCustomerId = z.object({...eventBase, external_customer_id: z.string()})
const eventCreate = z.union([byCustomerId, byExternalCustomerId])
const eventsIngest = z.object({events: z.array(eventCreate)})
type EventCreate = z.output<typeof eventCreate>

/**
 * The ingest body as `eventsIngest` reads it, faster: each event is read by the one member of the union
 * its keys point to (the member the union would pick), so that no event fails a member first. When any
 * event does not read, the whole body goes through the union, for the service's exact errors.
 */
function parseIngest(body: unknown): {events: EventCreate[]} {
  const list = typeof body === 'object' && body !== null ? (body as {events?: unknown}).events : undefined
  if (!Array.isArray(list)) return parse(eventsIngest, body)
  const events: EventCreate[] = []
  for (const e of list) {
    const member = typeof e === 'object' && e !== null && 'customer_id' in e ? byCustomerId : byExternalCustomerId
    const read = member.safeParse(e)
    if (!read.success) return parse(eventsIngest, body)
    events.push(read.data)
  }
  return {events}
}

/** An ISO timestamp already in the form the service answers with (UTC, milliseconds); the schema has
 * checked that it is a real date and time, so it is kept as given instead of being formatted again. */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

const externalIndex = new WeakMap<Ctx, Map<string, CustomerRecord>>()

/** Live customers by external id, built once per request. */
function byExternalId(ctx: Ctx): Map<string, CustomerRecord> {
  let map = externalIndex.get(ctx)
  if (!map) {
    map = new Map()
    for (const c of ctx.store.all('customers')) if (c.external_id !== null && c.deleted_at === null) map.set(c.external_id, c)
    externalIndex.set(ctx, map)
  }
  return map
}

/** The service's reading of one ingested event, or the reason it refuses the whole request. */
function toRecord(ctx: Ctx, input: EventCreate, at: number, issues: ValidationIssue[], schemaIssues: ValidationIssue[]): EventRecord {
  const loc = ['body', 'events', at]
  let ms: number
  let timestamp: string
  if (input.timestamp === undefined) {
    timestamp = new Date(ctx.now).toISOString()
    ms = Date.parse(timestamp)
  } else {
    ms = Date.parse(input.timestamp)
    if (ms > ctx.now)
      schemaIssues.push({type: 'value_error', loc: [...loc, 'timestamp'], msg: 'Value error, Timestamp must be in the past.', input: input.timestamp})
    timestamp = CANONICAL.test(input.timestamp) ? input.timestamp : new Date(ms).toISOString()
  }
  let customerId: string | null = null
  let externalCustomerId: string | null = null
  if ('customer_id' in input) {
    const customer = ctx.store.get('customers', input.customer_id)
    if (!customer || customer.deleted_at !== null)
      issues.push({type: 'value_error', loc: [...loc, 'customer_id'], msg: 'Customer not found.', input: input.customer_id})
    customerId = input.customer_id
    externalCustomerId = customer?.external_id ?? null
  } else {
    externalCustomerId = input.external_customer_id
    customerId = byExternalId(ctx).get(externalCustomerId)?.id ?? null
  }
  if (input.organization_id) checkOrganization(ctx, input.organization_id)
  return withMs(
    {
      id: uuid(),
      timestamp,
      name: input.name,
      source: 'user',
      customer_id: customerId,
      external_customer_id: externalCustomerId,
      external_id: input.external_id ?? null,
      parent_id: input.parent_id ?? null,
      metadata: input.metadata,
    },
    ms,
  )
}

function ingest(ctx: Ctx): Promise<{inserted: number; duplicates: number}> {
  const input = parseIngest(ctx.body)
  const issues: ValidationIssue[] = []
  const schemaIssues: ValidationIssue[] = []
  const records = input.events.map((e, i) => toRecord(ctx, e, i, issues, schemaIssues))
  // the timestamp rule belongs to the request schema (framework 422); unknown customers to the service
  if (schemaIssues.length > 0) throw requestValidation(schemaIssues)
  if (issues.length > 0) ruleValidationIssues(issues)
  // a name seen for the first time gets its event type (label = name) before its events are stored
  const untyped = untypedNames(
    ctx,
    records.map((r) => r.name),
  )
  if (untyped.length > 0) ctx.store.write(() => addEventTypes(ctx, untyped))
  const log = eventLog(ctx.store)
  return ctx.store.append(log, () => {
    const fresh: EventRecord[] = []
    const seen = new Set<string>()
    for (const r of records) {
      if (r.external_id !== null) {
        if (log.index.hasExternalId(r.external_id) || seen.has(r.external_id)) continue
        seen.add(r.external_id)
      }
      fresh.push(r)
    }
    return {rows: fresh, result: {inserted: fresh.length, duplicates: records.length - fresh.length}}
  })
}

/** Service-rule failures on events: the service's own 422 shape with every issue. */
function ruleValidationIssues(issues: ValidationIssue[]): never {
  const error = ruleValidation(issues[0]!.loc, issues[0]!.msg, issues[0]!.input)
  ;(error.body as {detail: ValidationIssue[]}).detail = issues
  throw error
}

function parseFilterParam(ctx: Ctx): FilterRecord | null {
  const raw = ctx.query.get('filter')
  if (raw === null || raw === '') return null
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    throw requestValidation([{type: 'value_error', loc: ['query', 'filter'], msg: 'Value error, Invalid JSON filter', input: raw}])
  }
  return parse(filterSchema, json, ['query', 'filter']) as FilterRecord
}

/** The smallest index holding every event the query can return. */
function candidates(ctx: Ctx, filter: FilterRecord | null, meterFilter: FilterRecord | null): readonly EventRecord[] {
  const log = events(ctx.store)
  const names = ctx.query.getAll('name')
  if (names.length === 1) return log.byName(names[0]!)
  const customers = ctx.query.getAll('customer_id')
  if (customers.length === 1) return log.byCustomer(customers[0]!.toLowerCase())
  const external = ctx.query.getAll('external_customer_id')
  if (external.length === 1) return log.byCustomer(`ext:${external[0]}`)
  const required = (meterFilter && requiredName(meterFilter)) ?? (filter && requiredName(filter))
  if (required) return log.byName(required)
  return log.rows
}

/** The events a list may answer: the query's `filter`, `meter_id` and `depth` checked, the smallest index. */
function listedEvents(ctx: Ctx): readonly EventRecord[] {
  const filter = parseFilterParam(ctx)
  const meterId = ctx.query.get('meter_id')
  checkDepth(ctx.query.getAll('depth').at(-1))
  let meterFilter: FilterRecord | null = null
  if (meterId !== null) {
    if (!UUID_RE.test(meterId)) throw requestValidation([uuidIssue(['query', 'meter_id'], meterId)])
    const meter = ctx.store.data.meters.find((m) => m.id === meterId.toLowerCase())
    if (!meter) throw requestValidation([{type: 'value_error', loc: ['query', 'meter_id'], msg: 'Meter not found.', input: meterId}])
    meterFilter = meter.filter
  }
  let rows = candidates(ctx, filter, meterFilter)
  if (filter || meterFilter) rows = rows.filter((e) => (!filter || matches(e, filter)) && (!meterFilter || matches(e, meterFilter)))
  return rows
}

/** `depth` is an integer from 0 to 5 (the service's query bounds). */
function checkDepth(raw: string | undefined): void {
  if (raw === undefined) return
  if (!/^[+-]?\d+$/.test(raw.trim())) throw requestValidation([intIssue(['query', 'depth'], raw)])
  const n = Number(raw)
  if (n < 0)
    throw requestValidation([
      {type: 'greater_than_equal', loc: ['query', 'depth'], msg: 'Input should be greater than or equal to 0', input: raw, ctx: {ge: 0}},
    ])
  if (n > 5)
    throw requestValidation([{type: 'less_than_equal', loc: ['query', 'depth'], msg: 'Input should be less than or equal to 5', input: raw, ctx: {le: 5}}])
}

/** The event names, with the query's free-text search applied. */
function listedNames(ctx: Ctx): EventName[] {
  const search = ctx.query.get('query')?.toLowerCase()
  return events(ctx.store)
    .names()
    .filter((n) => !search || n.name.toLowerCase().includes(search))
}

export function register(r: Router): void {
  r.post('/events/ingest', 'organization', async (ctx) => ok(await ingest(ctx)))
  listRoute(r, 'events:list', listedEvents, {
    present: (_view, e, ctx) => presentEvent(ctx, e),
    filters: {
      name: byField('string', (e: EventRecord) => e.name),
      customer_id: byField('uuid', (e: EventRecord) => e.customer_id),
      external_customer_id: byField('string', (e: EventRecord) => e.external_customer_id),
      source: byField(['user', 'system'], (e: EventRecord) => e.source),
      organization_id: organizationScope,
      parent_id: byField('uuid', (e: EventRecord) => e.parent_id),
      start_timestamp: after((e: EventRecord) => e.timestamp),
      end_timestamp: before((e: EventRecord) => e.timestamp),
    },
    sorts: {timestamp: (e) => e.timestamp},
    defaultSort: ['-timestamp'],
    metadata: (e) => e.metadata as Record<string, string>,
  })
  listRoute(r, 'events:list_names', listedNames, {
    present: (view, n) => presentName(view.store, n),
    filters: {
      source: byField(['user', 'system'], (n: EventName) => n.source),
      organization_id: organizationScope,
    },
    sorts: {name: (n) => n.name, occurrences: (n) => n.occurrences, first_seen: (n) => n.first_seen, last_seen: (n) => n.last_seen},
    defaultSort: ['-last_seen'],
  })
  r.get('/events/:id', 'organization', (ctx) => {
    return ok(presentEvent(ctx, found(events(ctx.store).get(pathId(ctx)))))
  })
}
