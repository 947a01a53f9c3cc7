// Event types (the service's `event_type/` module): the organization's event names with statistics
// over its events (optionally those of some customers, of one parent, or the root events only), and the
// label of a type, which events and event names then carry.
import {z} from '../../core/zod.js'

import {ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, type Filter, type FilterType} from '../../core/list.js'
import {finder, listRoute, organizationScope, pathId, perRequest} from '../../core/toolkit.js'
import {normalizeUuid, parse, parseBool} from '../../core/validate.js'
import {events as eventsOf, type EventName, type EventRecord} from '../events/log.js'
import {eventLabel} from './labels.js'
import {eventType, eventTypeWithStats} from './present.js'

const eventTypeUpdate = z.object({
  label: z
    .string()
    .min(1)
    .max(128)
    .transform((v) => v.trim())
    .refine((v) => v !== '', 'Value error, Label cannot be empty or only whitespace'),
  label_property_selector: z.string().min(1).max(256).nullish(),
})

/** Adds a type for each user event name not seen before (label = name). Call inside `store.write`. */
export function addEventTypes(ctx: Ctx, names: Iterable<string>): void {
  const known = new Set(ctx.store.data.event_types.map((t) => t.name))
  const now = new Date(ctx.now).toISOString()
  for (const name of names) {
    if (known.has(name)) continue
    known.add(name)
    ctx.store.insert('event_types', {id: uuid(), created_at: now, modified_at: null, name, label: name, label_property_selector: null})
  }
}

/** The user event names that have no type yet (read without a write, so that most ingests need none). */
export const untypedNames = (ctx: Ctx, names: Iterable<string>): string[] => {
  const known = new Set(ctx.store.data.event_types.map((t) => t.name))
  return [...new Set(names)].filter((n) => !known.has(n))
}

/** Statistics per name and source over `rows`. */
function statsOf(rows: Iterable<EventRecord>): EventName[] {
  const out = new Map<string, EventName>()
  for (const e of rows) {
    const key = `${e.source}:${e.name}`
    const s = out.get(key)
    if (!s) out.set(key, {name: e.name, source: e.source, occurrences: 1, first_seen: e.timestamp, last_seen: e.timestamp})
    else {
      s.occurrences++
      if (e.timestamp < s.first_seen) s.first_seen = e.timestamp
      if (e.timestamp > s.last_seen) s.last_seen = e.timestamp
    }
  }
  return [...out.values()]
}

/** The statistics the query asks for: over all events (kept up to date by the log), or a subset. */
function stats(ctx: Ctx): EventName[] {
  const log = eventsOf(ctx.store)
  const customerIds = ctx.query.getAll('customer_id')
  const externalIds = ctx.query.getAll('external_customer_id')
  const parentId = ctx.query.get('parent_id')
  const rootOnly = parseBool(ctx.query.get('root_events') ?? '') === true
  if (customerIds.length === 0 && externalIds.length === 0 && parentId === null && !rootOnly) return log.names()
  let rows: readonly EventRecord[] = log.rows
  if (customerIds.length > 0 || externalIds.length > 0) {
    const seen = new Set<string>()
    const keys = [...customerIds.map((id) => normalizeUuid(id)), ...externalIds.map((x) => `ext:${x}`)]
    // a customer's events under its external id count too, and the other way round
    for (const c of ctx.store.all('customers')) {
      if (customerIds.some((id) => normalizeUuid(id) === c.id) && c.external_id) keys.push(`ext:${c.external_id}`)
      if (c.external_id !== null && externalIds.includes(c.external_id)) keys.push(c.id)
    }
    rows = keys.flatMap((k) => log.byCustomer(k)).filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)))
  }
  if (parentId !== null) rows = rows.filter((e) => e.parent_id === normalizeUuid(parentId))
  if (rootOnly) rows = rows.filter((e) => e.parent_id === null)
  return statsOf(rows)
}

/** Accepted and checked by the list; applied beforehand, on the events the statistics count. */
const counted = (type: FilterType): Filter<EventName, Ctx> => ({type, match: () => true})

/** The names the list shows: user names without a type are not listed (the service lists what it has a type for, and system names). */
function listed(ctx: Ctx): EventName[] {
  const types = typesOf(ctx)
  return stats(ctx).filter((s) => s.source === 'system' || types.has(s.name))
}

const typesOf = perRequest((ctx) => new Map(ctx.store.data.event_types.map((t) => [t.name, t])))
const label = (s: EventName, ctx: Ctx) => eventLabel(ctx.store, s.name, s.source)

const findType = finder('event_types')

export function register(r: Router): void {
  listRoute(r, 'event-types:list', listed, {
    present: (view, s, ctx) => eventTypeWithStats(view.store, s, s.source === 'user' ? typesOf(ctx).get(s.name) : undefined),
    filters: {
      organization_id: organizationScope,
      source: byField(['user', 'system'], (s: EventName) => s.source),
      query: {
        type: 'string',
        match: (s: EventName, [q], ctx) => {
          const needle = String(q).toLowerCase()
          return s.name.toLowerCase().includes(needle) || label(s, ctx).toLowerCase().includes(needle)
        },
      },
      customer_id: counted('uuid'),
      external_customer_id: counted('string'),
      parent_id: counted('uuid'),
      root_events: counted('bool'),
    },
    sorts: {name: (s) => s.name, label, occurrences: (s) => s.occurrences, first_seen: (s) => s.first_seen, last_seen: (s) => s.last_seen},
    defaultSort: ['-last_seen'],
  })
  r.patch('/event-types/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(eventTypeUpdate, ctx.body)
    findType(ctx, id)
    const updated = ctx.store.write(() => {
      const t = findType(ctx, id)
      t.label = input.label
      // the service's update sets only the label, and clears the selector
      t.label_property_selector = null
      t.modified_at = new Date(ctx.now).toISOString()
      return t
    })
    return ok(eventType(ctx.store, updated))
  })
}
