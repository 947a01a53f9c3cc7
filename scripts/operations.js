#!/usr/bin/env node
// The operation table and the scopes till asks for (`npm run operations`), generated rather than kept
// by hand:
//   - src/client/operations.generated.ts: every operation of the service's published OpenAPI document
//     (contract/2026-10.openapi.json), keyed by operation id: method, path template,
//     the OAuth2 scopes any one of which accepts it (its `security`), and the kinds of token it takes;
//     then the few routes till calls that the document leaves out (UNDOCUMENTED below);
//   - src/client/till-scopes.generated.ts: the operations each till command sends (./till-operations.js,
//     found with the TypeScript compiler) by operation id, and the scopes that cover them: for each
//     operation, its `:write` scope when it takes read or write and till also changes that resource,
//     else its `:read` one; the union is what `till auth login --web` asks for.
// A request that matches no operation fails the script: a new call is mapped, not silently dropped.
//   --check   write nothing; exit 1 when a checked-in file differs from what would be written
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {tillOperations} from './till-operations.js'

const DOCUMENT = 'contract/2026-10.openapi.json'
const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/**
 * Routes the document does not describe that till calls or the emulator answers (the service leaves
 * them out of its schema, or added them after it), with the scopes the service asks for.
 */
const UNDOCUMENTED = {
  // polar server/polar/cli/auth.py: `CLIRead` takes web:read, web:write, webhooks:read or webhooks:write
  'cli:listen': {method: 'GET', path: '/v1/cli/listen/{organization_id}', scopes: ['webhooks:read', 'webhooks:write'], auth: ['oidc', 'pat', 'oat']},
  // the same auth (PR #14347, server/polar/cli/endpoints.py): what `polar trigger` lists and sends
  'cli:events': {method: 'GET', path: '/v1/cli/events', scopes: ['webhooks:read', 'webhooks:write'], auth: ['oidc', 'pat', 'oat']},
  'cli:trigger': {method: 'POST', path: '/v1/cli/trigger/{organization_id}', scopes: ['webhooks:read', 'webhooks:write'], auth: ['oidc', 'pat', 'oat']},
  // the list of the signed-in user's own OAuth2 clients (see the emulator's oauth2/clients.ts): a user token, no scope
  'oauth2:clients:list': {method: 'GET', path: '/v1/oauth2/', scopes: [], auth: ['oidc', 'pat']},
  // newer than the document (@polar-sh/sdk 1.0.1, see its SOURCE.md); a change to products, as PATCH is
  // newer than the document (@polar-sh/sdk 1.0.1): a customer's members, listed by customer id or external id
  'customers:members:list': {method: 'GET', path: '/v1/customers/{id}/members', scopes: ['members:read', 'members:write'], auth: ['oidc', 'pat', 'oat']},
  'customers:members:list_external': {
    method: 'GET',
    path: '/v1/customers/external/{external_id}/members',
    scopes: ['members:read', 'members:write'],
    auth: ['oidc', 'pat', 'oat'],
  },
  'products:delete': {method: 'DELETE', path: '/v1/products/{id}', scopes: ['products:write'], auth: ['oidc', 'pat', 'oat']},
  // newer than the document (@polar-sh/sdk 1.0.1: customerPortal.licenseKeys.rotate): a new key string for the customer's key
  'customer_portal:license_keys:rotate': {
    method: 'POST',
    path: '/v1/customer-portal/license-keys/{id}/rotate',
    scopes: ['customer_portal:write'],
    auth: ['customer_session', 'member_session'],
  },
  // newer than the document (@polar-sh/sdk 1.0.1): a new key string for a license key (server/polar/license_key)
  'license_keys:rotate': {method: 'POST', path: '/v1/license-keys/{id}/rotate', scopes: ['license_keys:write'], auth: ['oidc', 'pat', 'oat']},
}

/** `/v1/orders/{id}/invoice` -> `/v1/orders/{}/invoice`, the form till-operations.js gives. */
const normalize = (path) => path.replace(/\{[^}]*\}/g, '{}')

/** Every operation of the document, in its order: id -> {method, path, scopes, auth}. */
export function documentOperations(document) {
  const operations = {}
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const scopes = new Set()
      const auth = []
      for (const requirement of op.security ?? []) {
        for (const [scheme, list] of Object.entries(requirement)) {
          auth.push(scheme)
          for (const s of list) scopes.add(s)
        }
      }
      if (operations[op.operationId]) throw new Error(`operation id ${op.operationId} is used twice`)
      operations[op.operationId] = {method: method.toUpperCase(), path, scopes: [...scopes], auth}
    }
  }
  return operations
}

/**
 * The scope to ask for each operation an OAuth2 token may send: its `:write` one when it takes either
 * and till changes that resource (some operation till sends takes only `<resource>:write`), else its
 * `:read` one.
 */
export function chooseScopes(operations, ids) {
  // Only what an OAuth2 access token can be granted: the Customer Portal's operations take customer tokens.
  const oauth = ids.filter((id) => operations[id].auth.includes('oidc') && operations[id].scopes.length > 0)
  const written = new Set()
  for (const id of oauth) {
    const {scopes} = operations[id]
    if (scopes.every((s) => s.endsWith(':write'))) for (const s of scopes) written.add(s)
  }
  const chosen = {}
  for (const id of oauth) {
    const {scopes} = operations[id]
    chosen[id] = scopes.find((s) => written.has(s)) ?? scopes.find((s) => s.endsWith(':read')) ?? scopes[0]
  }
  return chosen
}

