// The SDK contract harness: one emulator per test file, driven through the service's own TypeScript SDK
// (`@polar-sh/sdk` 0.49, installed as `@polar-sh/sdk-0.49` for the files not yet on 1.0.1: see harness.ts), which validates every response against its schemas.
//
//   const h = useContract()              // in a describe or at the top level: beforeAll / afterAll
//   it('...', async () => {
//     const product = await h.polar.products.get({id})          // parsed and checked by the SDK
//     const raw = await h.raw('GET', `/checkouts/client/${secret}`, {token: null})
//     expectKeysSubset(CheckoutPublic$inboundSchema, raw.body)   // no key the SDK's model lacks
//   })
//
// Parsing alone does not catch extra keys: the SDK strips unknown keys silently. `expectKeysSubset`
// parses a raw body with the SDK's model and names every key of the body that the parsed result lost.
import {Polar} from '@polar-sh/sdk-0.49'
import {afterAll, beforeAll, expect} from 'vitest'

import {api, startEmulator, type ApiOptions, type ApiResponse, type Emulator, type EnvHandle, type Json, type StartOptions} from '../helpers/emulator.js'

export interface Contract {
  emulator: Emulator
  /** The production environment of the emulator. */
  env: EnvHandle
  /** An SDK client with the environment's organization token. */
  polar: Polar
  /** An SDK client without a token (public checkout, portal with a customer session). */
  anonymous: Polar
  /** An SDK client pointed at `env` with any token (e.g. a sandbox token on production: 401). */
  clientWith(token: string, env?: EnvHandle): Polar
  /** A raw request (path relative to `/v1`) for the key-subset check. */
  raw(method: string, path: string, options?: ApiOptions): Promise<ApiResponse>
  /** A customer session token (`polar_cst_...`) for `customerId`. */
  customerSession(customerId: string): Promise<string>
}

/** The SDK's server URL for an environment: its origin (SDK paths start with `/v1`). */
export const serverURL = (env: EnvHandle): string => env.url.replace(/\/v1\/?$/, '')

/** Starts one emulator for the calling test file; the returned object fills in before the first test. */
export function useContract(options: StartOptions = {}): Contract {
  const h = {} as Contract
  beforeAll(async () => {
    const emulator = await startEmulator(options)
    const env = emulator.production
    const clientWith = (token: string, target = env) => new Polar({accessToken: token, serverURL: serverURL(target)})
    Object.assign(h, {
      emulator,
      env,
      polar: clientWith(env.token),
      anonymous: new Polar({serverURL: serverURL(env)}),
      clientWith,
      // the 0.49 models are API version 2026-04's (it sends no Polar-Version; the service's default is now 2026-10)
      raw: (method: string, path: string, o?: ApiOptions) => api(env, method, path, {...o, headers: {'polar-version': '2026-04', ...o?.headers}}),
      customerSession: async (customerId: string) => {
        const session = await clientWith(env.token).customerSessions.create({customerId})
        return session.token
      },
    } satisfies Contract)
  })
  afterAll(async () => {
    await h.emulator?.stop()
  })
  return h
}

/** Something with the SDK's inbound schema's `parse` (zod mini). */
export interface InboundSchema {
  parse(input: unknown): unknown
}

const norm = (key: string) => key.replaceAll('_', '').toLowerCase()

/**
 * Paths (`items[0].product.metadata`) of the keys of `raw` that `parsed` lost. The SDK renames snake_case
 * keys to camelCase and turns datetimes into Dates; keys are compared without underscores or case.
 */
export function lostKeys(raw: Json, parsed: Json, path = ''): string[] {
  if (Array.isArray(raw)) {
    if (!Array.isArray(parsed)) return []
    return raw.flatMap((item, i) => lostKeys(item, parsed[i], `${path}[${i}]`))
  }
  if (raw === null || typeof raw !== 'object' || parsed === null || typeof parsed !== 'object' || parsed instanceof Date) return []
  const kept = new Map(Object.keys(parsed).map((k) => [norm(k), k]))
  const lost: string[] = []
  for (const key of Object.keys(raw)) {
    const here = path ? `${path}.${key}` : key
    const match = kept.get(norm(key))
    if (match === undefined) lost.push(here)
    else lost.push(...lostKeys(raw[key], parsed[match], here))
  }
  return lost
}

/** Parses `body` with the SDK's model (throws on a mismatch) and expects no key of it to be unknown there. */
export function expectKeysSubset(schema: InboundSchema, body: Json, what = 'response'): void {
  const parsed = schema.parse(body)
  expect(lostKeys(body, parsed), `${what}: keys the SDK's model does not declare`).toEqual([])
}

/** Every item of an SDK list (all pages), and the `total_count` of its first page. */
export async function collect<T>(
  pages: AsyncIterable<{result: {items: T[]; pagination: {totalCount: number; maxPage: number}}}>,
): Promise<{items: T[]; totalCount: number; pages: number}> {
  const items: T[] = []
  let totalCount = -1
  let count = 0
  for await (const page of pages) {
    if (totalCount < 0) totalCount = page.result.pagination.totalCount
    items.push(...page.result.items)
    count += 1
  }
  return {items, totalCount, pages: count}
}

/** The error an SDK call rejects with (fails the test if it resolves). */
export async function rejection(call: Promise<unknown>): Promise<Error & {statusCode?: number; body?: string; error?: string; detail?: unknown}> {
  try {
    await call
  } catch (error) {
    return error as Error & {statusCode?: number}
  }
  throw new Error('expected the SDK call to fail, it succeeded')
}
