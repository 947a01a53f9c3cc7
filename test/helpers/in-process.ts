// Runs a till command line inside the test worker, as `runCli` runs it in a process of its own, and
// gives the same result (exit code, stdout, stderr), about a hundred times faster: no Node start-up,
// no loading of the bundle on every command.
//
// The built bundle (dist/bundle/cli/till.cjs) is loaded once per worker with Node's own require (the
// command stubs oclif loads require it too, and get the same module). For each run, one at a time in a
// worker (a queue), the process-wide things till reads are swapped for the run's own and put back
// after: process.env (its variables, in place: see setEnv), process.argv, the working folder,
// process.stdout / process.stderr (streams that collect the text and are not terminals, as pipes),
// console (oclif writes its messages and help through it), process.stdin (the input, or nothing as
// /dev/null), process.exit (which ends the run with its code, and nothing written after it counts, as
// in a process that has gone) and process.exitCode; SIGINT and SIGTERM handlers a run adds are removed.
//
// What stays process-level (runCli, runShell, runTty, runAnswering in ./cli.js): signals, terminals,
// shell pipelines, concurrency between processes, start-up, and commands that run until stopped.
// Module state of till that outlives a run is benign for these tests: caches of immutable things
// (ICU formatters, the table module, scope matchers), oclif's singleton cache (set again on each run),
// and the temp-file exit hook; each run builds its own oclif config, context, profile and HTTP agent.
// Build first: `npm run build`.
import {Console} from 'node:console'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {Readable, Writable} from 'node:stream'
import {pathToFileURL} from 'node:url'

import {envVars, type CliResult, type Sandbox} from './cli.js'
import {ROOT, type EnvHandle} from './emulator.js'

export interface InProcessOptions {
  env: NodeJS.ProcessEnv
  /** Written to stdin, which then ends. Without it stdin is empty (as /dev/null), unless `openStdin`. */
  input?: string
  /** Leave stdin open, never getting data. */
  openStdin?: boolean
  /** The working folder during the run (ROOT by default, as for runCli). */
  cwd?: string
  /** Accepted for runCli's options, and ignored: a run in the worker cannot be killed (the test's timeout applies). */
  timeoutMs?: number
}

interface Bundle {
  main(argv: string[], root: string): Promise<void>
}

const BUNDLE = join(ROOT, 'dist', 'bundle', 'cli', 'till.cjs')
const ENTRY_URL = pathToFileURL(join(ROOT, 'bin', 'run.js')).href
const SIGNALS = ['SIGINT', 'SIGTERM'] as const

let bundle: Bundle | undefined
let queue: Promise<unknown> = Promise.resolve()

