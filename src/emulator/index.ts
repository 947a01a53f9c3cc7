// The local emulator of the service: production and sandbox side by side on loopback,
// each with its own store, organization and token: a token of one is unknown to the other.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {MiB, readOwnText} from '../client/own-file.js'
import {redact} from '../client/redact.js'
import {DEFAULT_VERSION, handle, Router, SERVED_VERSIONS} from './core/http.js'
import type {EmulatorOptions, Env, EventListener, Guards} from './core/http.js'
import {newWebhookSecret} from './core/events.js'
import {seededRandom} from './core/ids.js'
import {RequestLog} from './core/request-log.js'
import {requestUrl} from './core/request-target.js'
import {RateLimiter, type Rule} from './core/limits.js'
import type {EnvData, EnvName, SeedOptions} from './core/model.js'
import type {View} from './core/present.js'
import {keepSeededState, seededState} from './core/seed-cache.js'
import {Store, type SeedManifest} from './core/store.js'
import {completeData, register, settle} from './resources/index.js'
import {LOGS_PATH} from './resources/control/logs.js'
import {CONTROL_PREFIX} from './resources/control/routes.js'
import {environmentNow} from './resources/clock/time.js'
import {WebhookDispatcher} from './resources/webhooks/delivery.js'
import type {WebhookFaults} from './resources/webhooks/faults.js'
import {createEnvData} from './seed.js'

export type {EmulatorOptions, Env} from './core/http.js'
/** For `till emulator start`, which reaches the emulator only through this module (scripts/bundle.js). */
export {parseRateLimit} from './core/limits.js'
export {parseWebhookFaults} from './resources/webhooks/faults.js'

export const ENVIRONMENTS: readonly EnvName[] = ['production', 'sandbox']
export const DEFAULT_PORT = 4010
export const DEFAULT_SEED: SeedOptions = {products: 12, customers: 25, orders: 60}

export interface StartOptions extends Partial<EmulatorOptions> {
  /** Production listens here and sandbox on port + 1; 0 picks free ports. */
  port?: number
  host?: string
  /** Folder of the stores; null keeps everything in memory. */
  dataDir: string | null
  /**
   * Serve production alone (a command's own emulator, which the `local` profile reaches there): the
   * sandbox's store is neither opened nor seeded, and its port not bound. Both by default.
   */
  productionOnly?: boolean
  seed?: Partial<SeedOptions>
  listeners?: EventListener[]
  /** Replaces the per-minute limit of both environments (500/min production, 100/min sandbox); null turns it off. */
  rateLimit?: Rule | null
  /** Replaces the per-IP limit (100/s); null turns it off. */
  ipRateLimit?: Rule | null
  latencyMs?: number
  failRate?: number
  resetRate?: number
  /** Seed of the fault generator: the same seed gives the same faults for the same requests. */
  faultSeed?: number
  /** First webhook retry delay (default 2 s). */
  webhookBackoffMs?: number
  /** Delivery faults of every endpoint without its own (resources/webhooks/faults.ts); none by default. */
  webhookFaults?: WebhookFaults
  /** Seed of the webhook faults' generator: the same seed and events give the same faults. */
  webhookFaultSeed?: number
  /** Post every event, signed, to this URL too. */
  forwardTo?: string
  /** Deliver to endpoints on other hosts (by default only loopback URLs are sent to; others are recorded not sent). */
  allowRemoteWebhooks?: boolean
  /**
   * The contract mode: the service's OpenAPI document (a file) checks every API request and answer;
   * violations go to the log and to the file `contractLog` (default: TILL_CONTRACT and TILL_CONTRACT_LOG).
   */
  contract?: string
  contractLog?: string
  /**
   * The API versions served, e.g. without 2026-04 to rehearse its removal; every version the service knows
   * by default. The default version (2026-10) is always among them.
   */
  apiVersions?: readonly string[]
}

/** The versions served: the ones asked, each one the service knows, its default among them. */
function servedVersions(asked: readonly string[] | undefined): ReadonlySet<string> {
  if (!asked) return SERVED_VERSIONS
  const unknown = asked.filter((v) => !SERVED_VERSIONS.has(v))
  const known = [...SERVED_VERSIONS].join(', ')
  if (unknown.length > 0) throw new Error(`unknown API version ${unknown.join(', ')}: the service knows ${known}`)
  // as the service's middleware refuses a default it does not serve (server/polar/kit/versioning.py)
  if (!asked.includes(DEFAULT_VERSION)) throw new Error(`the default API version ${DEFAULT_VERSION} must be served`)
  return new Set(asked)
}

