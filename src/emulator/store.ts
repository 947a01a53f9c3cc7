// One environment's state in memory, saved to `<data>/<env>.json`.
// Writes are atomic (temp file + rename) and serialized across processes by a lock file;
// before each request the store reloads if another process changed the file.
import {closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync} from 'node:fs'
import {dirname} from 'node:path'

import {withLockSync} from '../lib/lockfile.js'
import type {CollectionName, EnvData} from './model.js'

type Row<K extends CollectionName> = EnvData[K][number]

function fileStamp(file: string): string | null {
  try {
    const s = statSync(file)
    return `${s.ino}:${s.size}:${s.mtimeMs}`
  } catch {
    return null
  }
}

export class Store {
  private indexes = new Map<CollectionName, Map<string, unknown>>()
  private stamp: string | null = null

  private constructor(
    public data: EnvData,
    readonly file: string | null,
  ) {}

  /** A store kept only in memory (tests of pure pieces). */
  static memory(data: EnvData): Store {
    return new Store(data, null)
  }

  /** Loads `file`, or creates it from `create()` when it does not exist yet. */
  static open(file: string, create: () => EnvData): Store {
    mkdirSync(dirname(file), {recursive: true, mode: 0o700})
    const store = new Store(undefined as unknown as EnvData, file)
    store.withLock(() => {
      if (fileStamp(file) === null) {
        store.data = create()
        store.save()
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
  }

  /** Runs a read-modify-write under the cross-process lock and saves the result atomically. */
  write<T>(fn: () => T): T {
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

  /** Replaces the whole state (reset), atomically. */
  replace(data: EnvData): void {
    this.write(() => {
      this.data = data
      this.indexes.clear()
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
    return row
  }

  remove<K extends CollectionName>(name: K, id: string): void {
    const rows = this.data[name] as Row<K>[]
    const at = rows.findIndex((r) => r.id === id)
    if (at >= 0) rows.splice(at, 1)
    this.index(name).delete(id)
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
    this.data = JSON.parse(readFileSync(file, 'utf8')) as EnvData
    this.indexes.clear()
    this.stamp = fileStamp(file)
  }

  private save(): void {
    const file = this.file!
    const tmp = `${file}.${process.pid}.tmp`
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeSync(fd, JSON.stringify(this.data))
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, file)
    this.stamp = fileStamp(file)
  }

  private withLock<T>(fn: () => T): T {
    return withLockSync(`${this.file}.lock`, fn)
  }
}