/** What process.exit throws during a run, to stop the code that called it. */
class Exited extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code}) in an in-process till run`)
  }
}

/** A stream that collects what is written to it (until `closed`), not a terminal. */
class Capture extends Writable {
  text = ''
  /** Set once the run is over (or called process.exit): later writes are dropped. */
  gone = false
  readonly isTTY = false
  constructor() {
    super({highWaterMark: 1 << 30})
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.gone) this.text += chunk.toString('utf8')
    callback()
  }
}

function stdinFor(options: InProcessOptions): Readable {
  const stdin = new Readable({read() {}})
  if (options.input !== undefined) stdin.push(Buffer.from(options.input))
  if (!options.openStdin) stdin.push(null)
  return stdin
}

/**
 * Makes process.env hold exactly `env`'s variables, changing the process's own environment rather than
 * assigning process.env another object: from Node 26 on, a child started without an `env` option gets the
 * process's own environment, not whatever object process.env is, so a run's helper processes (the keyring's,
 * a pager, a trigger's command) got the worker's variables instead of the run's.
 */
function setEnv(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (env[key] === undefined) delete process.env[key]
  for (const [key, value] of Object.entries(env)) if (value !== undefined && process.env[key] !== value) process.env[key] = value
}

/** Runs `till <args>` in this worker; resolves once the command is done (or called process.exit). */
export function runInProcess(args: string[], options: InProcessOptions): Promise<CliResult> {
  const run = queue.then(() => runNow(args, options))
  queue = run.catch(() => undefined)
  return run
}

async function runNow(args: string[], options: InProcessOptions): Promise<CliResult> {
  bundle ??= createRequire(import.meta.url)(BUNDLE) as Bundle
  const started = Date.now()
  const stdout = new Capture()
  const stderr = new Capture()
  const stdin = stdinFor(options)

  const saved = {
    env: {...process.env},
    argv: process.argv,
    cwd: process.cwd(),
    exit: process.exit,
    exitCode: process.exitCode,
    console: globalThis.console,
    stdout: Object.getOwnPropertyDescriptor(process, 'stdout')!,
    stderr: Object.getOwnPropertyDescriptor(process, 'stderr')!,
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!,
    listeners: Object.fromEntries(SIGNALS.map((s) => [s, process.listeners(s)])),
  }
  let exited: {code: number} | undefined
  let onExit!: () => void
  const exitCalled = new Promise<void>((resolve) => (onExit = resolve))

  const env: NodeJS.ProcessEnv = {...options.env}
  // as bin/run.js does
  env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  setEnv(env)
  process.argv = [process.execPath, join(ROOT, 'bin', 'run.js'), ...args]
  process.chdir(options.cwd ?? ROOT)
  process.exitCode = undefined
  process.exit = ((code?: number | string | null) => {
    if (!exited) {
      exited = {code: code === undefined || code === null ? Number(process.exitCode) || 0 : Number(code)}
      stdout.gone = true
      stderr.gone = true
      onExit()
    }
    throw new Exited(exited.code)
  }) as typeof process.exit
  Object.defineProperty(process, 'stdout', {value: stdout, configurable: true, enumerable: true, writable: true})
  Object.defineProperty(process, 'stderr', {value: stderr, configurable: true, enumerable: true, writable: true})
  Object.defineProperty(process, 'stdin', {value: stdin, configurable: true, enumerable: true, writable: true})
  globalThis.console = new Console({stdout, stderr, colorMode: false})

  let code: number
  try {
    const finished = bundle.main(args, ENTRY_URL).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof Exited)) throw error
      },
    )
    // once process.exit was called, whatever the abandoned code still does is not the run's
    finished.catch(() => undefined)
    await Promise.race([finished, exitCalled])
    code = exited ? exited.code : Number(process.exitCode) || 0
  } finally {
    stdout.gone = true
    stderr.gone = true
    stdin.destroy()
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) {
        if (!saved.listeners[signal]!.includes(listener)) process.removeListener(signal, listener as () => void)
      }
    }
    globalThis.console = saved.console
    Object.defineProperty(process, 'stdin', saved.stdin)
    Object.defineProperty(process, 'stderr', saved.stderr)
    Object.defineProperty(process, 'stdout', saved.stdout)
    process.exit = saved.exit
    process.exitCode = saved.exitCode
    process.chdir(saved.cwd)
    process.argv = saved.argv
    setEnv(saved.env)
  }
  return {code, signal: null, stdout: stdout.text, stderr: stderr.text, ms: Date.now() - started}
}

/**
 * till run in the test process (as runInProcess runs it) in the sandbox `box()` against `env()`, with `extra`
 * variables, keeping every output in `outputs`, for a file's final check that none shows the token.
 */
export function recordingTill(
  box: () => Sandbox,
  env: () => EnvHandle,
): {till: (args: string[], extra?: Record<string, string | undefined>, input?: string) => Promise<CliResult>; outputs: string[]} {
  const outputs: string[] = []
  const till = async (args: string[], extra: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> => {
    const r = await runInProcess(args, {env: box().env({...envVars(env()), ...extra}), input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  return {till, outputs}
}
