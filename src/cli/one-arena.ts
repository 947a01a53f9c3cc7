// A stream (every page of a list, an ingest, a catalog) runs for seconds to minutes with V8's threads
// allocating beside the command's own: concurrent marking, sweeping and compiling. glibc's malloc gives
// each such thread an arena of its own and keeps what each arena grew to, so the arenas' share of the
// peak grows with how long the command runs: 6 to 14 MiB streaming 200,000 orders, 15 MiB in a plan of
// 15,000 products. One arena for every thread (MALLOC_ARENA_MAX=1) keeps it at 3. glibc reads that
// setting only as a process starts: a stream command started without it starts again, once, in the same
// process (execve: same process id, same standard streams and terminal), with it, before it does anything
// else. Where that cannot be done (not Linux, not glibc, a Node without process.execve, which came in 22.15)
// or the setting is given already, the command runs on as it is.

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

/**
 * For a stream command: replaces this process with the same command under one malloc arena (never
 * returns then), or returns to run on as it is. In the command started again, clears the setting from the
 * environment its children inherit (glibc has read it already).
 */
export function restartWithOneArena(argv: readonly string[], script: string): void {
  const env = process.env
  if (env[MARK] !== undefined) {
    if (env[MARK] === '1') delete env.MALLOC_ARENA_MAX
    delete env[MARK]
    return
  }
  const execve = (process as {execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never}).execve
  const restart = oneArenaRestart(argv, env, {
    platform: process.platform,
    canExec: typeof execve === 'function',
    glibc: runsOnGlibc,
    execPath: process.execPath,
    execArgv: process.execArgv,
    script,
  })
  if (!restart) return
  try {
    execve!.call(process, restart.file, restart.args, restart.env)
  } catch {
    // not replaced (a refused exec): the command runs on as it is
  }
}
