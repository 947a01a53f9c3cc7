// Events (server/polar/event/endpoints.py): ingest, list, get, names; event types (their labels).
import type {ApiClient, Query} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Event, EventName, EventsIngest, EventsIngestResponse, EventType, EventTypeWithStats} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

/** One event as the ingest endpoint takes it: a customer by id or by external id. */
export type EventInput = EventsIngest['events'][number]

export type IngestResult = EventsIngestResponse

/**
 * Posts one batch. `replayable` (every event has an `external_id`, so the service deduplicates them)
 * lets the client send it again after a 5xx or a dropped connection; otherwise it is sent once.
 */
export function ingestEvents(client: ApiClient, events: EventInput[], options: {replayable?: boolean; signal?: AbortSignal} = {}): Promise<IngestResult> {
  return client.post<IngestResult>('/events/ingest', {events}, {replayable: options.replayable, signal: options.signal})
}

export interface EventFilters {
  name?: string[]
  customerId?: string[]
  externalCustomerId?: string[]
  meterId?: string
  source?: string[]
  start?: string
  end?: string
  /** A filter clause as JSON (`{"conjunction":"and","clauses":[...]}`). */
  filter?: string
  parentId?: string
  metadata?: string[]
  sorting?: string[]
}

export function eventsQuery(f: EventFilters): Query {
  return {
    name: f.name,
    customer_id: f.customerId,
    external_customer_id: f.externalCustomerId,
    meter_id: f.meterId,
    source: f.source,
    start_timestamp: f.start,
    end_timestamp: f.end,
    filter: f.filter,
    parent_id: f.parentId,
    sorting: f.sorting,
    ...metadataQuery(f.metadata),
  }
}

export function listEvents(client: ApiClient, f: EventFilters, page: PaginateOptions): AsyncGenerator<Event> {
  return listItems<Event>(client, '/events/', eventsQuery(f), page)
}

export const getEvent = (client: ApiClient, id: string) => client.get<Event>(`/events/${seg(id)}`)

export interface EventNameFilters {
  source?: string[]
  query?: string
  sorting?: string[]
}

export function listEventNames(client: ApiClient, f: EventNameFilters, page: PaginateOptions): AsyncGenerator<EventName> {
  return listItems<EventName>(client, '/events/names', {source: f.source, query: f.query, sorting: f.sorting}, page)
}

export interface EventTypeFilters {
  source?: string
  query?: string
  customerId?: string[]
  externalCustomerId?: string[]
  parentId?: string
  rootEvents?: boolean
  sorting?: string[]
}

/** The organization's event types with how often and when their events occurred. */
export function listEventTypes(client: ApiClient, f: EventTypeFilters, page: PaginateOptions): AsyncGenerator<EventTypeWithStats> {
  return listItems<EventTypeWithStats>(
    client,
    '/event-types/',
    {
      source: f.source,
      query: f.query,
      customer_id: f.customerId,
      external_customer_id: f.externalCustomerId,
      parent_id: f.parentId,
      root_events: f.rootEvents,
      sorting: f.sorting,
    },
    page,
  )
}

/** Sets an event type's label (what events of that name are shown as). */
export const updateEventType = (client: ApiClient, id: string, label: string) => client.patch<EventType>(`/event-types/${seg(id)}`, {label})
