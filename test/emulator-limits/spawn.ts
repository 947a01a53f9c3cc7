// Helpers of the limits/faults/events/durability tests: spawn `till emulator start` with any flags
// (the shared helper has no option for --ip-rate-limit, --fail-rate, --forward-to, ...), kill it hard,
// make raw requests that report dropped connections, and run a local webhook receiver.
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {api, ROOT, sleep, type EnvHandle, type EnvName, type ExitStatus, type Json} from '../helpers/emulator.js'
import {eventually, scaled} from '../helpers/machine.js'

/**
 * The CLI under test: this checkout, or a copy of its build named by TILL_TEST_ROOT (so that a rebuild
 * running in parallel, which empties dist/, cannot break a run).
 */
const BIN = join(process.env.TILL_TEST_ROOT ?? ROOT, 'bin', 'run.js')

export interface Launched {
  production: EnvHandle
  sandbox: EnvHandle
  /** Present with `--forward-to`: where events go and the secret that signs them. */
  forwardTo?: {url: string; secret: string}
  dataDir: string
  pid: number
  stderr(): string
  /** SIGTERM and wait (SIGKILL after 10 s). Safe to call twice. */
  stop(): Promise<ExitStatus>
  /** SIGKILL (no chance to finish a write) and wait. */
  kill(): Promise<ExitStatus>
}

interface StartupLine {
  environments: Record<EnvName, {url: string; organization_id: string; organization_token: string}>
  forward_to?: {url: string; secret: string}
}

const running = new Set<Launched>()
const ownDirs = new Set<string>()

/** A fresh temporary data folder, removed by `cleanup()`. */
export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'till-limits-test-'))
  ownDirs.add(dir)
  return dir
}

function exited(child: ChildProcess): Promise<ExitStatus> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({code: child.exitCode, signal: child.signalCode})
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({code, signal})))
}

/**
 * `till emulator start --port 0 --json --data DIR --quiet <args>`; resolves once the JSON line is printed.
 * No rate-limit flag is added: pass `--rate-limit off` etc. yourself.
 */
export async function launch(args: string[], options: {dataDir?: string; quiet?: boolean; timeoutMs?: number} = {}): Promise<Launched> {
  const dataDir = options.dataDir ?? tempDataDir()
  const argv = [BIN, 'emulator', 'start', '--port', '0', '--json', '--data', dataDir, ...(options.quiet === false ? [] : ['--quiet']), ...args]
  const child = spawn(process.execPath, argv, {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const exit = exited(child)
  const signal = async (name: NodeJS.Signals): Promise<ExitStatus> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(name)
      const timer = setTimeout(() => child.kill('SIGKILL'), scaled(10_000))
      await exit
      clearTimeout(timer)
    }
    running.delete(handle)
    return exit
  }
  const handle = {dataDir, pid: child.pid!, stderr: () => stderr, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL')} as Launched
  running.add(handle)

  const timeoutMs = options.timeoutMs ?? 25_000
  const started = Date.now()
  while (!stdout.includes('\n')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() - started > timeoutMs) {
      await handle.kill()
      throw new Error(`emulator did not start (${argv.slice(1).join(' ')})\n--- stderr ---\n${stderr}\n--- stdout ---\n${stdout}`)
    }
    await sleep(20)
  }
  const line = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as StartupLine
  const env = (name: EnvName): EnvHandle => {
    const e = line.environments[name]
    return {name, url: e.url, token: e.organization_token, organizationId: e.organization_id}
  }
  handle.production = env('production')
  handle.sandbox = env('sandbox')
  handle.forwardTo = line.forward_to
  return handle
}

/** Runs `till <args>` to completion (killed after `timeoutMs`). */
export function runCli(args: string[], timeoutMs = scaled(60_000)): Promise<ExitStatus & {stdout: string; stderr: string}> {
  const child = spawn(process.execPath, [BIN, ...args], {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return exited(child).then((status) => {
    clearTimeout(timer)
    return {...status, stdout, stderr}
  })
}

/** Stops every emulator still running and removes the temporary folders (afterAll). */
export async function cleanup(): Promise<void> {
  await Promise.all([...running].map((e) => e.kill()))
  for (const dir of ownDirs) rmSync(dir, {recursive: true, force: true})
  ownDirs.clear()
}

/** A response, or `'reset'` when the connection broke before the whole body arrived. */
export type Outcome = number | 'reset'

/** One request whose outcome is its status, or `'reset'` for a dropped connection. */
export async function outcome(env: EnvHandle, method: string, path: string, body?: unknown): Promise<{outcome: Outcome; json: unknown}> {
  try {
    const res = await fetch(`${env.url}${path}`, {
      method,
      headers: {authorization: `Bearer ${env.token}`, ...(body === undefined ? {} : {'content-type': 'application/json'})},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return {outcome: res.status, json: text ? JSON.parse(text) : null}
  } catch {
    return {outcome: 'reset', json: null}
  }
}

/** Runs `fn` over `items` with at most `width` calls in flight; results in input order. */
export async function pool<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i]!, i)
    }
  }
  await Promise.all(Array.from({length: Math.min(width, items.length)}, worker))
  return results
}

/** `eventually` (helpers/machine.ts) with this folder's default: 10 s, scaled to the machine. */
export const waitFor = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> =>
  eventually(what, check, ms)

export {startReceiver, type Arrival, type Received, type Receiver} from '../helpers/receiver.js'

/** A public one-time product with a positive fixed price from the seed. */
export async function buyableProduct(env: EnvHandle): Promise<{id: string; price: number}> {
  const res = await api(env, 'GET', '/products/?is_archived=false&is_recurring=false&limit=100')
  if (res.status !== 200) throw new Error(`GET /products/: ${res.status} ${res.text}`)
  for (const p of res.body.items as Json[]) {
    const price = p.visibility === 'public' && p.prices.find((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0 && !x.is_archived)
    if (price) return {id: p.id, price: price.price_amount}
  }
  throw new Error('no public one-time product with a paid fixed price in the seed')
}

/** POST /checkouts/ and confirm it anonymously: a pending order exists afterwards. Returns the checkout id. */
export async function buy(env: EnvHandle, productId: string, email: string): Promise<string> {
  const checkout = await api(env, 'POST', '/checkouts/', {body: {products: [productId]}})
  if (checkout.status !== 201) throw new Error(`POST /checkouts/: ${checkout.status} ${checkout.text}`)
  const confirm = await api(env, 'POST', `/checkouts/client/${checkout.body.client_secret}/confirm`, {
    token: null,
    body: {
      customer_email: email,
      customer_name: 'Event Buyer',
      customer_billing_address: {country: 'US', line1: '1 Main St', city: 'San Francisco', postal_code: '94105', state: 'US-CA'},
    },
  })
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${confirm.text}`)
  return checkout.body.id
}
