// Test helpers: start the built emulator on free ports of 127.0.0.1 and talk to it over real HTTP. It runs
// inside the test worker by default (the built `dist/emulator`, as `till emulator start` runs it): the
// worker keeps the contract mode's compiled document from one file's emulator to the next, where a process
// of its own would read and compile it again (about a second of CPU each). `{process: true}` spawns
// `bin/run.js emulator start` instead, stopped with SIGTERM, for what only a process shows.
// Build first: `npm run build`.
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {request} from 'node:http'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {scaled} from './machine.js'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const BIN = join(ROOT, 'bin', 'run.js')

export type EnvName = 'production' | 'sandbox'

export interface EnvHandle {
  name: EnvName
  /** Base address, ending in `/v1`. */
  url: string
  /** The environment's organization access token (`polar_oat_...`). */
  token: string
  organizationId: string
}

export interface StartOptions {
  /** Reuse a data folder (kept on stop); a fresh temporary one is made and removed otherwise. */
  dataDir?: string
  paymentDelay?: string
  invoiceDelay?: string
  sessionTtl?: string
  orders?: number
  customers?: number
  products?: number
  /**
   * `--rate-limit`: the per-minute limit, `off` by default here so that a test file's request count
   * does not matter (the per-IP limit of 100/s stays on; `api` waits out its 429s).
   */
  rateLimit?: string
  /** `--quiet` (no request log on stderr); default true. */
  quiet?: boolean
  /** How long to wait for the JSON line. */
  timeoutMs?: number
  /** Run `till emulator start` as a process of its own rather than inside the test worker. */
  process?: boolean
  /** Faults (in the worker only): `--fail-rate` (5xx before any change), `--reset-rate` (cut after it), `--fault-seed`. */
  failRate?: number
  resetRate?: number
  faultSeed?: number
  /** `--latency` (in the worker only): a delay added to every answer, e.g. `150ms`. */
  latency?: string
  /** In the worker only: the wall clock stands still at this time (ms), so that two emulators' times are the same. */
  now?: number
  /** `--api-versions`: the API versions served (every one the service knows by default). */
  apiVersions?: string[]
  /** `--webhook-faults` and `--webhook-fault-seed`, e.g. `duplicate=1`; `--webhook-backoff`, e.g. `50ms`. */
  webhookFaults?: string
  webhookFaultSeed?: number
  webhookBackoff?: string
  /** `--allow-remote-webhooks`: deliver to endpoints off loopback too. */
  allowRemoteWebhooks?: boolean
}

export interface ExitStatus {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface Emulator {
  production: EnvHandle
  sandbox: EnvHandle
  dataDir: string
  /** Everything the emulator wrote to stdout / stderr so far (in the worker: its request log is stderr). */
  stdout(): string
  stderr(): string
  /** Stops it (a process: SIGTERM, then waits for the exit, SIGKILL after 10 s). Safe to call twice. */
  stop(): Promise<ExitStatus>
  /** The process's id (an emulator run as a process of its own), to signal it. */
  pid?: number
}

interface StartupLine {
  environments: Record<EnvName, {url: string; organization_id: string; organization_token: string}>
}

function startArgs(dataDir: string, o: StartOptions): string[] {
  const args = ['emulator', 'start', '--port', '0', '--json', '--data', dataDir, '--rate-limit', o.rateLimit ?? 'off']
  if (o.quiet ?? true) args.push('--quiet')
  if (o.allowRemoteWebhooks) args.push('--allow-remote-webhooks')
  const flags: Array<[string, string | number | undefined]> = [
    ['--payment-delay', o.paymentDelay],
    ['--invoice-delay', o.invoiceDelay],
    ['--session-ttl', o.sessionTtl],
    ['--orders', o.orders],
    ['--customers', o.customers],
    ['--products', o.products],
    ['--api-versions', o.apiVersions?.join(',')],
    ['--webhook-faults', o.webhookFaults],
    ['--webhook-fault-seed', o.webhookFaultSeed],
    ['--webhook-backoff', o.webhookBackoff],
  ]
  for (const [flag, value] of flags) if (value !== undefined) args.push(flag, String(value))
  return args
}

function exited(child: ChildProcess): Promise<ExitStatus> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({code: child.exitCode, signal: child.signalCode})
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({code, signal})))
}

