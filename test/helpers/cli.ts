// Process-level helpers for testing `till` itself: fresh config and data folders per test, running
// `bin/run.js` (plainly, through `sh -c`, or on a pseudo-terminal with `script`), an emulator with
// any flags (faults, latency), its request log, and checks that a token never reaches the output.
// Build first: `npm run build`.
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {connect, createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, expect} from 'vitest'

import {api, ROOT, sleep, startEmulator, type Emulator, type EnvHandle, type ExitStatus, type Json, type StartOptions} from './emulator.js'
import {scaled} from './machine.js'

export const BIN = join(ROOT, 'bin', 'run.js')
/** `node bin/run.js`, for shell command lines (run with cwd ROOT). */
export const TILL = `${JSON.stringify(process.execPath)} bin/run.js`

// ---- folders and environment ----

export interface Sandbox {
  root: string
  configDir: string
  dataDir: string
  /** A clean environment for `till`: no TILL_* or colour variables from outside, HOME and both folders here. */
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv
  cleanup(): void
}

// (the contract mode, TILL_CONTRACT and TILL_CONTRACT_LOG, stays: an emulator a till process embeds checks the contract too);
// no D-Bus session either: a test never reaches the keyring of the desktop it runs in (test/helpers/keyring.ts starts its own)
const OUTSIDE = /^(TILL_(?!CONTRACT)|FORCE_COLOR$|NO_COLOR$|CI$|DBUS_SESSION_BUS_ADDRESS$|XDG_RUNTIME_DIR$)/

/**
 * The compile cache of the suite's till processes (src/cli/compile-cache.ts), shared by every sandbox: with
 * the cache in each sandbox's fresh HOME, the first process of each compiled the whole bundle and wrote
 * a cache of its own (much more CPU per process). Tests of the cache
 * itself, or of oclif's cache folder, give a TILL_CACHE_DIR of their own.
 */
const SUITE_CACHE = join(tmpdir(), `till-test-cache-${process.getuid?.() ?? 'user'}`)

/** Fresh temporary TILL_CONFIG_DIR and TILL_DATA_DIR (HOME too, so nothing touches the real one). */
export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'till-cli-'))
  const configDir = join(root, 'config')
  const dataDir = join(root, 'data')
  return {
    root,
    configDir,
    dataDir,
    env(extra = {}) {
      const env: NodeJS.ProcessEnv = {}
      for (const [key, value] of Object.entries(process.env)) if (!OUTSIDE.test(key)) env[key] = value
      Object.assign(env, {HOME: root, TILL_CONFIG_DIR: configDir, TILL_DATA_DIR: dataDir, TILL_CACHE_DIR: SUITE_CACHE})
      for (const [key, value] of Object.entries(extra)) {
        if (value === undefined) delete env[key]
        else env[key] = value
      }
      return env
    },
    cleanup: () => rmSync(root, {recursive: true, force: true}),
  }
}

/** Config-less use of one emulator environment: its URL and token in TILL_API_URL / TILL_TOKEN. */
export const envVars = (handle: EnvHandle, extra: Record<string, string> = {}): Record<string, string> => ({
  TILL_API_URL: handle.url,
  TILL_TOKEN: handle.token,
  ...extra,
})

// ---- running till ----

export interface CliResult extends ExitStatus {
  stdout: string
  stderr: string
  /** Wall time in milliseconds. */
  ms: number
}

export interface RunOptions {
  env: NodeJS.ProcessEnv
  /** Written to stdin, which is then closed. Without it stdin is /dev/null, unless `openStdin`. */
  input?: string
  /** Leave stdin an open pipe that never gets data (to show a command does not wait on it). */
  openStdin?: boolean
  timeoutMs?: number
  /** The pseudo-terminal's width and height for runTty (default 200 columns, 50 rows). */
  cols?: number
  rows?: number
}

/** A running child with its output collected. */
export interface Running {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves once the process exited (killed with SIGKILL after `timeoutMs`). */
  done: Promise<CliResult>
}

