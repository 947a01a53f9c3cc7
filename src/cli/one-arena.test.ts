import {afterEach, describe, expect, it} from 'vitest'

import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {armOneArena, itemsToRead, LONG_CATALOG_BYTES, longCatalog, longRun, oneArenaRestart, type ProcessFacts} from './one-arena.js'

const facts = (over: Partial<ProcessFacts> = {}): ProcessFacts => ({
  platform: 'linux',
  canExec: true,
  glibc: () => true,
  execPath: '/opt/node/bin/node',
  execArgv: ['--require', '/tmp/hook.cjs'],
  script: '/app/bin/run.js',
  ...over,
})

describe('oneArenaRestart', () => {
  it('starts the same command again, with the same Node flags, under one malloc arena', () => {
    const restart = oneArenaRestart(['orders', 'list', '--all'], {PATH: '/bin', TILL_PROFILE: 'work'}, facts())
    expect(restart).toEqual({
      file: '/opt/node/bin/node',
      args: ['/opt/node/bin/node', '--require', '/tmp/hook.cjs', '/app/bin/run.js', 'orders', 'list', '--all'],
      env: {PATH: '/bin', TILL_PROFILE: 'work', MALLOC_ARENA_MAX: '1', TILL_ONE_ARENA: '1'},
    })
  })

  it('runs on as it is where the arena setting is given already, or in the command started again', () => {
    expect(oneArenaRestart(['orders', 'list', '--all'], {MALLOC_ARENA_MAX: '4'}, facts())).toBeUndefined()
    expect(oneArenaRestart(['orders', 'list', '--all'], {TILL_ONE_ARENA: '1'}, facts())).toBeUndefined()
  })

  it('runs on as it is off Linux, without glibc or without process.execve, and asks for glibc only on Linux', () => {
    let asked = 0
    const glibc = () => {
      asked++
      return true
    }
    expect(oneArenaRestart(['catalog', 'plan', 'c.yaml'], {}, facts({platform: 'darwin', glibc}))).toBeUndefined()
    expect(oneArenaRestart(['catalog', 'plan', 'c.yaml'], {}, facts({canExec: false, glibc}))).toBeUndefined()
    expect(asked).toBe(0)
    expect(oneArenaRestart(['catalog', 'plan', 'c.yaml'], {}, facts({glibc: () => false}))).toBeUndefined()
  })
})

describe('what makes a run long', () => {
  it('a list: the items it will read from its first page on, every page or up to --max-items', () => {
    expect(itemsToRead(200_000, {limit: 100, all: true})).toBe(200_000)
    expect(itemsToRead(200_000, {limit: 100, all: true, page: 1991})).toBe(1_000)
    expect(itemsToRead(200_000, {limit: 100, 'max-items': 25_000})).toBe(25_000)
    expect(itemsToRead(200_000, {limit: 100, page: 3000, all: true})).toBe(0)
    // one page: never long, however long the list
    expect(itemsToRead(200_000, {limit: 100})).toBe(0)
  })

  it('a catalog: a file of a megabyte or more; stdin or a file that cannot be read, never', () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-arena-'))
    try {
      writeFileSync(join(dir, 'big.yaml'), 'x'.repeat(LONG_CATALOG_BYTES))
      writeFileSync(join(dir, 'small.yaml'), 'x'.repeat(LONG_CATALOG_BYTES - 1))
      expect(longCatalog(join(dir, 'big.yaml'))).toBe(true)
      expect(longCatalog(join(dir, 'small.yaml'))).toBe(false)
      expect(longCatalog(join(dir, 'none.yaml'))).toBe(false)
      expect(longCatalog('-')).toBe(false)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

// armed with an exec that records what it was asked (the real one would replace the test's process)
describe.skipIf(process.platform !== 'linux' || typeof (process as {execve?: unknown}).execve !== 'function')('the armed restart', () => {
  // nothing left armed for the worker's next files: the slot emptied, standard input Node's own again
  afterEach(() => {
    longRun(undefined, false)
    expect(process.stdin).toBeDefined()
  })

  const armed = () => {
    const calls: string[][] = []
    armOneArena(['orders', 'list', '--all'], '/app/bin/run.js', (file, args, env) => calls.push([file, ...args, `MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX}`]))
    return calls
  }

  it('is taken by a run told long, once, after a line for --debug', () => {
    const calls = armed()
    const lines: string[] = []
    longRun((line) => lines.push(line), true)
    longRun((line) => lines.push(line), true)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.slice(-5)).toEqual(['/app/bin/run.js', 'orders', 'list', '--all', 'MALLOC_ARENA_MAX=1'])
    expect(lines).toEqual(['a long run: starting again with one malloc arena (MALLOC_ARENA_MAX=1), in the same process'])
  })

  it('is never taken after the run was told short, or touched its standard input', () => {
    const short = armed()
    longRun(undefined, false)
    longRun(undefined, true)
    expect(short).toEqual([])

    const read = armed()
    expect(process.stdin).toBeDefined()
    longRun(undefined, true)
    expect(read).toEqual([])
    // the standard input is Node's own again
    expect(Object.getOwnPropertyDescriptor(process, 'stdin')?.get?.name).not.toBe('get')
  })
})
