// The operation table and the scopes till asks for (scripts/operations.js): the checked-in modules are
// what the script writes now; the table agrees with the document as the emulator's contract mode reads
// it; every operation a command sends is let through by a scope till asks for (checked against the
// requests found afresh in the source, matched by the contract's own router); the emulator's scope
// check is the table's; a 403 insufficient_scope names the scope and the way to get it.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {describe, expect, it} from 'vitest'

import {ApiError, toTillError, type ErrorContext} from '../../src/client/errors.js'
import {IDENTITY_SCOPES, TILL_SCOPES} from '../../src/client/oauth.js'
import {OPERATIONS, UNDOCUMENTED_OPERATIONS} from '../../src/client/operations.generated.js'
import {missingScopes, refusedTopics} from '../../src/client/scopes.js'
import {Contract} from '../../src/emulator/core/contract.js'
import {acceptedScopes} from '../../src/emulator/core/scopes.js'
import {ROOT} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

const DOCUMENT = join(ROOT, 'contract', '2026-10.openapi.json')
type Found = {byCommand: Map<string, Set<string>>; unresolved: string[]}
const script = async () =>
  (await import(pathToFileURL(join(ROOT, 'scripts', 'operations.js')).href)) as {generate: (root: string, found: Found) => Record<string, string>}
/** The requests each command sends, found in the source once for the whole file (the TypeScript compiler takes seconds). */
let found: Promise<Found> | undefined
const requests = () =>
  (found ??= import(pathToFileURL(join(ROOT, 'scripts', 'till-operations.js')).href).then((m) =>
    (m as {tillOperations: (root: string) => Found}).tillOperations(ROOT),
  ))

describe('the generated modules', () => {
  it(
    'are what scripts/operations.js writes now (run npm run operations after changing a request or the document)',
    async () => {
      const files = (await script()).generate(ROOT, await requests())
      expect(Object.keys(files).sort()).toEqual(['src/client/operations.generated.ts', 'src/client/till-scopes.generated.ts'])
      for (const [path, text] of Object.entries(files)) expect(readFileSync(join(ROOT, path), 'utf8'), `${path} is stale: run npm run operations`).toBe(text)
    },
    scaled(120_000),
  )

  it('hold every operation of the document with its method, path and scopes, as the contract mode reads them', () => {
    const contract = Contract.load(DOCUMENT)
    const all = contract.all()
    expect(all.length).toBeGreaterThanOrEqual(186)
    // the contract mode adds the operations newer than the document (contract-newer.ts): they are till's undocumented ones
    const newer = all.filter((o) => Object.hasOwn(UNDOCUMENTED_OPERATIONS, o.id))
    expect(newer.map((o) => o.id).sort()).toEqual([
      'customer_portal:license_keys:rotate',
      'customers:members:list',
      'customers:members:list_external',
      'license_keys:rotate',
      'products:delete',
    ])
    for (const op of newer) {
      const entry = UNDOCUMENTED_OPERATIONS[op.id as keyof typeof UNDOCUMENTED_OPERATIONS]
      expect({method: entry.method, path: entry.path, scopes: [...entry.scopes].sort()}, op.id).toEqual({
        method: op.method,
        path: op.path,
        scopes: [...op.scopes].sort(),
      })
    }
    expect(Object.keys(OPERATIONS).sort()).toEqual(
      all
        .filter((o) => !newer.includes(o))
        .map((o) => o.id)
        .sort(),
    )
    for (const op of all.filter((o) => !newer.includes(o))) {
      const entry = OPERATIONS[op.id as keyof typeof OPERATIONS]
      expect({method: entry.method, path: entry.path, scopes: [...entry.scopes].sort()}, op.id).toEqual({
        method: op.method,
        path: op.path,
        scopes: [...op.scopes].sort(),
      })
    }
    expect(OPERATIONS['discounts:list']).toEqual({
      method: 'GET',
      path: '/v1/discounts/',
      scopes: ['discounts:read', 'discounts:write'],
      auth: ['oidc', 'pat', 'oat'],
    })
    expect(OPERATIONS['oauth2:request_token'].auth).toEqual([])
    // The routes the document leaves out are not in it.
    for (const [id, op] of Object.entries(UNDOCUMENTED_OPERATIONS)) {
      const found = contract.find(op.method, op.path.replace(/\{[^}]+\}/g, 'x1'))
      expect(found?.operation.id ?? null, id).toBe(newer.some((o) => o.id === id) ? id : null)
    }
  })
})