/** The operations each command sends, by id; `shared` are those every command reaches (the common context). */
export function commandOperations(byCommand, operations) {
  const index = new Map(Object.entries(operations).map(([id, op]) => [`${op.method} ${normalize(op.path)}`, id]))
  const unknown = []
  const commands = {}
  for (const [command, sent] of [...byCommand].sort(([a], [b]) => a.localeCompare(b))) {
    const ids = new Set()
    for (const request of sent) {
      const id = index.get(request)
      if (id) ids.add(id)
      else unknown.push(`${command}: ${request}`)
    }
    commands[command] = [...ids].sort()
  }
  if (unknown.length > 0)
    throw new Error(`requests that match no operation of the document nor UNDOCUMENTED in scripts/operations.js:\n  ${unknown.join('\n  ')}`)
  const lists = Object.values(commands)
  const shared = lists.length === 0 ? [] : lists[0].filter((id) => lists.every((l) => l.includes(id)))
  for (const command of Object.keys(commands)) commands[command] = commands[command].filter((id) => !shared.includes(id))
  return {commands, shared}
}

const q = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const list = (items) => `[${items.map(q).join(', ')}]`
const entry = (id, op) => `  ${q(id)}: {method: ${q(op.method)}, path: ${q(op.path)}, scopes: ${list(op.scopes)}, auth: ${list(op.auth)}},`

function operationsModule(operations) {
  return `// Generated by scripts/operations.js (npm run operations) from the service's published OpenAPI document,
// ${DOCUMENT}: do not edit. test/client/operations.test.ts fails when it is stale.

export interface OperationSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** The document's path template, \`/v1/products/{id}\`. */
  path: string
  /** The OAuth2 scopes any one of which lets a token through (its \`security\`); empty: none is needed. */
  scopes: readonly string[]
  /** The kinds of token it takes (oidc: OAuth2 access token, pat, oat, customer_session, member_session); empty: none. */
  auth: readonly string[]
}

/** Every operation of the document, keyed by operation id. */
export const OPERATIONS = {
${Object.entries(operations)
  .map(([id, op]) => entry(id, op))
  .join('\n')}
} as const satisfies Record<string, OperationSpec>

export type OperationId = keyof typeof OPERATIONS

/** Routes the document leaves out that till calls or the emulator answers, with the scopes the service asks for (see scripts/operations.js). */
export const UNDOCUMENTED_OPERATIONS = {
${Object.entries(UNDOCUMENTED)
  .map(([id, op]) => entry(id, op))
  .join('\n')}
} as const satisfies Record<string, OperationSpec>

export type UndocumentedOperationId = keyof typeof UNDOCUMENTED_OPERATIONS
`
}

function scopesModule(commands, shared, scopes) {
  return `// Generated by scripts/operations.js (npm run operations) from the requests till's commands send
// (scripts/till-operations.js) and the operation table: do not edit. test/client/operations.test.ts
// fails when it is stale.

/** The operations each command sends, by operation id (without SHARED_OPERATIONS). */
export const COMMAND_OPERATIONS: Record<string, readonly string[]> = {
${Object.entries(commands)
  .map(([command, ids]) => `  ${q(command)}: ${list(ids)},`)
  .join('\n')}
}

/** Operations every command can reach through the context they share (a customer session for --as-customer). */
export const SHARED_OPERATIONS: readonly string[] = ${list(shared)}

/** The scopes that let an OAuth2 access token send every operation above (the Customer Portal's take customer tokens): what \`till auth login --web\` asks for. */
export const TILL_API_SCOPES: readonly string[] = ${list(scopes)}
`
}

/** The checked-in files as they should be now: path (from the root) -> text; `found` is tillOperations(root), if already run. */
export function generate(root, found = tillOperations(root)) {
  const document = JSON.parse(readFileSync(join(root, DOCUMENT), 'utf8'))
  const fromDocument = documentOperations(document)
  for (const id of Object.keys(UNDOCUMENTED)) if (fromDocument[id]) throw new Error(`${id} is in the document now: remove it from UNDOCUMENTED`)
  const operations = {...fromDocument, ...UNDOCUMENTED}
  const {byCommand, unresolved} = found
  if (unresolved.length > 0) throw new Error(`requests whose path cannot be worked out (see npm run api-coverage):\n  ${unresolved.join('\n  ')}`)
  const {commands, shared} = commandOperations(byCommand, operations)
  const sent = [...new Set([...shared, ...Object.values(commands).flat()])]
  const scopes = [...new Set(Object.values(chooseScopes(operations, sent)))].sort()
  return {
    'src/client/operations.generated.ts': operationsModule(fromDocument),
    'src/client/till-scopes.generated.ts': scopesModule(commands, shared, scopes),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  const check = process.argv.includes('--check')
  let stale = 0
  for (const [path, text] of Object.entries(generate(root))) {
    let current
    try {
      current = readFileSync(join(root, path), 'utf8')
    } catch {
      current = undefined
    }
    if (current === text) continue
    if (check) {
      console.error(`${path} is stale: run npm run operations`)
      stale += 1
    } else {
      writeFileSync(join(root, path), text)
      console.error(`wrote ${path}`)
    }
  }
  process.exitCode = stale > 0 ? 1 : 0
}
