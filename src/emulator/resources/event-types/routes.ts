// Event types (the service's `event_type/` module): the organization's event names with statistics
// over its events (optionally those of some customers, of one parent, or the root events only), and the
// label of a type, which events and event names then carry.
import {z} from 'zod'

import {notFound} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField, listRows, type Filter} from '../../core/list.js'
import {normalizeUuid, parse, pathUuid} from '../../core/validate.js'
import {events as eventsOf, type EventName, type EventRecord} from '../events/log.js'
import {eventLabel} from './labels.js'
import type {EventTypeRecord} from './model.js'
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
  const rootOnly = ['true', '1', 'yes', 'on', 't', 'y'].includes(ctx.query.get('root_events')?.toLowerCase() ?? '')
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

/** Accepted and checked by `listRows`; applied beforehand, on the events the statistics count. */
const counted = (type: Filter<EventName>['type']): Filter<EventName> => ({type, match: () => true})

function list(ctx: Ctx) {
  const types = new Map(ctx.store.data.event_types.map((t) => [t.name, t]))
  // user names without a type are not listed (the service lists what it has a type for, and system names)
  const rows = stats(ctx).filter((s) => s.source === 'system' || types.has(s.name))
  const label = (s: EventName) => eventLabel(ctx.store, s.name, s.source)
  return listRows(
    rows,
    ctx.query,
    {
      filters: {
        organization_id: byField('uuid', () => ctx.store.data.organization.id),
        source: byField(['user', 'system'], (s: EventName) => s.source),
        query: {
          type: 'string',
          match: (s, [q]) => s.name.toLowerCase().includes(String(q).toLowerCase()) || label(s).toLowerCase().includes(String(q).toLowerCase()),
        },
        customer_id: counted('uuid'),
        external_customer_id: counted('string'),
        parent_id: counted('uuid'),
        root_events: counted('bool'),
      },
      sorts: {name: (s) => s.name, label, occurrences: (s) => s.occurrences, first_seen: (s) => s.first_seen, last_seen: (s) => s.last_seen},
      defaultSort: ['-last_seen'],
    },
    (s) => eventTypeWithStats(ctx.store, s, s.source === 'user' ? types.get(s.name) : undefined),
  )
}

function find(ctx: Ctx, id: string): EventTypeRecord {
  const t = ctx.store.get('event_types', id)
  if (!t) throw notFound()
  return t
}

export function register(r: Router): void {
  r.get('/event-types/', 'organization', (ctx) => ok(list(ctx)))
  r.patch('/event-types/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    const input = parse(eventTypeUpdate, ctx.body)
    find(ctx, id)
    const updated = ctx.store.write(() => {
      const t = find(ctx, id)
      t.label = input.label
      // the service's update sets only the label, and clears the selector
      t.label_property_selector = null
      t.modified_at = new Date(ctx.now).toISOString()
      return t
    })
    return ok(eventType(ctx.store, updated))
  })
}
