// The SDK contract harness on the official SDK 1.0.1 (`@polar-sh/sdk`), which types the three API versions
// side by side (`@polar-sh/sdk/2026-04`, `/2026-10`, `/2027-01`): one emulator per test file, driven
// through the SDK's client of each version (2026-10, the default, unless asked).
//
//   const h = useContract()
//   it('...', async () => {
//     const key = await h.polar.licenseKeys.get(id)                   // the 2026-10 client
//     expectShape('2026-10', 'LicenseKeyWithActivations', key)        // the SDK's type, as data
//     const next = await h.client('2027-01').licenseKeys.validate({key: key.key, organization_id})
//     expectShape('2027-01', 'ValidatedLicenseKey', next)
//   })
//
// SDK 1.0.1 checks nothing at run time (it casts the JSON), so `expectShape` does what
// its 0.x zod models did: it reads the version's type from the SDK's own declarations
// (dist/models-*.d.mts) and expects every required key present and no key the type lacks, through
// nested types, arrays and nullable fields. The files still on SDK 0.49 use harness-0.49.ts.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {createPolar as createPolar202604} from '@polar-sh/sdk/2026-04'
import {createPolar as createPolar202610} from '@polar-sh/sdk/2026-10'
import {createPolar as createPolar202701} from '@polar-sh/sdk/2027-01'
import {afterAll, beforeAll, expect} from 'vitest'

import {api, ROOT, startEmulator, type ApiOptions, type ApiResponse, type Emulator, type EnvHandle, type Json, type StartOptions} from '../helpers/emulator.js'

export const VERSIONS = ['2026-04', '2026-10', '2027-01'] as const
export type Version = (typeof VERSIONS)[number]

const FACTORIES = {'2026-04': createPolar202604, '2026-10': createPolar202610, '2027-01': createPolar202701}
export type Polar = ReturnType<typeof createPolar202610>
export type Polar202701 = ReturnType<typeof createPolar202701>
export type Polar202604 = ReturnType<typeof createPolar202604>
type Clients = {'2026-04': Polar202604; '2026-10': Polar; '2027-01': Polar202701}

export interface Contract {
  emulator: Emulator
  /** The production environment of the emulator. */
  env: EnvHandle
  /** The 2026-10 client with the environment's organization token. */
  polar: Polar
  /** The client of another version, with the organization token (or `token`; '' sends none). */
  client<V extends Version>(version: V, token?: string): Clients[V]
  /** A raw request (path relative to `/v1`) with the given version's Polar-Version. */
  raw(method: string, path: string, options?: ApiOptions & {version?: Version}): Promise<ApiResponse>
}

/** The SDK's base URL for an environment: its origin (SDK paths start with `/v1`). */
export const baseUrl = (env: EnvHandle): string => env.url.replace(/\/v1\/?$/, '')

/** Starts one emulator for the calling test file; the returned object fills in before the first test. */
export function useContract(options: StartOptions = {}): Contract {
  const h = {} as Contract
  beforeAll(async () => {
    const emulator = await startEmulator(options)
    const env = emulator.production
    const client = <V extends Version>(version: V, token = env.token) => FACTORIES[version]({accessToken: token, baseUrl: baseUrl(env)}) as Clients[V]
    Object.assign(h, {
      emulator,
      env,
      polar: client('2026-10'),
      client,
      raw: (method: string, path: string, o: ApiOptions & {version?: Version} = {}) =>
        api(env, method, path, {...o, headers: {'polar-version': o.version ?? '2026-10', ...o.headers}}),
    } satisfies Contract)
  })
  afterAll(async () => {
    await h.emulator?.stop()
  })
  return h
}

// ---- the SDK's types, as data ------------------------------------------------------------------------

interface Field {
  name: string
  optional: boolean
  /** The declared type, e.g. `LicenseKeyMember | null`, `LicenseKeyActivationBase[]`, `string`. */
  type: string
}

const declarations = new Map<Version, string>()