function collect(child: ChildProcess, timeoutMs: number): Running {
  const started = Date.now()
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const done = new Promise<CliResult>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr, ms: Date.now() - started})
    })
  })
  return {child, stdout: () => stdout, stderr: () => stderr, done}
}

/** Starts `till <args>` and returns at once. */
export function spawnCli(args: string[], options: RunOptions): Running {
  const stdin = options.input !== undefined || options.openStdin ? 'pipe' : 'ignore'
  const child = spawn(process.execPath, [BIN, ...args], {cwd: ROOT, env: options.env, stdio: [stdin, 'pipe', 'pipe']})
  if (options.input !== undefined) child.stdin!.end(options.input)
  return collect(child, options.timeoutMs ?? scaled(25_000))
}

/** Runs `till <args>` to completion, stdout and stderr piped (not a TTY). */
export function runCli(args: string[], options: RunOptions): Promise<CliResult> {
  return spawnCli(args, options).done
}

/** Runs a shell command line (`sh -c`) from the project folder; use TILL for the CLI. */
export function runShell(command: string, options: RunOptions): Promise<CliResult> {
  const child = spawn('sh', ['-c', command], {cwd: ROOT, env: options.env, stdio: ['ignore', 'pipe', 'pipe']})
  return collect(child, options.timeoutMs ?? scaled(25_000)).done
}

/**
 * Runs a shell command line on a pseudo-terminal (`script -qfec`), 200 columns wide unless `cols` says
 * otherwise. stdout and stderr are the same terminal, so `stdout` holds both, with CRLF turned into LF.
 */
