// The ingested events of one environment: an append-only file of JSON lines beside the store
// (`<env>.json.events`), read incrementally, so 1,000,000 events cost one append per ingest request
// instead of rewriting the store. In memory the events are indexed by id, external id, name and
// customer, which is what ingest (deduplication), listing and meter quantities look up.
import {closeSync, fstatSync, fsyncSync, openSync, readSync, statSync, writeSync, ftruncateSync} from 'node:fs'
import {open} from 'node:fs/promises'

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

/** Indexes of the events; `ms` caches each event's time in milliseconds. */
class Indexed {
  readonly rows: EventRecord[] = []
  readonly ms: number[] = []
  readonly byId = new Map<string, EventRecord>()
  readonly externalIds = new Set<string>()
  readonly byName = new Map<string, EventRecord[]>()
  /** By customer id and by `ext:<external customer id>`. */
  readonly byCustomer = new Map<string, EventRecord[]>()
  readonly names = new Map<string, EventName>()
  readonly children = new Map<string, number>()

  add(e: EventRecord): void {
    this.rows.push(e)
    this.ms.push(Date.parse(e.timestamp))
    this.byId.set(e.id, e)
    if (e.external_id !== null) this.externalIds.add(e.external_id)
    push(this.byName, e.name, e)
    if (e.parent_id !== null) this.children.set(e.parent_id, (this.children.get(e.parent_id) ?? 0) + 1)
    if (e.customer_id !== null) push(this.byCustomer, e.customer_id, e)
    if (e.external_customer_id !== null) push(this.byCustomer, `ext:${e.external_customer_id}`, e)
    const seen = this.names.get(`${e.source}:${e.name}`)
    if (!seen) this.names.set(`${e.source}:${e.name}`, {name: e.name, source: e.source, occurrences: 1, first_seen: e.timestamp, last_seen: e.timestamp})
    else {
      seen.occurrences++
      if (e.timestamp < seen.first_seen) seen.first_seen = e.timestamp
      if (e.timestamp > seen.last_seen) seen.last_seen = e.timestamp
    }
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

export class EventLog {
  private index = new Indexed()
  /** Bytes of the file already read, and the file's inode (a reset writes a new file). */
  private offset = 0
  private ino = -1
  private partial = ''

  constructor(private readonly file: string | null) {}

  get rows(): readonly EventRecord[] {
    return this.index.rows
  }

  get(id: string): EventRecord | undefined {
    return this.index.byId.get(id)
  }

  hasExternalId(externalId: string): boolean {
    return this.index.externalIds.has(externalId)
  }

  byName(name: string): readonly EventRecord[] {
    return this.index.byName.get(name) ?? []
  }

  /** Events of a customer by id, or by external id with `ext:` in front. */
  byCustomer(key: string): readonly EventRecord[] {
    return this.index.byCustomer.get(key) ?? []
  }

  childCount(id: string): number {
    return this.index.children.get(id) ?? 0
  }

  names(): EventName[] {
    return [...this.index.names.values()]
  }

  /** Reads what other processes appended since the last read (call under the store's lock to write). */
  refresh(): void {
    if (!this.file) return
    let size: number
    let ino: number
    try {
      const s = statSync(this.file)
      size = s.size
      ino = s.ino
    } catch {
      if (this.offset > 0) this.clearMemory()
      return
    }
    if (ino !== this.ino || size < this.offset) {
      this.clearMemory()
      this.ino = ino
    }
    if (size === this.offset) return
    const fd = openSync(this.file, 'r')
    try {
      const chunk = 4 * 1024 * 1024
      const buffer = Buffer.allocUnsafe(chunk)
      while (this.offset < size) {
        const n = readSync(fd, buffer, 0, Math.min(chunk, size - this.offset), this.offset)
        if (n <= 0) break
        this.offset += n
        const text = this.partial + buffer.toString('utf8', 0, n)
        const lines = text.split('\n')
        this.partial = lines.pop() ?? ''
        for (const line of lines) if (line !== '') this.index.add(JSON.parse(line) as EventRecord)
      }
    } finally {
      closeSync(fd)
    }
  }

  /**
   * Appends `events` to the file and the indexes. The caller holds the store's lock and refreshed first.
   * With `sync: false` the data is written but not yet flushed: the caller awaits `flush()` before it
   * answers, so that requests in flight overlap their disk flushes instead of queuing behind each one.
   */
  append(events: EventRecord[], options: {sync?: boolean} = {}): void {
    if (events.length === 0) return
    if (this.file) {
      const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n'
      const fd = openSync(this.file, 'a', 0o600)
      try {
        writeSync(fd, text)
        if (options.sync ?? true) fsyncSync(fd)
        const s = fstatSync(fd)
        this.ino = s.ino
        this.offset = s.size
      } finally {
        closeSync(fd)
      }
    }
    for (const e of events) this.index.add(e)
  }

  /** Flushes what was appended to the disk, without blocking other requests meanwhile. */
  async flush(): Promise<void> {
    if (!this.file) return
    const handle = await open(this.file, 'r')
    try {
      await handle.datasync()
    } finally {
      await handle.close()
    }
  }

  /** Empties the log (a reset of the environment). */
  clear(): void {
    if (this.file) {
      const fd = openSync(this.file, 'a', 0o600)
      try {
        ftruncateSync(fd, 0)
      } finally {
        closeSync(fd)
      }
    }
    this.clearMemory()
  }

  private clearMemory(): void {
    this.index = new Indexed()
    this.offset = 0
    this.partial = ''
  }
}