export interface EnvironmentInfo {
  url: string
  organization_id: string
  organization_token: string
}

export const LIMITS = {
  production: {limit: 500, windowMs: 60_000},
  sandbox: {limit: 100, windowMs: 60_000},
  perIp: {limit: 100, windowMs: 1000},
  licenseKeys: {limit: 3, windowMs: 1000, blockMs: 60_000},
} as const satisfies Record<string, Rule>

/** A running emulator of the environments `E` (production alone with `productionOnly`). */
export interface RunningEmulator<E extends EnvName = EnvName> {
  /** Each environment served. */
  environments: Record<E, EnvironmentInfo>
  /** The secret that signs events posted to `forwardTo`. */
  forwardSecret?: string
  envs: Record<E, Env>
  close(): Promise<void>
}

export const storeFile = (dataDir: string, env: EnvName) => join(dataDir, `${env}.json`)

/** A store of `env`: the file in `dataDir` (seeded when new), or memory only when `dataDir` is null. */
export function openStore(dataDir: string | null, env: EnvName, seed: SeedOptions, now: number): Store {
  if (dataDir === null) return Store.memory(createEnvData(env, seed, now))
  const file = storeFile(dataDir, env)
  return Store.open(file, {
    create: () => {
      const data = createEnvData(env, seed, now)
      const manifest = manifestOf(data, now)
      keepSeededState(file, manifest, data)
      return {data, manifest}
    },
    regenerate: (manifest) => seededState(file, manifest, () => fromManifest(env, manifest)),
    complete: completeData,
  })
}

/** The seed manifest of freshly seeded `data`: its sizes, creation time and organization token. */
function manifestOf(data: EnvData, createdAt: number): SeedManifest {
  return {schema: 1, kind: 'seed', environment: data.environment, seed: data.seed, created_at: createdAt, organization_token: data.tokens[0]!.token}
}

function fromManifest(env: EnvName, manifest: SeedManifest): EnvData {
  return createEnvData(env, manifest.seed as SeedOptions, manifest.created_at as number, manifest.organization_token as string)
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

export async function startEmulator(options: StartOptions & {productionOnly: true}): Promise<RunningEmulator<'production'>>
export async function startEmulator(options: StartOptions): Promise<RunningEmulator>
export async function startEmulator(options: StartOptions): Promise<RunningEmulator<'production'> | RunningEmulator> {
  const opts: EmulatorOptions = {
    paymentDelayMs: options.paymentDelayMs ?? 2000,
    invoiceDelayMs: options.invoiceDelayMs ?? 1000,
    sessionTtlMs: options.sessionTtlMs ?? 60 * 60 * 1000,
    now: options.now ?? Date.now,
    log: options.log ?? (() => {}),
  }
  const host = options.host ?? '127.0.0.1'
  const seed = {...DEFAULT_SEED, ...options.seed}
  const router = new Router()
  register(router)
  const makeView = (env: Env, now: number): View => ({store: env.store, now, origin: env.origin})
  const guards: Guards = {
    limiter: new RateLimiter(opts.now),
    perMinute:
      options.rateLimit === undefined ? {production: LIMITS.production, sandbox: LIMITS.sandbox} : {production: options.rateLimit, sandbox: options.rateLimit},
    perIp: options.ipRateLimit === undefined ? LIMITS.perIp : options.ipRateLimit,
    licenseKeys: LIMITS.licenseKeys,
    latencyMs: options.latencyMs ?? 0,
    failRate: options.failRate ?? 0,
    resetRate: options.resetRate ?? 0,
    random: seededRandom(options.faultSeed ?? 1),
    versions: servedVersions(options.apiVersions),
  }
  const contractFile = options.contract ?? (process.env.TILL_CONTRACT || undefined)
  if (contractFile) {
    // loaded only in the contract mode (ajv and the document cost ~0.2 s)
    const {ContractMode} = await import('./core/contract-mode.js')
    guards.contract = ContractMode.load(contractFile, options.contractLog ?? process.env.TILL_CONTRACT_LOG, opts.log)
  }
  const forwardSecret = options.forwardTo ? newWebhookSecret() : undefined
  const dispatcher = new WebhookDispatcher({
    backoffBaseMs: options.webhookBackoffMs ?? 2000,
    forwardTo: options.forwardTo,
    forwardSecret,
    allowRemote: options.allowRemoteWebhooks ?? false,
    log: opts.log,
    now: opts.now,
    faults: options.webhookFaults,
    random: seededRandom(options.webhookFaultSeed ?? 1),
  })

  const envs = {} as Record<EnvName, Env>
  const servers: Server[] = []
  let port = options.port ?? DEFAULT_PORT
  try {
    for (const name of options.productionOnly ? (['production'] as const) : ENVIRONMENTS) {
      const env: Env = {
        name,
        store: openStore(options.dataDir, name, seed, opts.now()),
        options: opts,
        origin: '',
        listeners: [dispatcher.listener, ...(options.listeners ?? [])],
        redeliver: (eventId) => dispatcher.redeliver(env, eventId),
        recordDeliveries: () => dispatcher.record(env),
        settle: () => settle(env),
        now: () => environmentNow(env),
        requests: new RequestLog(),
      }
      const server = createServer((req, res) => {
        const started = performance.now()
        const time = new Date(opts.now()).toISOString()
        void handle(env, router, req, res, makeView, guards).then((status) => {
          const ms = performance.now() - started
          opts.log(`[${name}] ${req.method} ${redact(req.url ?? '')} ${status} ${ms.toFixed(1)}ms`)
          logRequest(env, req.method ?? 'GET', req.url, {time, status, duration_ms: Math.round(ms * 10) / 10})
        })
      })
      server.keepAliveTimeout = 5000
      servers.push(server)
      const bound = await listen(server, port, host)
      env.origin = `http://${host}:${bound}`
      envs[name] = env
      port = port === 0 ? 0 : bound + 1
    }
  } catch (error) {
    dispatcher.close()
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
    throw error
  }
  const sweep = setInterval(() => {
    for (const env of Object.values(envs)) {
      try {
        settle(env)
      } catch (error) {
        opts.log(`[${env.name}] settling timed changes failed: ${(error as Error).message}`)
      }
    }
  }, 100)
  sweep.unref()

  if (options.dataDir !== null) writeCredentials(options.dataDir, envs)

  const info = (env: Env): EnvironmentInfo => ({
    url: `${env.origin}/v1`,
    organization_id: env.store.data.organization.id,
    organization_token: env.store.data.tokens[0]!.token,
  })

  return {
    environments: Object.fromEntries(Object.values(envs).map((env) => [env.name, info(env)])) as Record<EnvName, EnvironmentInfo>,
    forwardSecret,
    envs,
    close: () => {
      clearInterval(sweep)
      dispatcher.close()
      return Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve())
              s.closeAllConnections()
            }),
        ),
      ).then(() => undefined)
    },
  }
}

