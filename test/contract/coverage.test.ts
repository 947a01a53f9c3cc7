// The API coverage report (scripts/api-coverage.js) as a process: it finds the SDK's operations, the
// emulator's routes and till's commands by itself, exits 0 with operations missing, and does not count
// a reserved path (the CSV exports answer as unknown routes) as implemented; what till commands send is
// worked out from the source for every form of request, and a request it cannot work out fails the report.
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

// each run works out what every command sends with the TypeScript compiler: ~20 s of CPU, more on a busy machine
const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'api-coverage.js'), ...args], {cwd: ROOT, encoding: 'utf8'})

it(
  'prints counts per SDK resource and exits 0 although operations are missing',
  () => {
    const r = run('--missing', '--missing-till')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const row = (name: string) =>
      r.stdout
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.trim()
        .split(/\s+/)
        .slice(1)
        .map(Number)
    // products (SDK 1.0.1, 2026-10): list, create, get, delete, update, update benefits: all six emulated and called
    // by till commands (till products delete sends the delete, newer than the document)
    expect(row('products')).toEqual([6, 6, 6])
    // an exception is named with its reason, not listed as missing: creating an organization is answered (401 to
    // any token, as the service does) and sent by no command
    expect(r.stdout).toContain('Exceptions, by reason:\n  POST /v1/organizations/ (sent by no command): user-only:')
    expect(r.stdout).not.toContain('organizations: POST /v1/organizations/\n')
    const all = row('all')!
    expect(all[0]).toBe(190)
    expect(all[1]).toBeGreaterThan(0)
    expect(all[1]).toBeLessThanOrEqual(all[0]!)
    expect(r.stdout).not.toContain('products: GET /v1/products/{id}\n')
    // --missing-till: what the emulator answers and no command sends; the consent screen's authorize request is
    // named as sent by no command, by design
    const section = r.stdout.split('In the emulator, sent by no till command:\n')[1] ?? ''
    expect(section).toContain('(not in the SDK): GET /v1/checkout-links/{}/redirect')
    expect(section).not.toContain('oauth2: GET /v1/oauth2/authorize')
    expect(r.stdout).toContain('  GET /v1/oauth2/authorize (sent by no command): ')
    expect(section).not.toContain('oauth2: POST /v1/oauth2/introspect')
    expect(section).not.toContain('checkouts: GET /v1/checkouts/client/{client_secret}')
    expect(section).not.toContain('orders: GET /v1/orders/{id}/receipt')
  },
  scaled(120_000),
)

it(
  '--markdown prints the README table',
  () => {
    const r = run('--markdown')
    expect(r.status).toBe(0)
    expect(r.stdout.split('\n')[0]).toBe('| SDK resource | operations | emulator | till commands |')
    expect(r.stdout).toMatch(/\| \*\*all\*\* \| \*\*\d+\*\* \|/)
  },
  scaled(120_000),
)

type Operations = {byCommand: Map<string, Set<string>>; unresolved: string[]}
const detector = async () =>
  ((await import(pathToFileURL(join(ROOT, 'scripts', 'till-operations.js')).href)) as {tillOperations: (root: string) => Operations}).tillOperations

it(
  '--json names the commands that send each operation, whatever form the request takes in the client',
  () => {
    const r = run('--json')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const {operations, till} = JSON.parse(r.stdout) as {
      operations: Array<{id: string; method: string; path: string; emulator: boolean; commands: string[]}>
      till: Record<string, string[]>
    }
    const by = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path)?.commands ?? []
    // client.request('GET', ...), a path chosen from a constant object, a path built by a helper, a list through listItems
    expect(by('GET', '/v1/orders/{id}/receipt')).toEqual(['orders receipt'])
    expect(by('GET', '/v1/orders/export')).toEqual(['orders export'])
    expect(by('GET', '/v1/subscriptions/export')).toEqual(['subscriptions export'])
    expect(by('GET', '/v1/customers/{id}/state')).toContain('customers state')
    expect(by('GET', '/v1/customers/external/{external_id}/payment-methods')).toContain('customers payment-methods')
    expect(by('POST', '/v1/events/ingest')).toContain('events ingest')
    expect(by('GET', '/v1/webhooks/endpoints/{id}')).toEqual(['webhooks endpoints get'])
    // a stream opened with undici (the listen stream, not an SDK operation): its URL is built with buildUrl
    expect(till.listen).toContain('GET /v1/cli/listen/{}')
    // the invoice routes are an object handed down: each command gets its own, not the other's
    expect(by('GET', '/v1/orders/{id}/invoice').sort()).toEqual(['orders invoice generate', 'orders invoice get'])
    expect(by('GET', '/v1/customer-portal/orders/{id}/invoice').sort()).toEqual(['portal orders invoice generate', 'portal orders invoice get'])
    // `till api` sends whatever path it is given: it is counted for none but what every command may send (a customer session)
    expect(operations.filter((o) => o.commands.includes('api')).map((o) => o.id)).toEqual(
      operations
        .filter((o) => o.commands.includes('orders get'))
        .map((o) => o.id)
        .filter((id) => id !== 'orders:get'),
    )
  },
  scaled(120_000),
)

