#!/usr/bin/env node
// The API coverage report (`npm run api-coverage`): every operation of the service's TypeScript SDK
// (@polar-sh/sdk 1.0.1, a dev dependency; its 2026-10 client), whether the emulator implements it and
// whether a till command calls it, with counts per resource. Nothing here is a hand-kept list:
//   - SDK operations: read from the SDK's compiled services (node_modules/@polar-sh/sdk/dist/2026-10/
//     services/**/*.mjs: each function's buildRequest method and path);
//   - emulator: the route table of the built emulator (dist/emulator/resources, Router.table), matched on
//     method + path; a new resource folder shows up as soon as it is registered;
//   - till: for each command (src/commands/**), the requests it can send, worked out from the source
//     with the TypeScript compiler (./till-operations.js).
// It prints; it never fails for missing operations (exit 1 only when it cannot read its inputs, or when
// a request's path cannot be worked out from the source: see till-operations.js).
//   --markdown      the table for the README
//   --missing       also list the operations the emulator lacks
//   --missing-till  also list the emulator's operations no till command sends, by SDK resource
//   --json          everything as one JSON document (operations with their commands; under "till",
//                   each command with every request it can send, SDK operation or not)
import {readdirSync, readFileSync, existsSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {tillOperations} from './till-operations.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const markdown = process.argv.includes('--markdown')
const showMissing = process.argv.includes('--missing')
const showMissingTill = process.argv.includes('--missing-till')
const json = process.argv.includes('--json')
/** The API version whose SDK types are counted: the one till sends by default. */
const SDK_VERSION = '2026-10'

/**
 * SDK operations neither the emulator nor till serves, each with its reason (the issue's "names each
 * exception"): kept out of the missing lists, printed with the report.
 */
const EXCEPTIONS = {}

/** SDK operations the emulator serves and no till command sends, by design, each with its reason. */
const TILL_EXCEPTIONS = {
  'POST /v1/organizations/':
    "user-only: creating an organization takes a user's token (the dashboard's session or a personal token), never an organization token, and till administers one existing organization (the emulator answers any token 401, as the service does)",
  'GET /v1/oauth2/authorize':
    "the consent screen's own request, made by a signed-in user's browser: `till auth login --web` opens the authorization page, which makes it",
}

/** `/v1/orders/{id}/invoice` and `/v1/orders/:id/invoice` both become `/v1/orders/{}/invoice`. */
const normalize = (path) => path.replace(/\{[^}]+\}|:[A-Za-z_]+|\$\{[^}]*\}/g, '{}')
const key = (method, path) => `${method} ${normalize(path)}`

/** The SDK's service files of one API version: `products.mjs`, `customer_portal/license_keys.mjs`, `customers/index.mjs`. */
function serviceFiles(dir, prefix = []) {
  const files = []
  for (const entry of readdirSync(dir, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) files.push(...serviceFiles(join(dir, entry.name), [...prefix, entry.name]))
    else if (entry.name.endsWith('.mjs')) {
      // index.mjs, and a file named as a folder above it (oauth2/clients/oauth2.mjs), are their folder's
      const name = entry.name.slice(0, -4)
      files.push({file: join(dir, entry.name), resource: [...prefix, ...(name === 'index' || prefix.includes(name) ? [] : [name])].join(':')})
    }
  }
  return files
}