type Answered = {time: string; status: number; duration_ms: number}

/** Keeps one answered request in the environment's log; reading the log (GET /_emulator/logs) is not kept. */
function logRequest(env: Env, method: string, target: string | undefined, facts: Answered): void {
  const url = requestUrl(target, env.origin || 'http://127.0.0.1')
  const path = url ? url.pathname : (target ?? '')
  if (path === `${CONTROL_PREFIX}${LOGS_PATH}`) return
  env.requests.add({environment: env.name, method, url: url ? `${url.pathname}${url.search}` : path, ...facts})
}

export const credentialsFile = (dataDir: string) => join(dataDir, 'credentials.json')

export interface Credentials {
  production: {organization_id: string; token: string}
  sandbox: {organization_id: string; token: string}
}

/** A small side file with each environment's organization and token, so the `local` profile can sign in. */
function writeCredentials(dataDir: string, envs: Record<EnvName, Env>): void {
  const of = (env: Env) => ({organization_id: env.store.data.organization.id, token: env.store.data.tokens[0]!.token})
  const file = credentialsFile(dataDir)
  // an environment not served this time keeps what an earlier start wrote for it
  let text = ''
  let earlier: Partial<Credentials> = {}
  try {
    text = readOwnText(file, MiB)
    earlier = JSON.parse(text) as Partial<Credentials>
  } catch {
    // none yet, or unreadable: written afresh
  }
  const body = `${JSON.stringify({...earlier, ...Object.fromEntries(Object.values(envs).map((env) => [env.name, of(env)]))}, null, 2)}\n`
  // the same as on disk (each start of the same data folder): not written again
  if (body === text) return
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, body, {mode: 0o600})
  renameSync(tmp, file)
}

/** Restores the seeded state of both environments (same sizes, same organization and token). */
export function resetStores(dataDir: string, now: number): void {
  for (const name of ENVIRONMENTS) {
    const store = openStore(dataDir, name, DEFAULT_SEED, now)
    store.reseed({...manifestOf(store.data, now), seed: store.data.seed})
  }
}
