// The append-only log's groups of a store write: held back until the store records the write, dropped for
// good when its writer died before its save, and never mixed with the next write's group of the same version.
import {appendFileSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {AppendLog, type LogCommit} from './append-log.js'

interface Row {
  id: string
}

class Rows {
  readonly ids: string[] = []
  add(row: Row): void {
    this.ids.push(row.id)
  }
}

describe('the append log of a store write', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  })

  /** A log file and a store's view of it: the version a write saves, the version the store records. */
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-append-log-'))
    dirs.push(dir)
    const file = join(dir, 'env.json.log.rows')
    const open = (store: {writing?: number; committed: number}) => {
      const commit: LogCommit = {tag: () => store.writing, committed: () => store.committed}
      return new AppendLog<Row, Rows>(file, () => new Rows(), commit)
    }
    return {file, open}
  }

  it("holds a write's rows back until the store records its version, and keeps rows outside writes at once", () => {
    const {open} = setup()
    const writer = {writing: 3 as number | undefined, committed: 2}
    const reader = {committed: 2}
    const w = open(writer)
    const r = open(reader)
    w.append([{id: 'a'}, {id: 'b'}])
    r.refresh()
    expect(r.index.ids).toEqual([])
    reader.committed = 3
    r.refresh()
    expect(r.index.ids).toEqual(['a', 'b'])
    writer.writing = undefined
    w.append([{id: 'c'}])
    r.refresh()
    expect(r.index.ids).toEqual(['a', 'b', 'c'])
  })

  it('drops for good the rows of a write whose process died before its save, and a line it left cut short', () => {
    const {file, open} = setup()
    const dead = open({writing: 5, committed: 4})
    dead.append([{id: 'lost-1'}, {id: 'lost-2'}])
    appendFileSync(file, '{"$w":5,"id":"lost-')
    // the next writer (under the lock) saves version 5 itself, and a reader sees the store at 5 afterwards
    const store = {writing: 5 as number | undefined, committed: 4}
    const next = open(store)
    next.refresh()
    expect(next.index.ids).toEqual([])
    next.append([{id: 'kept'}])
    const reader = open({committed: 5})
    reader.refresh()
    expect(reader.index.ids).toEqual(['kept'])
    expect(next.index.ids).toEqual(['kept'])
  })
})