const pascal = (snake) =>
  snake
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')
const snake = (camel) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * Every operation of the SDK 1.0.1 (API version SDK_VERSION): each function of its compiled services
 * (node_modules/@polar-sh/sdk/dist/<version>/services/**.mjs) that builds a request, with its method and
 * path; its id is `<resource>:<function without the resource's name>`, e.g. `orders:get`, `products:update_benefits`.
 */
function sdkOperations() {
  const dir = join(root, 'node_modules', '@polar-sh', 'sdk', 'dist', SDK_VERSION, 'services')
  const ops = []
  for (const {file, resource} of serviceFiles(dir)) {
    const text = readFileSync(file, 'utf8')
    const functions = [...text.matchAll(/^const (\w+) = \(client\) => \{/gm)]
    functions.forEach((fn, i) => {
      const body = text.slice(fn.index, functions[i + 1]?.index ?? text.length)
      const request = /client\.buildRequest\("([A-Z]+)", "([^"]+)"/.exec(body)
      if (!request) return // iterList*: pages through list*
      const suffix = pascal(resource.split(':').at(-1))
      const name = fn[1].endsWith(suffix) ? fn[1].slice(0, -suffix.length) : fn[1]
      ops.push({id: `${resource}:${snake(name)}`, resource, method: request[1], path: request[2], key: key(request[1], request[2])})
    })
  }
  if (ops.length === 0) throw new Error(`no SDK operations found under ${dir}`)
  return ops
}

async function emulatorRoutes() {
  const dist = join(root, 'dist', 'emulator')
  if (!existsSync(join(dist, 'resources', 'index.js'))) throw new Error('dist/emulator is missing: run `npm run build` first')
  const {Router} = await import(pathToFileURL(join(dist, 'core', 'http.js')).href)
  const {register} = await import(pathToFileURL(join(dist, 'resources', 'index.js')).href)
  const router = new Router()
  register(router)
  return new Set(router.table.filter((r) => r.path.startsWith('/v1/')).map((r) => key(r.method, r.path)))
}

// ---- till: the operations each command sends (./till-operations.js) --------------------------------

let perCommand
function commandOperations() {
  const {byCommand, unresolved} = tillOperations(root)
  perCommand = Object.fromEntries([...byCommand].sort(([a], [b]) => a.localeCompare(b)).map(([id, ops]) => [id, [...ops].sort()]))
  if (unresolved.length > 0) {
    console.error(`api-coverage: ${unresolved.length} request(s) whose path cannot be worked out from the source:`)
    for (const u of unresolved) console.error(`  ${u}`)
    console.error('give the path as a literal, a constant or a helper returning one (or mark a user-given path `// api-coverage: any path`)')
    process.exit(1)
  }
  const result = new Map()
  for (const [id, ops] of byCommand)
    for (const op of ops) {
      const [method, path] = op.split(' ')
      const k = key(method, path)
      result.set(k, [...(result.get(k) ?? []), id])
    }
  return result
}

// ---- report ------------------------------------------------------------------------------------------

const ops = sdkOperations()
const routes = await emulatorRoutes()
const commands = commandOperations()
const groups = new Map()
for (const op of ops) {
  const g = groups.get(op.resource) ?? {total: 0, emulator: 0, till: 0, missing: [], missingTill: []}
  g.total += 1
  const excepted = Object.hasOwn(EXCEPTIONS, `${op.method} ${op.path}`)
  if (routes.has(op.key)) g.emulator += 1
  else if (!excepted) g.missing.push(`${op.method} ${op.path}`)
  if (commands.has(op.key)) g.till += 1
  else if (routes.has(op.key) && !Object.hasOwn(TILL_EXCEPTIONS, `${op.method} ${op.path}`)) g.missingTill.push(`${op.method} ${op.path}`)
  groups.set(op.resource, g)
}
const totals = [...groups.values()].reduce((t, g) => ({total: t.total + g.total, emulator: t.emulator + g.emulator, till: t.till + g.till}), {
  total: 0,
  emulator: 0,
  till: 0,
})
const rows = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))

if (json) {
  const operations = ops.map((op) => ({
    id: op.id,
    resource: op.resource,
    method: op.method,
    path: op.path,
    emulator: routes.has(op.key),
    commands: commands.get(op.key) ?? [],
  }))
  console.log(JSON.stringify({totals, operations, exceptions: EXCEPTIONS, tillExceptions: TILL_EXCEPTIONS, till: perCommand}, null, 2))
} else if (markdown) {
  console.log('| SDK resource | operations | emulator | till commands |')
  console.log('|---|---:|---:|---:|')
  for (const [name, g] of rows) console.log(`| ${name} | ${g.total} | ${g.emulator} | ${g.till} |`)
  console.log(`| **all** | **${totals.total}** | **${totals.emulator}** | **${totals.till}** |`)
  console.log('')
  for (const [op, why] of Object.entries(EXCEPTIONS)) console.log(`Not served, by design: \`${op}\`: ${why}.`)
  for (const [op, why] of Object.entries(TILL_EXCEPTIONS)) console.log(`\nSent by no command, by design: \`${op}\`: ${why}.`)
} else {
  const width = Math.max(...rows.map(([n]) => n.length), 12)
  console.log(`${'SDK resource'.padEnd(width)}  ops  emulator  till`)
  for (const [name, g] of rows)
    console.log(`${name.padEnd(width)}  ${String(g.total).padStart(3)}  ${String(g.emulator).padStart(8)}  ${String(g.till).padStart(4)}`)
  console.log(`${'all'.padEnd(width)}  ${String(totals.total).padStart(3)}  ${String(totals.emulator).padStart(8)}  ${String(totals.till).padStart(4)}`)
  console.log(`\n${totals.emulator} of ${totals.total} SDK operations answered by the emulator, ${totals.till} called by till commands.`)
  console.log('\nExceptions, by reason:')
  for (const [op, why] of Object.entries(EXCEPTIONS)) console.log(`  ${op}: ${why}`)
  for (const [op, why] of Object.entries(TILL_EXCEPTIONS)) console.log(`  ${op} (sent by no command): ${why}`)
}
if (showMissing) {
  console.log('\nNot in the emulator:')
  for (const [name, g] of rows) for (const m of g.missing) console.log(`  ${name}: ${m}`)
}
if (showMissingTill && !json) {
  console.log('\nIn the emulator, sent by no till command:')
  for (const [name, g] of rows) for (const m of g.missingTill) console.log(`  ${name}: ${m}`)
  const sdkKeys = new Set(ops.map((op) => op.key))
  const extra = [...routes].filter((k) => !sdkKeys.has(k) && !commands.has(k)).sort()
  for (const k of extra) console.log(`  (not in the SDK): ${k}`)
}
