// The ingested events of one environment, kept in the store's append-only log `events` (not in the
// store's JSON: 1,000,000 events cost one append per ingest request instead of a rewrite). In memory
// they are indexed by id, external id, name and customer: what deduplication, listing and meter
// quantities look up. System events (`source: system`) the service records go to the same log.
import {uuid} from '../../core/ids.js'
import type {Store} from '../../core/store.js'
import type {AppendLog} from '../../core/append-log.js'

export interface EventRecord {
  id: string
  /** ISO timestamp of the event (given by the client or the time of ingest). */
  timestamp: string
  name: string
  source: 'user' | 'system'
  customer_id: string | null
  external_customer_id: string | null
  external_id: string | null
  parent_id: string | null
  metadata: Record<string, unknown>
}

export interface EventName {
  name: string
  source: 'user' | 'system'
  occurrences: number
  first_seen: string
  last_seen: string
}

const SEQ = Symbol('sequence')
const MS = Symbol('ms')
type Held = EventRecord & {[SEQ]?: number; [MS]?: number}

/** Where a stored event stands in the order of ingestion. */
const sequence = (e: EventRecord) => (e as Held)[SEQ] ?? -1

/** `e` with its time in ms already known (the index then need not parse its timestamp again). */
export function withMs(e: EventRecord, ms: number): EventRecord {
  ;(e as Held)[MS] = ms
  return e
}

/** A stored event's time in ms since the epoch (parsed once, when it was indexed). */
export const eventMs = (e: EventRecord): number => (e as Held)[MS] ?? Date.parse(e.timestamp)

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** What the emulator keeps in memory of the events. */
export class EventIndex {
  readonly rows: EventRecord[] = []
  private readonly byIdMap = new Map<string, EventRecord>()
  private readonly externalIds = new Set<string>()
  private readonly byNameMap = new Map<string, EventRecord[]>()
  /** By customer id and by `ext:<external customer id>`. */
  private readonly byCustomerMap = new Map<string, EventRecord[]>()
  private readonly userNames = new Map<string, EventName>()
  private readonly systemNames = new Map<string, EventName>()
  private readonly children = new Map<string, number>()

  add(e: EventRecord): void {
    // kept on the record in memory only (it was written to the log before): its place in the order of
    // ingestion, which meter windows follow, and its time in ms, which quantities compare
    const held = e as Held
    held[SEQ] = this.rows.length
    held[MS] ??= Date.parse(e.timestamp)
    this.rows.push(e)
    this.byIdMap.set(e.id, e)
    if (e.external_id !== null) this.externalIds.add(e.external_id)
    push(this.byNameMap, e.name, e)
    if (e.parent_id !== null) this.children.set(e.parent_id, (this.children.get(e.parent_id) ?? 0) + 1)
    if (e.customer_id !== null) push(this.byCustomerMap, e.customer_id, e)
    if (e.external_customer_id !== null) push(this.byCustomerMap, `ext:${e.external_customer_id}`, e)
    const names = e.source === 'user' ? this.userNames : this.systemNames
    const seen = names.get(e.name)
    if (!seen) names.set(e.name, {name: e.name, source: e.source, occurrences: 1, first_seen: e.timestamp, last_seen: e.timestamp})
    else {
      seen.occurrences++
      if (e.timestamp < seen.first_seen) seen.first_seen = e.timestamp
      if (e.timestamp > seen.last_seen) seen.last_seen = e.timestamp
    }
  }

  get(id: string): EventRecord | undefined {
    return this.byIdMap.get(id)
  }

  hasExternalId(externalId: string): boolean {
    return this.externalIds.has(externalId)
  }

  byName(name: string): readonly EventRecord[] {
    return this.byNameMap.get(name) ?? []
  }

  /** Events of a customer by id, or by external id with `ext:` in front. */
  byCustomer(key: string): readonly EventRecord[] {
    return this.byCustomerMap.get(key) ?? []
  }

  /** A customer's events by id and by external id, in the order of ingestion. */
  ofCustomer(customerId: string, externalId: string | null): EventRecord[] {
    const own = this.byCustomer(customerId)
    if (externalId === null) return [...own]
    const seen = new Set(own.map((e) => e.id))
    const merged = [...own, ...this.byCustomer(`ext:${externalId}`).filter((e) => !seen.has(e.id))]
    return merged.sort((a, b) => sequence(a) - sequence(b))
  }

  childCount(id: string): number {
    return this.children.get(id) ?? 0
  }

  names(): EventName[] {
    return [...this.userNames.values(), ...this.systemNames.values()]
  }
}

/** The environment's event log (refreshed with the store before every request). */
export function eventLog(store: Store): AppendLog<EventRecord, EventIndex> {
  return store.log<EventRecord, EventIndex>('events', () => new EventIndex())
}

/** The events as of the last refresh. */
export const events = (store: Store): EventIndex => eventLog(store).index

/**
 * Records a system event (`source: system`) the way the service does on grants, credits, cycles and
 * revocations. Call inside `store.write`, which holds the lock and has read the log.
 */
export function recordSystemEvent(store: Store, name: string, customerId: string, at: string, metadata: Record<string, unknown>): void {
  const customer = store.get('customers', customerId)
  eventLog(store).append([
    {
      id: uuid(),
      timestamp: at,
      name,
      source: 'system',
      customer_id: customerId,
      external_customer_id: customer?.external_id ?? null,
      external_id: null,
      parent_id: null,
      metadata,
    },
  ])
}
