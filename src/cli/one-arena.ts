// A long stream (tens of thousands of items listed, a catalog of thousands of products) runs for seconds to
// minutes with V8's threads allocating beside the command's own: concurrent marking, sweeping and compiling.
// glibc's malloc gives each such thread an arena of its own and keeps what each arena grew to, so the
// arenas' share of the peak grows with how long the command runs: 6 to 14 MiB streaming 200,000 orders,
// 15 MiB in a plan of 15,000 products. One arena for every thread (MALLOC_ARENA_MAX=1) keeps it at 3. glibc
// reads that setting only as a process starts, so such a command starts again, once, in the same process
// (execve: same process id, same standard streams and terminal), with it. bin/run.js arms the restart for a
// command that may stream (armOneArena); the command takes it (longRun) once it knows the run is long and
// before it has written anything or holds anything (a lock, a temporary file): a start costs about 50 ms,
// which a short stream would feel. Where it cannot be done (not Linux, not glibc, a Node without
// process.execve, which came in 22.15), the setting is given already, or the command runs inside another
// program (the tests' in-process runs), the command runs on as it is.
import {statSync} from 'node:fs'

/** Set for the command started again, which removes it and the arena setting from what its children inherit. */
const MARK = 'TILL_ONE_ARENA'

export interface Restart {
  file: string
  args: string[]
  env: NodeJS.ProcessEnv
}

export interface ProcessFacts {
  platform: NodeJS.Platform
  /** Whether this Node can replace its process (process.execve). */
  canExec: boolean
  /** Whether the C library is glibc, asked only when the rest allows a restart. */
  glibc: () => boolean
  execPath: string
  execArgv: readonly string[]
  /** The script run (bin/run.js). */
  script: string
}

/** The same command started again with one malloc arena, or undefined to run on as it is. Pure but for `facts.glibc`. */
export function oneArenaRestart(argv: readonly string[], env: NodeJS.ProcessEnv, facts: ProcessFacts): Restart | undefined {
  if (env[MARK] !== undefined || env.MALLOC_ARENA_MAX !== undefined) return undefined
  if (facts.platform !== 'linux' || !facts.canExec || !facts.glibc()) return undefined
  return {
    file: facts.execPath,
    args: [facts.execPath, ...facts.execArgv, facts.script, ...argv],
    env: {...env, MALLOC_ARENA_MAX: '1', [MARK]: '1'},
  }
}

/** Whether this process runs on glibc (its diagnostic report names the version; about 2 ms). */
function runsOnGlibc(): boolean {
  // (excludeNetwork: no network interfaces in the report, which take it longest to gather)
  const report = process.report as (NodeJS.ProcessReport & {excludeNetwork?: boolean}) | undefined
  if (!report) return false
  const excluded = report.excludeNetwork
  report.excludeNetwork = true
  try {
    const header = (report.getReport() as {header?: {glibcVersionRuntime?: unknown}}).header
    return typeof header?.glibcVersionRuntime === 'string'
  } catch {
    return false
  } finally {
    report.excludeNetwork = excluded
  }
}

/** Where bin/run.js leaves the armed restart: on the global object, since boot.cjs and the bundle are two copies of this module. */
const SLOT = Symbol.for('till.oneArena.restart')
const slots = globalThis as unknown as Record<symbol, ((debug?: (line: string) => void) => void) | undefined>

type Exec = (file: string, args: string[], env: NodeJS.ProcessEnv) => void
const processExec = (process as {execve?: Exec}).execve?.bind(process)

/**
 * Called by bin/run.js for a command that may stream: arms the restart (longRun takes it), made by `exec`
 * (process.execve). In the command started again, clears the setting from the environment its children
 * inherit (glibc has read it already).
 */
export function armOneArena(argv: readonly string[], script: string, exec: Exec | undefined = processExec): void {
  const env = process.env
  if (env[MARK] !== undefined) {
    if (env[MARK] === '1') delete env.MALLOC_ARENA_MAX
    delete env[MARK]
    return
  }
  // what was read from standard input would not be there for the command started again
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')
  if (stdin?.get && stdin.configurable) {
    Object.defineProperty(process, 'stdin', {
      ...stdin,
      get() {
        longRun(undefined, false)
        Object.defineProperty(process, 'stdin', stdin)
        return stdin.get!.call(process)
      },
    })
  }
  slots[SLOT] = (debug) => {
    const restart = oneArenaRestart(argv, process.env, {
      platform: process.platform,
      canExec: exec !== undefined,
      glibc: runsOnGlibc,
      execPath: process.execPath,
      execArgv: process.execArgv,
      script,
    })
    if (!restart) return
    debug?.('a long run: starting again with one malloc arena (MALLOC_ARENA_MAX=1), in the same process')
    try {
      exec!(restart.file, restart.args, restart.env)
    } catch {
      // not replaced (a refused exec): the command runs on as it is
    }
  }
}

/**
 * Whether the run is long, told once it is known: a long one starts again with one malloc arena where
 * bin/run.js armed it (never returns then). The first word is the last: a run told short, or that has
 * asked for a write or touched its standard input, never starts again. `debug` is told before a restart.
 */
export function longRun(debug: ((line: string) => void) | undefined, long = true): void {
  const restart = slots[SLOT]
  if (!restart) return
  slots[SLOT] = undefined
  if (long) restart(debug)
}

/** Items from this many on make a list long (a list of 200,000 orders peaked 8 to 15 MiB higher without the restart). */
export const LONG_LIST = 10_000

/** How a list is read: its page flags, with the page size in effect. */
type ListRead = {page?: number; limit: number; all?: boolean; 'max-items'?: number}

/** How many items a list read from its first page on will yield, by what that page says of the whole. */
export const itemsToRead = (total: number, list: ListRead): number =>
  list.all || list['max-items'] ? Math.min(Math.max(0, total - ((list.page ?? 1) - 1) * list.limit), list['max-items'] ?? Number.POSITIVE_INFINITY) : 0

/** The first page's hook of a list: a long one starts again with one malloc arena, before it writes anything. */
export const whenLongList =
  (list: ListRead, debug: (line: string) => void) =>
  ({total_count}: {total_count: number}): void => {
    longRun(debug, itemsToRead(total_count, list) >= LONG_LIST)
  }

/** Catalog files from this size on make a plan long (about 3,000 products). */
export const LONG_CATALOG_BYTES = 1024 * 1024

/** Whether `file` (a path, or - for stdin, which is never known long) is a catalog long to plan. */
export function longCatalog(file: string): boolean {
  try {
    return file !== '-' && statSync(file).size >= LONG_CATALOG_BYTES
  } catch {
    return false // (the reading reports what is wrong with it)
  }
}
