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
  private readonly namesMap = new Map<string, EventName>()
  private readonly children = new Map<string, number>()
  /** Each event's place in the log: the order of ingestion, which meter windows follow. */
  private readonly positions = new Map<string, number>()

  add(e: EventRecord): void {
    this.positions.set(e.id, this.rows.length)
    this.rows.push(e)
    this.byIdMap.set(e.id, e)
    if (e.external_id !== null) this.externalIds.add(e.external_id)
    push(this.byNameMap, e.name, e)
    if (e.parent_id !== null) this.children.set(e.parent_id, (this.children.get(e.parent_id) ?? 0) + 1)
    if (e.customer_id !== null) push(this.byCustomerMap, e.customer_id, e)
    if (e.external_customer_id !== null) push(this.byCustomerMap, `ext:${e.external_customer_id}`, e)
    const key = `${e.source}:${e.name}`
    const seen = this.namesMap.get(key)
    if (!seen) this.namesMap.set(key, {name: e.name, source: e.source, occurrences: 1, first_seen: e.timestamp, last_seen: e.timestamp})
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

  /** Where the event stands in the order of ingestion. */
  position(id: string): number {
    return this.positions.get(id) ?? -1
  }

  /** A customer's events by id and by external id, in the order of ingestion. */
  ofCustomer(customerId: string, externalId: string | null): EventRecord[] {
    const own = this.byCustomer(customerId)
    if (externalId === null) return [...own]
    const seen = new Set(own.map((e) => e.id))
    const merged = [...own, ...this.byCustomer(`ext:${externalId}`).filter((e) => !seen.has(e.id))]
    return merged.sort((a, b) => this.position(a.id) - this.position(b.id))
  }

  childCount(id: string): number {
    return this.children.get(id) ?? 0
  }

  names(): EventName[] {
    return [...this.namesMap.values()]
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
  eventLog(store).append([{
    id: uuid(),
    timestamp: at,
    name,
    source: 'system',
    customer_id: customerId,
    external_customer_id: customer?.external_id ?? null,
    external_id: null,
    parent_id: null,
    metadata,
  }])
}