/** The declarations one version's entry point imports: its models, and its client's (webhook payloads). */
function models(version: Version): string {
  let text = declarations.get(version)
  if (text === undefined) {
    const dist = join(ROOT, 'node_modules', '@polar-sh', 'sdk', 'dist')
    const entry = readFileSync(join(dist, version, 'index.d.mts'), 'utf8')
    const files = [...entry.matchAll(/from "\.\.\/((?:models|index)-[\w-]+)\.mjs"/g)].map((m) => m[1]!)
    if (!files.some((f) => f.startsWith('models-'))) throw new Error(`no models declarations named in ${version}/index.d.mts`)
    text = files.map((f) => readFileSync(join(dist, `${f}.d.mts`), 'utf8')).join('\n')
    declarations.set(version, text)
  }
  return text
}

/** The fields of an interface of the version's models, or undefined when `name` is not an interface there. */
export function sdkFields(version: Version, name: string): Field[] | undefined {
  const body = new RegExp(`^interface ${name} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(models(version))?.[1]
  if (body === undefined) return undefined
  return [...body.matchAll(/^ {2}(\w+)(\?)?: (.+);$/gm)].map((m) => ({name: m[1]!, optional: m[2] === '?', type: m[3]!.trim()}))
}

/** The interfaces a declared type names: `A | null` -> [A], `B[]` -> [B] (unions of several, and maps, are not followed). */
function named(version: Version, type: string): {name: string; array: boolean} | undefined {
  const parts = type
    .replace(/^\((.*)\)$/, '$1')
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p !== 'null')
  if (parts.length !== 1) return undefined
  const array = parts[0]!.endsWith('[]')
  const name = array ? parts[0]!.slice(0, -2) : parts[0]!
  return /^\w+$/.test(name) && sdkFields(version, name) ? {name, array} : undefined
}

/** Where `body` departs from the version's type `name`: missing required keys, keys the type lacks. */
export function shapeProblems(version: Version, name: string, body: Json, path = ''): string[] {
  const fields = sdkFields(version, name)
  if (!fields) throw new Error(`SDK ${version} has no interface ${name}`)
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [`${path || name}: not an object`]
  const problems: string[] = []
  const at = (key: string) => (path ? `${path}.${key}` : key)
  for (const f of fields) if (!f.optional && !(f.name in body)) problems.push(`${at(f.name)}: missing`)
  for (const key of Object.keys(body)) {
    const f = fields.find((x) => x.name === key)
    if (!f) {
      problems.push(`${at(key)}: not in ${name}`)
      continue
    }
    const nested = named(version, f.type)
    const value = body[key]
    if (!nested || value === null || value === undefined) continue
    if (nested.array && Array.isArray(value))
      value.forEach((item: Json, i: number) => problems.push(...shapeProblems(version, nested.name, item, `${at(key)}[${i}]`)))
    else if (!nested.array) problems.push(...shapeProblems(version, nested.name, value, at(key)))
  }
  return problems
}

/** Expects `body` to have exactly the shape of the version's SDK type `name`. */
export function expectShape(version: Version, name: string, body: Json, what = name): void {
  expect(shapeProblems(version, name, body), `${what} as SDK ${version} types it`).toEqual([])
}

/** A list page as the SDK 1.0.1 types it. */
interface Page<T> {
  items: T[]
  pagination: {total_count: number; max_page: number}
}

/** Every item of a list, page by page (`list({page, limit})`), and the `total_count` and page count the first page gave. */
export async function everyPage<T>(
  list: (query: {page: number; limit: number}) => Promise<Page<T>>,
  limit = 100,
): Promise<{items: T[]; totalCount: number; pages: number}> {
  const first = await list({page: 1, limit})
  const items = [...first.items]
  for (let page = 2; page <= first.pagination.max_page; page++) items.push(...(await list({page, limit})).items)
  return {items, totalCount: first.pagination.total_count, pages: Math.max(1, first.pagination.max_page)}
}

/** The error an SDK call rejects with (fails the test if it resolves). */
export async function rejection(call: Promise<unknown>): Promise<Error & {statusCode?: number; error?: Json}> {
  try {
    await call
  } catch (error) {
    return error as Error & {statusCode?: number}
  }
  throw new Error('expected the SDK call to fail, it succeeded')
}