/** Spawns `till emulator start --port 0 --json` and resolves once it printed its JSON line. */
export async function startEmulator(options: StartOptions = {}): Promise<Emulator> {
  return options.process ? startProcess(options) : startInWorker(options)
}

type Built = typeof import('../../src/emulator/index.js')
let built: Promise<[Built, typeof import('../../src/emulator/core/limits.js'), typeof import('../../src/client/duration.js')]> | undefined
const load = (path: string) => import(pathToFileURL(join(ROOT, 'dist', path)).href)

/** The emulator inside the test worker, with the options `till emulator start` would give it. */
async function startInWorker(options: StartOptions): Promise<Emulator> {
  built ??= Promise.all([load('emulator/index.js'), load('emulator/core/limits.js'), load('client/duration.js')])
  const [emulator, limits, duration] = await built
  // Without a data folder of the test's, the stores are kept in memory only (as `startEmulator` does for a
  // null folder): each write would otherwise serialize the whole store and fsync it, a sixth of a worker's
  // CPU time. Durability has its own tests, with emulators that run as processes on a folder.
  const dataDir = options.dataDir ?? null
  let stderr = ''
  const ms = (value: string | undefined) => (value === undefined ? undefined : duration.parseDuration(value))
  const running = await emulator.startEmulator({
    port: 0,
    dataDir,
    paymentDelayMs: ms(options.paymentDelay),
    invoiceDelayMs: ms(options.invoiceDelay),
    sessionTtlMs: ms(options.sessionTtl),
    seed: {
      ...(options.orders === undefined ? {} : {orders: options.orders}),
      ...(options.customers === undefined ? {} : {customers: options.customers}),
      ...(options.products === undefined ? {} : {products: options.products}),
    },
    rateLimit: limits.parseRateLimit(options.rateLimit ?? 'off'),
    failRate: options.failRate,
    resetRate: options.resetRate,
    faultSeed: options.faultSeed,
    latencyMs: ms(options.latency),
    apiVersions: options.apiVersions,
    webhookFaults: options.webhookFaults === undefined ? undefined : emulator.parseWebhookFaults(options.webhookFaults),
    webhookFaultSeed: options.webhookFaultSeed,
    webhookBackoffMs: ms(options.webhookBackoff),
    allowRemoteWebhooks: options.allowRemoteWebhooks,
    ...(options.now === undefined ? {} : {now: () => options.now!}),
    log: (options.quiet ?? true) ? () => {} : (line) => (stderr += `${line}\n`),
  })
  const handle = (name: EnvName): EnvHandle => {
    const e = running.environments[name]
    return {name, url: e.url, token: e.organization_token, organizationId: e.organization_id}
  }
  let stopped: Promise<ExitStatus> | undefined
  return {
    production: handle('production'),
    sandbox: handle('sandbox'),
    dataDir: dataDir ?? '',
    stdout: () => '',
    stderr: () => stderr,
    stop: () => (stopped ??= running.close().then(() => ({code: 0, signal: null}))),
  }
}

/** `till emulator start` as a process of its own. */
async function startProcess(options: StartOptions): Promise<Emulator> {
  const ownDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'till-emulator-test-'))
  const child = spawn(process.execPath, [BIN, ...startArgs(dataDir, options)], {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exit = exited(child)

  const cleanup = () => {
    if (ownDir) rmSync(dataDir, {recursive: true, force: true})
  }
  const stop = async (): Promise<ExitStatus> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), scaled(10_000))
      const status = await exit
      clearTimeout(timer)
      cleanup()
      return status
    }
    cleanup()
    return exit
  }

  const line = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? scaled(25_000)
    const timer = setTimeout(() => fail(new Error(`emulator did not print its JSON line within ${timeoutMs} ms`)), timeoutMs)
    const onData = () => {
      const end = stdout.indexOf('\n')
      if (end >= 0) done(() => resolve(stdout.slice(0, end)))
    }
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`emulator exited (code ${code}, signal ${signal}) before printing its JSON line`))
    function done(then: () => void) {
      clearTimeout(timer)
      child.stdout!.off('data', onData)
      child.off('exit', onExit)
      then()
    }
    function fail(error: Error) {
      done(() => {
        void stop()
        reject(new Error(`${error.message}\n--- stderr ---\n${stderr}\n--- stdout ---\n${stdout}`))
      })
    }
    child.stdout!.on('data', onData)
    child.once('exit', onExit)
  })

  const parsed = JSON.parse(line) as StartupLine
  const handle = (name: EnvName): EnvHandle => {
    const e = parsed.environments[name]
    return {name, url: e.url, token: e.organization_token, organizationId: e.organization_id}
  }
  return {
    production: handle('production'),
    sandbox: handle('sandbox'),
    dataDir,
    stdout: () => stdout,
    stderr: () => stderr,
    stop,
    pid: child.pid,
  }
}