export async function runTty(command: string, options: RunOptions): Promise<CliResult> {
  const child = spawn('script', ['-qfec', `stty cols ${options.cols ?? 200} rows ${options.rows ?? 50} 2>/dev/null; ${command}`, '/dev/null'], {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const result = await collect(child, options.timeoutMs ?? scaled(25_000)).done
  return {...result, stdout: result.stdout.replaceAll('\r\n', '\n')}
}

/** A shell word for an argument. */
export const sh = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`

// ---- output ----

// eslint-disable-next-line no-control-regex
export const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')

/** Non-empty lines. */
export const linesOf = (text: string) => text.split('\n').filter((l) => l !== '')

/** The `id` of each JSON line. */
export const jsonlIds = (text: string): string[] => linesOf(text).map((l) => (JSON.parse(l) as {id: string}).id)

export const ISO_RE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/
export const RELATIVE_RE = /\b(\d+ (minute|hour|day|month|year)s? ago|in \d+ (minute|hour|day|month|year)s?|just now)\b/

/** Asserts that `text` holds neither `token`, nor its body after the prefix, nor any 12 characters of that body. */
export function expectNoToken(text: string, token: string, label = 'output'): void {
  const body = token.replace(/^(polar_[a-z]+_|whsec_)/, '')
  expect(body.length, 'a token body to look for').toBeGreaterThanOrEqual(12)
  expect(text.includes(token), `${label} contains the token`).toBe(false)
  expect(text.includes(body), `${label} contains the token's body`).toBe(false)
  for (let i = 0; i + 12 <= body.length; i++) {
    expect(text.includes(body.slice(i, i + 12)), `${label} contains part of the token: ${body.slice(i, i + 12)}`).toBe(false)
  }
}

// ---- the emulator ----

interface StartupLine {
  environments: Record<'production' | 'sandbox', {url: string; organization_id: string; organization_token: string}>
}

/**
 * `till emulator start --port 0 --json --data DIR` with any further flags (`--latency`, `--fail-rate`,
 * `--reset-rate`, `--fault-seed`, `--rate-limit`...); the request log is kept (no --quiet).
 * Prefer `startEmulator` from ./emulator.js when its options suffice.
 */
export async function startEmulatorWith(flags: string[], options: {dataDir?: string; timeoutMs?: number} = {}): Promise<Emulator> {
  const ownDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'till-cli-emulator-'))
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--json', '--data', dataDir, ...flags], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const run = collect(child, 24 * 3_600_000)
  const stop = async (): Promise<ExitStatus> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), scaled(10_000))
      await run.done
      clearTimeout(timer)
    }
    if (ownDir) rmSync(dataDir, {recursive: true, force: true})
    const {code, signal} = await run.done
    return {code, signal}
  }
  const deadline = Date.now() + (options.timeoutMs ?? scaled(25_000))
  while (!run.stdout().includes('\n')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`the emulator did not start (flags ${flags.join(' ')})\n--- stderr ---\n${run.stderr()}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const line = JSON.parse(run.stdout().split('\n')[0]!) as StartupLine
  const handle = (name: 'production' | 'sandbox'): EnvHandle => {
    const e = line.environments[name]
    return {name, url: e.url, token: e.organization_token, organizationId: e.organization_id}
  }
  return {production: handle('production'), sandbox: handle('sandbox'), dataDir, stdout: run.stdout, stderr: run.stderr, stop}
}

export interface LoggedRequest {
  env: string
  method: string
  /** Path and query, e.g. `/v1/orders/?page=1&limit=100`. */
  path: string
  /** 0 for a connection cut mid-response. */
  status: number
}

/** The emulator's request log lines (`[production] GET /v1/orders/?page=1 200 3.1ms`) in `text`. */
export function requestLog(text: string): LoggedRequest[] {
  const re = /^\[(production|sandbox)\] ([A-Z]+) (\S+) (\d+) [\d.]+ms$/gm
  return [...text.matchAll(re)].map((m) => ({env: m[1]!, method: m[2]!, path: m[3]!, status: Number(m[4])}))
}

/** Waits until an emulator's log has been quiet for `quietMs` (scaled: a busy emulator logs later). */
async function untilQuiet(emulator: Emulator, quietMs: number): Promise<number> {
  let start = emulator.stderr().length
  for (;;) {
    await sleep(scaled(quietMs))
    const now = emulator.stderr().length
    if (now === start) return now
    start = now
  }
}

/**
 * What an emulator logs from now on: call the returned function to read the new lines. Waits until the
 * log has been quiet for `quietMs` first, so lines of earlier requests that are still on their way are
 * not counted as new.
 */
export async function logFrom(emulator: Emulator, quietMs = 250): Promise<() => LoggedRequest[]> {
  const start = await untilQuiet(emulator, quietMs)
  return () => requestLog(emulator.stderr().slice(start))
}

/**
 * As logFrom, for commands run in this process (./in-process.js): the reader too waits until the log
 * has been quiet for `quietMs`, since the lines of the last requests of a command that has just
 * returned may still be on their way (a spawned till's exit gave them that time).
 */
export async function settledLogFrom(emulator: Emulator, quietMs = 250): Promise<() => Promise<LoggedRequest[]>> {
  const read = await logFrom(emulator, quietMs)
  return async () => {
    await untilQuiet(emulator, quietMs)
    return read()
  }
}

/**
 * Every id of a list endpoint, walking pages 1..max_page at limit 100 with plain requests; a page is
 * asked again (up to 20 times) when the emulator injects a 5xx or cuts the connection.
 */
export async function walkIds(env: EnvHandle, path: string): Promise<string[]> {
  const page = async (n: number): Promise<Json> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await api(env, 'GET', `${path}?limit=100&page=${n}`)
        if (res.status === 200) return res.body
        if (res.status < 500 || attempt >= 20) throw new Error(`GET ${path} page ${n}: ${res.status} ${res.text}`)
      } catch (error) {
        if (attempt >= 20) throw error
      }
    }
  }
  const first = await page(1)
  const rest = await Promise.all(Array.from({length: first.pagination.max_page - 1}, (_, i) => page(i + 2)))
  return [first, ...rest].flatMap((p: Json) => p.items.map((item: {id: string}) => item.id))
}

/** True when something accepts connections on 127.0.0.1:`port` (e.g. a developer's emulator on 4010). */
export function portAnswers(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({host: '127.0.0.1', port})
    const done = (answered: boolean) => {
      socket.destroy()
      resolve(answered)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/**
 * One emulator (in the worker) and one sandbox for a test file: started before its tests, stopped and
 * removed after them. Read its fields inside the tests, once they are set.
 */
export function emulatorAndSandbox(options: StartOptions = {}): {emulator: Emulator; box: Sandbox} {
  const shared = {} as {emulator: Emulator; box: Sandbox}
  beforeAll(async () => {
    shared.emulator = await startEmulator(options)
    shared.box = sandbox()
  })
  afterAll(async () => {
    await shared.emulator?.stop()
    shared.box?.cleanup()
  })
  return shared
}

/** Binds 127.0.0.1:`port` (0: any free one) and lets it go: the port bound, or undefined when it was taken. */
async function bindOnce(port: number): Promise<number | undefined> {
  const server = createServer()
  const bound = await new Promise<number | undefined>((resolve) => {
    server.once('error', () => resolve(undefined))
    server.listen(port, '127.0.0.1', () => resolve((server.address() as {port: number}).port))
  })
  if (bound !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()))
  return bound
}

/**
 * A loopback port nothing listens on (one that was free a moment ago); with `pair`, one whose next port is
 * free too, for `till emulator start --port N` (production on N, sandbox on N + 1: another test file's
 * emulator on N + 1 made it fail to start).
 */
export async function closedPort(options: {pair?: boolean} = {}): Promise<number> {
  for (;;) {
    const port = await bindOnce(0)
    if (port === undefined) continue
    if (!options.pair || (port < 65535 && (await bindOnce(port + 1)) !== undefined)) return port
  }
}

// ---- what till shows of an API object ----

/** Deprecated fields the API still sends beside their replacements; till leaves them out. */
const DEPRECATED: Record<string, string[]> = {
  orders: ['amount', 'from_balance_amount', 'product_price_id', 'product_price', 'user_id', 'user'],
  subscriptions: ['price_id', 'price', 'user_id', 'user'],
  checkouts: ['subtotal_amount', 'customer_external_id', 'customer_billing_address_fields', 'product_price_id', 'product_price'],
}

/** A non-legacy price without its hidden deprecated `type` and `recurring_interval`. */
const currentPrice = (p: Record<string, unknown>) => {
  if (p.legacy === true) return p
  const {type: _t, recurring_interval: _r, ...rest} = p
  return rest
}

/** The API object as till prints it: the same values, without the deprecated fields. */
export function asShown(resource: string, item: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {...item}
  for (const key of DEPRECATED[resource] ?? []) delete copy[key]
  if (Array.isArray(copy.prices) && resource !== 'checkouts') copy.prices = (copy.prices as Array<Record<string, unknown>>).map(currentPrice)
  return copy
}

// ---- answering prompts on a pseudo-terminal ----

/** A step of a terminal session: once the screen shows `when`, type `send`. */
export interface Answer {
  when: RegExp
  send: string
}

export const KEY = {enter: '\r', down: '\x1b[B', space: ' '}

/**
 * Runs a shell command line on a pseudo-terminal (`script`, 200 columns unless `size` says otherwise) and
 * types the answers as their prompts appear. `stdout` holds the whole screen (stdout and stderr), ANSI codes
 * removed, CRLF as LF; `raw` what the terminal was sent (see ./screen.ts for what it then shows).
 */
export function runAnswering(
  command: string,
  env: NodeJS.ProcessEnv,
  answers: Answer[],
  timeoutMs = scaled(20_000),
  size: {cols: number; rows: number} = {cols: 200, rows: 50},
): Promise<CliResult & {unanswered: number; raw: string}> {
  const child = spawn('script', ['-qfec', `stty cols ${size.cols} rows ${size.rows} 2>/dev/null; ${command}`, '/dev/null'], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const started = Date.now()
  let screen = ''
  let next = 0
  let typing = Promise.resolve()
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk
    while (next < answers.length && answers[next]!.when.test(stripAnsi(screen))) {
      const {send} = answers[next++]!
      // a short pause lets the prompt take the terminal before the keys arrive
      typing = typing.then(() => sleep(150)).then(() => void child.stdin.write(send))
    }
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      child.stdin.destroy()
      const stdout = stripAnsi(screen).replaceAll('\r\n', '\n')
      resolve({code, signal, stdout, stderr: '', ms: Date.now() - started, unanswered: answers.length - next, raw: screen})
    })
  })
}