describe('the scopes till asks for', () => {
  it(
    'let through every operation any command sends (requests found afresh, matched by the contract router)',
    async () => {
      const contract = Contract.load(DOCUMENT)
      const undocumented = Object.values(UNDOCUMENTED_OPERATIONS)
      const {byCommand} = await requests()
      const refused: string[] = []
      let checked = 0
      for (const [command, requests] of byCommand) {
        for (const request of requests) {
          const [method, template] = request.split(' ') as [string, string]
          const path = template.replaceAll('{}', 'x1')
          const op = contract.find(method, path)?.operation ?? undocumented.find((u) => u.method === method && u.path.replace(/\{[^}]+\}/g, '{}') === template)
          expect(op, `${command}: ${request} is no operation`).toBeDefined()
          const scopes = op!.scopes.filter((s) => !s.startsWith('customer_portal:'))
          if (scopes.length === 0) continue
          checked += 1
          if (!scopes.some((s) => TILL_SCOPES.includes(s))) refused.push(`${command}: ${request} needs ${scopes.join(' or ')}`)
        }
      }
      expect(refused).toEqual([])
      expect(checked).toBeGreaterThan(150)
    },
    scaled(120_000),
  )

  it('are the write scope where till also writes the resource, the read scope otherwise, and nothing for customer tokens', () => {
    expect(TILL_SCOPES.slice(0, IDENTITY_SCOPES.length)).toEqual(['openid', 'profile', 'email'])
    for (const s of [
      'discounts:write',
      'meters:write',
      'events:write',
      'files:write',
      'disputes:write',
      'custom_fields:write',
      'payments:read',
      'customer_meters:read',
      'metrics:read',
      'orders:read',
      'orders:write',
    ]) {
      expect(TILL_SCOPES).toContain(s)
    }
    // discounts:list takes read or write, and till creates discounts: write alone covers both.
    expect(TILL_SCOPES).not.toContain('discounts:read')
    // orders:list takes orders:read only, so both are asked for; metrics dashboards are written (their
    // derived commands count like any other), so metrics:write is asked for too.
    expect(TILL_SCOPES).toContain('metrics:write')
    expect(TILL_SCOPES.filter((s) => s.startsWith('customer_portal:'))).toEqual([])
    expect(new Set(TILL_SCOPES).size).toBe(TILL_SCOPES.length)
  })

  it('name what a smaller grant leaves refused: whole topics, single commands, nothing with the full grant', () => {
    expect(missingScopes(TILL_SCOPES)).toEqual([])
    expect(refusedTopics(TILL_SCOPES)).toEqual([])
    const old = TILL_SCOPES.filter((s) => !s.startsWith('discounts:'))
    expect(missingScopes(old)).toEqual(['discounts:write'])
    const refused = refusedTopics(old)
    expect(refused).toContain('discounts')
    expect(refused).toContain('subscriptions update') // it looks the discount up
    expect(refused).not.toContain('subscriptions')
    expect(refused).not.toContain('products')
    // A read scope where till asks for write: reading still works, writing is refused.
    const readOnly = [...old, 'discounts:read']
    expect(refusedTopics(readOnly)).toEqual(expect.arrayContaining(['discounts create', 'discounts update', 'discounts delete']))
    expect(refusedTopics(readOnly)).not.toContain('discounts list')
  })
})

describe("the emulator's scope check", () => {
  it('takes the scopes of the operation the request names, from the same table', () => {
    expect(acceptedScopes('GET', '/v1/discounts/')).toEqual(['discounts:read', 'discounts:write'])
    expect(acceptedScopes('POST', '/v1/discounts/')).toEqual(['discounts:write'])
    expect(acceptedScopes('GET', '/v1/orders/5e9c')).toEqual(['orders:read'])
    expect(acceptedScopes('GET', '/v1/customers/export')).toEqual(['customers:read', 'customers:write'])
    expect(acceptedScopes('POST', '/v1/license-keys/validate')).toEqual(['license_keys:write'])
    expect(acceptedScopes('GET', '/v1/payments/p1')).toEqual(['payments:read'])
    expect(acceptedScopes('GET', '/v1/cli/listen/org')).toEqual(['webhooks:read', 'webhooks:write'])
    // The Customer Portal takes customer tokens; OAuth2's own routes and unknown paths need no scope.
    expect(acceptedScopes('GET', '/v1/customer-portal/orders/')).toBeUndefined()
    expect(acceptedScopes('POST', '/v1/oauth2/register')).toBeUndefined()
    expect(acceptedScopes('GET', '/v1/nothing-here/')).toBeUndefined()
  })
})

describe('a 403 insufficient_scope', () => {
  const refusal = (scope: string) =>
    new ApiError(
      403,
      {error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.'},
      'GET',
      'https://api.polar.sh/v1/discounts/',
      `Bearer realm="polar", error="insufficient_scope", scope="${scope}"`,
    )
  const ctx = (tokenKind: ErrorContext['tokenKind']): ErrorContext => ({
    profile: 'acme',
    environment: 'production',
    baseUrl: 'https://api.polar.sh/v1',
    tokenKind,
  })

  it('names the scope and, for a browser sign-in, the sign-in that grants it (exit 4)', () => {
    const e = toTillError(refusal('discounts:read'), ctx('oauth'))
    expect(e.exitCode).toBe(4)
    expect(e.message).toBe('this token lacks the scope discounts:read; sign in again to grant it: till auth login -p acme --web')
    expect(toTillError(refusal('discounts:read discounts:write'), ctx('oauth')).message).toMatch(
      /^this token lacks the scope discounts:read or discounts:write;/,
    )
  })

  it('for an organization access token, says to create one with that scope instead', () => {
    const e = toTillError(refusal('payments:read'), ctx('organization'))
    expect(e.exitCode).toBe(4)
    expect(e.message).toBe(
      "this token lacks the scope payments:read; create an organization access token with that scope in the organization's settings instead",
    )
    expect(e.hint).toContain('till auth login -p acme --token-stdin')
  })
})