it(
  'finds requests in every form and reports a path it cannot work out instead of missing it',
  async () => {
    const root = mkdtempSync(join(tmpdir(), 'till-ops-'))
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), {recursive: true})
      writeFileSync(join(root, path), text)
    }
    try {
      file(
        'tsconfig.json',
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            rootDir: 'src',
            noEmit: true,
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules', '@types')],
          },
          include: ['src'],
        }),
      )
      file(
        'src/client/client.ts',
        `export class ApiClient {
  async get<T>(path: string): Promise<T> { return path as T }
  async post<T>(path: string, body?: unknown): Promise<T> { return [path, body] as T }
  async request<T>(method: string, path: string): Promise<T> { return [method, path] as T }
}
`,
      )
      file(
        'src/client/resources/things.ts',
        `import type {ApiClient} from '../client.js'
const BASE = '/things'
const seg = (v: string) => encodeURIComponent(v)
const list = (client: ApiClient, path: string) => client.get(path)
export const KINDS = {a: '/a/export', b: '/b/export'} as const
export const listThings = (api: ApiClient) => list(api, \`\${BASE}/\`)
export const receipt = (c: ApiClient, id: string) => c.request('GET', \`\${BASE}/\${seg(id)}/receipt\`)
export const exportOf = (c: ApiClient, kind: keyof typeof KINDS) => c.get(KINDS[kind])
export const routes = {path: (id: string) => \`/widgets/\${seg(id)}\`}
export const viaRoutes = (c: ApiClient, r: {path: (id: string) => string}, id: string) => c.post(r.path(id), {})
export const dynamic = (c: ApiClient, id: string) => c.get(id.toLowerCase())
`,
      )
      file(
        'src/client/resources/raw.ts',
        `export const raw = () => fetch('http://127.0.0.1/v1/things/')
`,
      )
      file(
        'src/commands/things/run.ts',
        `import {ApiClient} from '../../client/client.js'
import {listThings, receipt, exportOf, routes, viaRoutes, dynamic} from '../../client/resources/things.js'
import {raw} from '../../client/resources/raw.js'
export default async function run(client: ApiClient) {
  await listThings(client)
  await receipt(client, 'x')
  await exportOf(client, 'b')
  await viaRoutes(client, routes, 'y')
  await dynamic(client, 'z')
  await raw()
}
`,
      )
      const {byCommand, unresolved} = (await detector())(root)
      expect([...(byCommand.get('things run') ?? [])].sort()).toEqual([
        'GET /v1/b/export',
        'GET /v1/things/',
        'GET /v1/things/{}/receipt',
        'POST /v1/widgets/{}',
      ])
      expect(unresolved).toHaveLength(2)
      // a request sent around the client (fetch, undici) is reported too
      expect(unresolved).toContainEqual(expect.stringMatching(/^src\/client\/resources\/raw\.ts:1: sends with fetch directly/))
      expect(unresolved.find((u) => u.includes('things.ts'))).toMatch(/^src\/client\/resources\/things\.ts:\d+: cannot evaluate: id\.toLowerCase\(\)/)
    } finally {
      rmSync(root, {recursive: true, force: true})
    }
  },
  scaled(120_000),
)
