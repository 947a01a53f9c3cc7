// An append-only log of JSON records beside the store (`<env>.json.log.<name>`), for a resource whose
// records are only ever added and may be very many (ingested events): an append costs one write of the new
// lines instead of rewriting the store, and other processes read only what was added since their last read.
// The log knows nothing of its records: the resource gives it an index to fill (`add` per record).
//
// Records appended inside a store write belong to that write: each line carries the store version the write
// saves (`$w`), the store records that version as the log's last (`log_commits`), and the lines count only
// once the store has. A process killed between its appends and its save leaves a group of lines of a version
// the store never recorded: readers hold such a group back, and the next process to append (under the store's
// lock, so the group's writer is gone) writes a `$drop` line for it. Records appended outside a write (an
// ingest) carry no version: they count as written.
import {closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, promises as fs, readSync, statSync, writeSync} from 'node:fs'

/** What a resource keeps in memory of its log: fed every record, in order. */
export interface LogIndex<T> {
  add(row: T): void
}

/** How a log learns which store version its appends belong to and which version the store has saved. */
export interface LogCommit {
  /** The version the store write under way saves (its appends carry it), or undefined outside a write. */
  tag: () => number | undefined
  /** The version of the last write the store (as last read or saved) says appended to this log. */
  committed: () => number
}

type Line = Record<string, unknown> & {$w?: number; $drop?: number}

export class AppendLog<T, I extends LogIndex<T>> {
  private current: I
  /** Bytes of the file already read, and the file's inode (a reset may write a new file). */
  private offset = 0
  private ino = -1
  private partial = ''
  /** The last group of another process's write, held back until the store holds its version. */
  private pending: T[] = []
  private pendingTag = -1

  constructor(
    readonly file: string | null,
    private readonly makeIndex: () => I,
    private readonly commit: LogCommit = {tag: () => undefined, committed: () => Number.POSITIVE_INFINITY},
  ) {
    this.current = makeIndex()
  }

  /** The index as of the last refresh or append. */
  get index(): I {
    return this.current
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
    if (size > this.offset) this.read(size)
    // a group read before its write was saved counts once the store records that write
    if (this.pending.length > 0 && this.pendingTag <= this.commit.committed()) this.release()
  }

  /** Reads the file from where the last read stopped up to `size`. */
  private read(size: number): void {
    const fd = openSync(this.file!, 'r')
    try {
      const chunk = 4 * 1024 * 1024
      const buffer = Buffer.allocUnsafe(chunk)
      while (this.offset < size) {
        const n = readSync(fd, buffer, 0, Math.min(chunk, size - this.offset), this.offset)
        if (n <= 0) break
        this.offset += n
        const lines = (this.partial + buffer.toString('utf8', 0, n)).split('\n')
        this.partial = lines.pop() ?? ''
        for (const line of lines) if (line !== '') this.take(line)
      }
    } finally {
      closeSync(fd)
    }
  }

  /** One line read from the file: a record, a record of a write's group, or the drop of a group. */
  private take(text: string): void {
    let line: Line
    try {
      line = JSON.parse(text) as Line
    } catch {
      // a line cut short by a process killed while it wrote (the next append starts a line of its own)
      return
    }
    if (line.$drop !== undefined) {
      if (line.$drop === this.pendingTag) this.pending = []
      return
    }
    const tag = line.$w
    // a line after a group means that group's write was saved: a writer drops a group it finds unsaved first
    if (this.pending.length > 0 && tag !== this.pendingTag) this.release()
    if (tag === undefined) {
      this.current.add(line as T)
      return
    }
    delete line.$w
    this.pendingTag = tag
    this.pending.push(line as T)
  }

  /** The held group's records into the index: their write was saved. */
  private release(): void {
    for (const row of this.pending) this.current.add(row)
    this.pending = []
  }

  /**
   * Appends `rows` to the file and the index. The caller holds the store's lock and refreshed first.
   * With `sync: false` the data is written but not yet flushed: the caller awaits `flush()` before it
   * answers, so that requests in flight overlap their disk flushes instead of queuing behind each one.
   */
  append(rows: T[], options: {sync?: boolean} = {}): void {
    if (rows.length === 0) return
    if (this.file) {
      const tag = this.commit.tag()
      const lines = rows.map((r) => JSON.stringify(tag === undefined ? r : {$w: tag, ...r}))
      // under the lock, a group still held back is one whose writer died before its save, and a line cut short
      // is a killed writer's: both are left behind for good
      if (this.pending.length > 0) {
        lines.unshift(JSON.stringify({$drop: this.pendingTag}))
        this.pending = []
      }
      const text = `${this.partial === '' ? '' : '\n'}${lines.join('\n')}\n`
      this.partial = ''
      const fd = openSync(this.file, 'a', 0o600)
      try {
        writeSync(fd, text)
        if (batched) batched.add(this as unknown as AppendLog<unknown, LogIndex<unknown>>)
        else if (options.sync ?? true) fsyncSync(fd)
        const s = fstatSync(fd)
        this.ino = s.ino
        this.offset = s.size
      } finally {
        closeSync(fd)
      }
    }
    for (const r of rows) this.current.add(r)
  }

  /** Flushes what was appended to the disk now (the end of `batchSyncs`). */
  syncNow(): void {
    if (!this.file) return
    const fd = openSync(this.file, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }

  /** Flushes what was appended to the disk, without blocking other requests meanwhile. */
  async flush(): Promise<void> {
    if (!this.file) return
    // fs.promises on first use: loading it costs every emulator's start time
    const handle = await fs.open(this.file, 'r')
    try {
      await handle.datasync()
    } finally {
      await handle.close()
    }
  }

  /** Empties the log (a reset of the environment). */
  clear(): void {
    if (this.file) truncateLog(this.file)
    this.clearMemory()
  }

  private clearMemory(): void {
    this.current = this.makeIndex()
    this.offset = 0
    this.partial = ''
    this.pending = []
  }
}

/** The logs appended to inside `batchSyncs`: flushed to the disk once, when it ends. */
let batched: Set<AppendLog<unknown, LogIndex<unknown>>> | null = null

/**
 * Runs `fn` with every log's appends written at once but flushed to the disk together at the end (the
 * clock's walk appends a system event for each of thousands of renewals: one flush each would take minutes).
 */
export function batchSyncs<T>(fn: () => T): T {
  if (batched) return fn()
  batched = new Set()
  const logs = batched
  try {
    return fn()
  } finally {
    batched = null
    for (const log of logs) log.syncNow()
  }
}

/** Empties a log file if it exists (kept in place, so every process sees it shrink). */
export function truncateLog(file: string): void {
  let fd: number
  try {
    fd = openSync(file, 'r+')
  } catch {
    return
  }
  try {
    ftruncateSync(fd, 0)
  } finally {
    closeSync(fd)
  }
}