/** Runs `till <args>` to completion (e.g. `emulator reset`). */
export function runTill(args: string[], timeoutMs = scaled(25_000)): Promise<ExitStatus & {stdout: string; stderr: string}> {
  const child = spawn(process.execPath, [BIN, ...args], {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return exited(child).then((status) => {
    clearTimeout(timer)
    return {...status, stdout, stderr}
  })
}

// Response bodies are whatever JSON the API returned; tests inspect them field by field.
// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field by the tests
export type Json = any

export interface ApiResponse {
  status: number
  headers: Headers
  /** Parsed JSON, or null when the body is empty or not JSON. */
  body: Json
  text: string
}

export interface ApiOptions {
  /** Bearer token; the environment's organization token when omitted, no Authorization header when null. */
  token?: string | null
  /** Sent as JSON (`null` included). */
  body?: unknown
  /** Sent as is, with `content-type: application/json`. */
  rawBody?: string
  headers?: Record<string, string>
  /** Return a 429 as is instead of waiting out a short `Retry-After` (up to 5 s) and retrying. */
  noRetry?: boolean
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])

/** One request to `env` (`path` relative to `/v1`, or an absolute URL), with the global fetch. */
/** A call to the emulator's control routes (`/_emulator/<path>`, beside the API's `/v1`), with the environment's token. */
export function control(env: EnvHandle, method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse> {
  return api(env, method, `${new URL(env.url).origin}/_emulator/${path.replace(/^\//, '')}`, options)
}

export async function api(env: EnvHandle, method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse> {
  const url = /^https?:\/\//.test(path) ? path : `${env.url}${path}`
  const headers: Record<string, string> = {...options.headers}
  const token = options.token === undefined ? env.token : options.token
  if (token !== null) headers.authorization = `Bearer ${token}`
  let body: string | undefined
  if ('body' in options) body = JSON.stringify(options.body)
  else if (options.rawBody !== undefined) body = options.rawBody
  else if (BODY_METHODS.has(method)) body = '' // fetch sends no Content-Length for a body-less PATCH
  if (body !== undefined && body !== '') headers['content-type'] ??= 'application/json'
  let res = await fetch(url, {method, headers, body, redirect: 'manual'})
  // The per-IP limit (100 requests/s) is always on; a well-behaved client waits as told.
  for (let attempt = 0; res.status === 429 && !options.noRetry && attempt < 3; attempt++) {
    const wait = Number(res.headers.get('retry-after'))
    if (!(wait > 0 && wait <= 5)) break
    await res.arrayBuffer()
    await sleep(wait * 1000)
    res = await fetch(url, {method, headers, body, redirect: 'manual'})
  }
  const text = await res.text()
  let parsed: Json = null
  try {
    parsed = text === '' ? null : JSON.parse(text)
  } catch {
    parsed = null
  }
  return {status: res.status, headers: res.headers, body: parsed, text}
}

/** A POST whose body is sent with `Transfer-Encoding: chunked` (so without Content-Length), via node:http. */
export function chunkedPost(env: EnvHandle, path: string, chunks: string[]): Promise<{status: number; headers: Record<string, unknown>; body: Json}> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${env.url}${path}`,
      {method: 'POST', headers: {authorization: `Bearer ${env.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked'}},
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (c: string) => (text += c))
        res.on('end', () => resolve({status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null}))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

/** Every item of a list endpoint: pages 1..max_page at limit 100. `query` without `?`. */
export async function listAll(env: EnvHandle, path: string, query = '', token?: string): Promise<Json[]> {
  const items: Json[] = []
  for (let page = 1; ; page++) {
    const res = await api(env, 'GET', `${path}?${query ? `${query}&` : ''}limit=100&page=${page}`, {token})
    if (res.status !== 200) throw new Error(`GET ${path} page ${page}: ${res.status} ${res.text}`)
    items.push(...res.body.items)
    if (page >= res.body.pagination.max_page) return items
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A well-formed UUID v4 that no seeded or created object has. */
export const unknownId = () => crypto.randomUUID()
