// The local emulator of the service: production and sandbox side by side on loopback,
// each with its own store, organization and token (spec §1, §5 rule 3).
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'

import {handle, Router, type EmulatorOptions, type Env, type EventListener} from './http.js'
import type {EnvData, EnvName, SeedOptions} from './model.js'
import type {View} from './present.js'
import {register} from './routes/index.js'
import {createEnvData} from './seed.js'
import {Store} from './store.js'

export type {EmulatorOptions, Env} from './http.js'

export const ENVIRONMENTS: readonly EnvName[] = ['production', 'sandbox']
export const DEFAULT_PORT = 4010
export const DEFAULT_SEED: SeedOptions = {products: 12, customers: 25, orders: 60}

export interface StartOptions extends Partial<EmulatorOptions> {
  /** Production listens here and sandbox on port + 1; 0 picks free ports. */
  port?: number
  host?: string
  /** Folder of the stores; null keeps everything in memory. */
  dataDir: string | null
  seed?: Partial<SeedOptions>
  listeners?: EventListener[]
}

export interface EnvironmentInfo {
  url: string
  organization_id: string
  organization_token: string
}

export interface RunningEmulator {
  environments: Record<EnvName, EnvironmentInfo>
  envs: Record<EnvName, Env>
  close(): Promise<void>
}

export const storeFile = (dataDir: string, env: EnvName) => join(dataDir, `${env}.json`)

export function openStore(dataDir: string | null, env: EnvName, seed: SeedOptions, now: number): Store {
  const create = (): EnvData => createEnvData(env, seed, now)
  return dataDir === null ? Store.memory(create()) : Store.open(storeFile(dataDir, env), create)
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

export async function startEmulator(options: StartOptions): Promise<RunningEmulator> {
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

  const envs = {} as Record<EnvName, Env>
  const servers: Server[] = []
  let port = options.port ?? DEFAULT_PORT
  try {
    for (const name of ENVIRONMENTS) {
      const env: Env = {
        name,
        store: openStore(options.dataDir, name, seed, opts.now()),
        options: opts,
        origin: '',
        listeners: [...(options.listeners ?? [])],
      }
      const server = createServer((req, res) => {
        const started = performance.now()
        void handle(env, router, req, res, makeView).then((status) =>
          opts.log(`[${name}] ${req.method} ${req.url} ${status} ${(performance.now() - started).toFixed(1)}ms`),
        )
      })
      server.keepAliveTimeout = 5000
      servers.push(server)
      const bound = await listen(server, port, host)
      env.origin = `http://${host}:${bound}`
      envs[name] = env
      port = port === 0 ? 0 : bound + 1
    }
  } catch (error) {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
    throw error
  }

  const info = (env: Env): EnvironmentInfo => ({
    url: `${env.origin}/v1`,
    organization_id: env.store.data.organization.id,
    organization_token: env.store.data.tokens[0]!.token,
  })

  return {
    environments: {production: info(envs.production), sandbox: info(envs.sandbox)},
    envs,
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve())
              s.closeAllConnections()
            }),
        ),
      ).then(() => undefined),
  }
}

/** Restores the seeded state of both environments (same sizes, same organization and token). */
export function resetStores(dataDir: string, now: number): void {
  for (const name of ENVIRONMENTS) {
    const store = openStore(dataDir, name, DEFAULT_SEED, now)
    const fresh = createEnvData(name, store.data.seed, now)
    fresh.organization = store.data.organization
    fresh.tokens = store.data.tokens
    store.replace(fresh)
  }
}
