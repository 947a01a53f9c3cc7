// One environment's state in memory, saved to `<data>/<env>.json`.
// Writes are atomic (temp file + rename) and serialized across processes by a lock file;
// before each request the store reloads if another process changed the file.
// Until the first write, the file holds only a small seed manifest: the seed data is deterministic, so
// it is generated again on load instead of being written out (100,000 orders would be ~140 MB).
import {AsyncLocalStorage} from 'node:async_hooks'
import {randomBytes} from './crypto.js'
import {closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'

import {fsReason} from '../../client/fs-problem.js'
import {withLockSync} from '../../client/lockfile.js'
import {MiB, readOwnText} from '../../client/own-file.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {AppendLog, truncateLog, type LogIndex} from './append-log.js'
import type {CollectionName, EnvData} from './model.js'

type Row<K extends CollectionName> = EnvData[K][number]

/** What the file holds until the first write: enough to generate the same seeded state again. */
export interface SeedManifest {
  schema: 1
  kind: 'seed'
  /** Anything the generator needs (sizes, creation time, the random token, ...). */
  [key: string]: unknown
}

export interface Seeding {
  /** The seeded state and the manifest that regenerates it. */
  create: () => {data: EnvData; manifest: SeedManifest}
  regenerate: (manifest: SeedManifest) => EnvData
  /** Adds what a store saved by an older version lacks (the collections of newer resources). */
  complete?: (data: EnvData) => EnvData
}

/** The most a store file is read as (a string holds about 512 MiB): a file past it is not a store. */
const STORE_MAX_BYTES = 512 * MiB

const isManifest = (value: unknown): value is SeedManifest => (value as {kind?: unknown})?.kind === 'seed'

/**
 * What identifies one saved version of `file`: a random revision written beside it by every save, plus
 * the file's inode, size and time. The revision matters: a renamed-in file can reuse an inode and have
 * the same size and time to the millisecond, and then another process's write would go unnoticed.
 */
function fileStamp(file: string): string | null {
  try {
    const s = statSync(file)
    let rev = ''
    try {
      rev = readOwnText(`${file}.rev`, 1024)
    } catch {
      // a store written before revisions existed, or its first save is under way
    }
    return `${rev}:${s.ino}:${s.size}:${s.mtimeMs}`
  } catch {
    return null
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The temp copies (`<file>.<pid>.tmp`, `<file>.rev.<pid>.tmp`) left by a process killed mid-save. */
function removeStaleTemps(file: string): void {
  const base = basename(file)
  for (const name of readdirSync(dirname(file))) {
    if (!name.startsWith(`${base}.`) || !name.endsWith('.tmp')) continue
    const pid = /^\.(?:rev\.)?(\d+)\.tmp$/.exec(name.slice(base.length))?.[1]
    if (pid !== undefined && (Number(pid) === process.pid || !alive(Number(pid)))) rmSync(join(dirname(file), name), {force: true})
  }
}

/**
 * A handler run under `readOnly.run(true, ...)` may read but not change any store: its first write throws
 * `ReadOnlyStore` (the contract mode runs a refused request's handler this way, for its own 422 words).
 */
export const readOnly = new AsyncLocalStorage<boolean>()

export class ReadOnlyStore extends Error {
  constructor() {
    super('a write in a read-only run')
  }
}

const refuseWrites = () => {
  if (readOnly.getStore()) throw new ReadOnlyStore()
}

export class Store {
  private indexes = new Map<CollectionName, Map<string, unknown>>()
  /** `where`'s indexes, by `<collection>.<key>`: rows by the key's value. */
  private groups = new Map<string, Map<unknown, unknown[]>>()
  private stamp: string | null = null
  /** Append-only logs beside the store (`<file>.log.<name>`), opened by the resources that keep one. */
  private logs = new Map<string, AppendLog<unknown, LogIndex<unknown>>>()

  private constructor(
    public data: EnvData,
    readonly file: string | null,
    private readonly seeding?: Seeding,
  ) {}

  /** A store kept only in memory (tests of pure pieces). */
  static memory(data: EnvData): Store {
    return new Store(data, null)
  }

  /** Loads `file`, or seeds it when it does not exist yet (writing only the seed manifest). */
  static open(file: string, seeding: Seeding): Store {
    mkdirSync(dirname(file), {recursive: true, mode: 0o700})
    const store = new Store(undefined as unknown as EnvData, file, seeding)
    store.withLock(() => {
      removeStaleTemps(file)
      if (fileStamp(file) === null) {
        const {data, manifest} = seeding.create()
        store.data = data
        store.clearLogs()
        store.saveText(JSON.stringify(manifest))
      } else {
        store.reload()
      }
    })
    return store
  }

  /** Reloads the file if another process wrote it since we last read or wrote it. */
  refresh(): void {
    if (!this.file) return
    const stamp = fileStamp(this.file)
    if (stamp !== null && stamp !== this.stamp) this.reload()
    for (const log of this.logs.values()) log.refresh()
  }

  /**
   * The append-only log `name` (opened on first use and refreshed with the store); `makeIndex` makes the
   * empty index the log fills with its records.
   */
  log<T, I extends LogIndex<T>>(name: string, makeIndex: () => I): AppendLog<T, I> {
    let log = this.logs.get(name) as AppendLog<T, I> | undefined
    if (!log) {
      log = new AppendLog<T, I>(this.file === null ? null : `${this.file}.log.${name}`, makeIndex, {
        // a write's appends carry the version it saves, and the store records it as this log's last
        tag: () => {
          if (this.writing === 0) return undefined
          const version = this.data.version + 1
          this.data.log_commits = {...this.data.log_commits, [name]: version}
          return version
        },
        committed: () => this.data.log_commits?.[name] ?? 0,
      })
      log.refresh()
      this.logs.set(name, log as unknown as AppendLog<unknown, LogIndex<unknown>>)
    }
    return log
  }

  /**
   * Appends to `log` under the cross-process lock without rewriting the store; `fn` picks the rows from the
   * freshly read log. Resolves once the rows are on disk; the lock is not held while the disk flushes.
   */
  async append<T, I extends LogIndex<T>, R>(log: AppendLog<T, I>, fn: () => {rows: T[]; result: R}): Promise<R> {
    refuseWrites()
    const run = () => {
      // the store too: whether a group of another process's write in the log was saved is the store's to say
      this.refresh()
      log.refresh()
      const {rows, result} = fn()
      log.append(rows, {sync: false})
      return {result, wrote: rows.length > 0}
    }
    const {result, wrote} = this.file ? this.withLock(run) : run()
    if (wrote) await log.flush()
    return result
  }

  /** Depth of the writes under way: a write inside another (the clock's walk) is part of the outer one. */
  private writing = 0

  /**
   * Runs a read-modify-write under the cross-process lock and saves the result atomically. A write inside
   * another is part of it: saved once, when the outer one ends.
   */
  write<T>(fn: () => T): T {
    refuseWrites()
    if (this.writing > 0) return fn()
    this.writing++
    try {
      return this.writeOnce(fn)
    } finally {
      this.writing--
    }
  }

  private writeOnce<T>(fn: () => T): T {
    if (!this.file) {
      const result = fn()
      this.data.version++
      return result
    }
    return this.withLock(() => {
      this.refresh()
      const result = fn()
      this.data.version++
      this.save()
      return result
    })
  }

  /** Back to the seeded state of `manifest` (reset), atomically. */
  reseed(manifest: SeedManifest): void {
    if (!this.file || !this.seeding) throw new Error('only a store opened from a file can be reseeded')
    this.withLock(() => {
      this.data = this.seeding!.regenerate(manifest)
      this.indexes.clear()
      this.groups.clear()
      this.clearLogs()
      this.saveText(JSON.stringify(manifest))
    })
  }

  all<K extends CollectionName>(name: K): Row<K>[] {
    return this.data[name] as Row<K>[]
  }

  get<K extends CollectionName>(name: K, id: string): Row<K> | undefined {
    return this.index(name).get(id) as Row<K> | undefined
  }

  insert<K extends CollectionName>(name: K, row: Row<K>): Row<K> {
    ;(this.data[name] as Row<K>[]).push(row)
    this.index(name).set(row.id, row)
    for (const [at, groups] of this.groups) {
      if (!at.startsWith(`${name}.`)) continue
      const v = (row as unknown as Record<string, unknown>)[at.slice(name.length + 1)]
      const list = groups.get(v)
      if (list) list.push(row)
      else groups.set(v, [row])
    }
    return row
  }

  /**
   * The rows of `name` whose `key` is `value`, from an index kept as rows are inserted and removed (for a
   * key no row ever changes, such as a grant's customer).
   */
  where<K extends CollectionName>(name: K, key: keyof Row<K> & string, value: unknown): readonly Row<K>[] {
    const at = `${name}.${key}`
    let groups = this.groups.get(at)
    if (!groups) {
      groups = new Map()
      for (const row of this.data[name] as Row<K>[]) {
        const v = row[key as keyof Row<K>]
        const list = groups.get(v)
        if (list) list.push(row)
        else groups.set(v, [row])
      }
      this.groups.set(at, groups)
    }
    return (groups.get(value) ?? []) as Row<K>[]
  }

  remove<K extends CollectionName>(name: K, id: string): void {
    const rows = this.data[name] as Row<K>[]
    const at = rows.findIndex((r) => r.id === id)
    if (at >= 0) rows.splice(at, 1)
    this.index(name).delete(id)
    for (const key of [...this.groups.keys()]) if (key.startsWith(`${name}.`)) this.groups.delete(key)
  }

  private index(name: CollectionName): Map<string, unknown> {
    let map = this.indexes.get(name)
    if (!map) {
      map = new Map((this.data[name] as Array<{id: string}>).map((r) => [r.id, r]))
      this.indexes.set(name, map)
    }
    return map
  }

  private reload(): void {
    const file = this.file!
    // The stamp is taken before the read: another process's save in between makes it differ from the file's
    // next stamp, so the next refresh reloads. Taken after, it could name a newer version than the one read,
    // and a write based on the older data would then overwrite that process's acknowledged write.
    const stamp = fileStamp(file)
    let parsed: EnvData | SeedManifest
    try {
      const value = JSON.parse(readOwnText(file, STORE_MAX_BYTES)) as unknown
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object')
      parsed = value as EnvData | SeedManifest
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EFTYPE' || code === 'EISDIR' || code === 'EFBIG') {
        throw new TillError(
          `the emulator's data file ${file} cannot be read: ${fsReason(error)}`,
          ExitCode.error,
          'move it away, and the emulator seeds that environment again',
        )
      }
      if (!(error instanceof SyntaxError) && (error as Error).message !== 'not a JSON object') throw error
      // A file cut short (a full disk, a copy stopped halfway) or edited by hand: said with its name and the way out.
      throw new TillError(
        `the emulator's data file ${file} is damaged (${error instanceof SyntaxError ? `not JSON: ${error.message}` : 'not a JSON object'})`,
        ExitCode.error,
        `move it away (or delete it) and the emulator seeds that environment again, or restore it from a copy`,
      )
    }
    if (isManifest(parsed) && !this.seeding) throw new Error(`${file} holds a seed manifest and there is no generator for it`)
    this.data = isManifest(parsed) ? this.seeding!.regenerate(parsed) : (this.seeding?.complete?.(parsed) ?? parsed)
    this.indexes.clear()
    this.groups.clear()
    this.stamp = stamp
  }

  private save(): void {
    this.saveText(JSON.stringify(this.data))
  }

  private saveText(text: string): void {
    const file = this.file!
    const tmp = `${file}.${process.pid}.tmp`
    try {
      const fd = openSync(tmp, 'w', 0o600)
      try {
        writeSync(fd, text)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(tmp, file)
    } catch (error) {
      rmSync(tmp, {force: true})
      throw error
    }
    // the data first, then its revision: a reader that sees the new revision also sees the new data
    const revTmp = `${file}.rev.${process.pid}.tmp`
    writeFileSync(revTmp, randomBytes(8).toString('hex'), {mode: 0o600})
    renameSync(revTmp, `${file}.rev`)
    this.stamp = fileStamp(file)
  }

  /** Empties every log of this store, opened here or not (a new or reset environment); call under the lock. */
  private clearLogs(): void {
    if (this.file) {
      const prefix = `${basename(this.file)}.log.`
      for (const name of readdirSync(dirname(this.file))) if (name.startsWith(prefix)) truncateLog(join(dirname(this.file), name))
    }
    for (const log of this.logs.values()) log.clear()
  }

  private withLock<T>(fn: () => T): T {
    return withLockSync(`${this.file}.lock`, fn)
  }
}
