#!/usr/bin/env node
// The API coverage report (`npm run api-coverage`): every operation of the service's TypeScript SDK
// (@polar-sh/sdk 0.49, a dev dependency), whether the emulator implements it and whether a till command
// calls it, with counts per resource. Nothing here is a hand-kept list:
//   - SDK operations: read from the SDK's own sources (node_modules/@polar-sh/sdk/src/funcs/*.ts:
//     operationID, method, path);
//   - emulator: the route table of the built emulator (dist/emulator/resources, Router.table), matched on
//     method + path; a new resource folder shows up as soon as it is registered;
//   - till: for each command (src/commands/**), the client functions (src/client/resources/*.ts) it
//     reaches through its imports, and the method + path each of those functions sends.
// It prints; it never fails for missing operations (exit 1 only when it cannot read its inputs).
//   --markdown   the table for the README
//   --missing    also list the operations the emulator lacks
import {readdirSync, readFileSync, existsSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const markdown = process.argv.includes('--markdown')
const showMissing = process.argv.includes('--missing')

/** `/v1/orders/{id}/invoice` and `/v1/orders/:id/invoice` both become `/v1/orders/{}/invoice`. */
const normalize = (path) => path.replace(/\{[^}]+\}|:[A-Za-z_]+|\$\{[^}]*\}/g, '{}')
const key = (method, path) => `${method} ${normalize(path)}`

function sdkOperations() {
  const dir = join(root, 'node_modules', '@polar-sh', 'sdk', 'src', 'funcs')
  const ops = []
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    const text = readFileSync(join(dir, file), 'utf8')
    const id = /operationID:\s*"([^"]+)"/.exec(text)?.[1]
    const method = /method:\s*"([A-Z]+)"/.exec(text)?.[1]
    const path = /pathToFunc\(\s*"([^"]+)"/.exec(text)?.[1]
    if (!id || !method || !path) continue
    const parts = id.split(':')
    const resource = parts.length > 2 ? `${parts[0]}:${parts[1]}` : parts[0]
    ops.push({id, resource, method, path, key: key(method, path)})
  }
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

// ---- till: client functions and the commands that reach them -------------------------------------

/** The top-level declarations of a TypeScript file: name -> its text. */
function declarations(text) {
  const decls = new Map()
  const starts = [...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:const|function\*?|let)\s+([A-Za-z_$][\w$]*)/gm)]
  starts.forEach((m, i) => decls.set(m[1], text.slice(m.index, i + 1 < starts.length ? starts[i + 1].index : text.length)))
  return decls
}

/** The method + path pairs one client function sends (literal paths, file constants, local path helpers). */
function clientCalls(decls, name, constants, seen = new Set()) {
  if (seen.has(name)) return []
  seen.add(name)
  const body = decls.get(name) ?? ''
  const calls = []
  const callRe = /\bclient\.(get|post|patch|put|delete)\b[^(]*\(|\blistItems\s*\(\s*client\s*,/g
  for (const m of body.matchAll(callRe)) {
    const method = m[1] ? m[1].toUpperCase() : 'GET'
    const rest = body.slice(m.index + m[0].length, m.index + m[0].length + 300)
    const literal = /^\s*(['`])(\/[^'`]*|\$\{[A-Z_]+\}[^'`]*)\1/.exec(rest)
    if (literal) {
      calls.push({method, path: literal[2].replace(/\$\{([A-Z_]+)\}/g, (_, c) => constants.get(c) ?? '')})
      continue
    }
    const helper = /^\s*([A-Za-z_$][\w$]*)\s*\(/.exec(rest)
    if (helper && decls.has(helper[1])) {
      for (const p of (decls.get(helper[1]) ?? '').matchAll(/`(\/[^`]*)`|'(\/[^']*)'/g)) calls.push({method, path: p[1] ?? p[2]})
    }
  }
  // Functions that call other client functions of the same file.
  for (const [other] of decls) if (other !== name && new RegExp(`\\b${other}\\(client`).test(body)) calls.push(...clientCalls(decls, other, constants, seen))
  return calls
}

function clientFunctions() {
  const dir = join(root, 'src', 'client', 'resources')
  const byFile = new Map()
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8')
    const constants = new Map([...text.matchAll(/^(?:export\s+)?const\s+([A-Z_]+)\s*=\s*'([^']*)'/gm)].map((m) => [m[1], m[2]]))
    const decls = declarations(text)
    const fns = new Map()
    for (const name of decls.keys()) fns.set(name, clientCalls(decls, name, constants).map((c) => key(c.method, `/v1${c.path}`)))
    byFile.set(resolve(dir, file), fns)
  }
  return byFile
}

function walk(dir) {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []))
}

/** Operations (method + path keys) each till command reaches, through its imports inside src/. */
function commandOperations() {
  const fns = clientFunctions()
  const src = join(root, 'src')
  const importsOf = new Map()
  const imports = (file) => {
    if (!importsOf.has(file)) {
      const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
      importsOf.set(file, [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)].map((m) => ({
        names: m[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter(Boolean),
        file: resolve(dirname(file), m[2].replace(/\.js$/, '.ts')),
      })))
    }
    return importsOf.get(file)
  }
  const result = new Map()
  for (const command of walk(join(src, 'commands'))) {
    const id = relative(join(src, 'commands'), command).replace(/\.ts$/, '').replace(/\/index$/, '').split('/').join(' ')
    const reached = new Set()
    const queue = [command]
    const visited = new Set()
    while (queue.length > 0) {
      const file = queue.pop()
      if (visited.has(file)) continue
      visited.add(file)
      for (const imp of imports(file)) {
        const resourceFns = fns.get(imp.file)
        if (resourceFns) for (const n of imp.names) for (const k of resourceFns.get(n) ?? []) reached.add(k)
        else if (imp.file.startsWith(join(src, 'areas')) || imp.file.startsWith(join(src, 'commands'))) queue.push(imp.file)
      }
    }
    for (const k of reached) result.set(k, [...(result.get(k) ?? []), id])
  }
  return result
}

// ---- report ------------------------------------------------------------------------------------------

const ops = sdkOperations()
const routes = await emulatorRoutes()
const commands = commandOperations()
const groups = new Map()
for (const op of ops) {
  const g = groups.get(op.resource) ?? {total: 0, emulator: 0, till: 0, missing: []}
  g.total += 1
  if (routes.has(op.key)) g.emulator += 1
  else g.missing.push(`${op.method} ${op.path}`)
  if (commands.has(op.key)) g.till += 1
  groups.set(op.resource, g)
}
const totals = [...groups.values()].reduce((t, g) => ({total: t.total + g.total, emulator: t.emulator + g.emulator, till: t.till + g.till}), {total: 0, emulator: 0, till: 0})
const rows = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))

if (markdown) {
  console.log('| SDK resource | operations | emulator | till commands |')
  console.log('|---|---:|---:|---:|')
  for (const [name, g] of rows) console.log(`| ${name} | ${g.total} | ${g.emulator} | ${g.till} |`)
  console.log(`| **all** | **${totals.total}** | **${totals.emulator}** | **${totals.till}** |`)
} else {
  const width = Math.max(...rows.map(([n]) => n.length), 12)
  console.log(`${'SDK resource'.padEnd(width)}  ops  emulator  till`)
  for (const [name, g] of rows) console.log(`${name.padEnd(width)}  ${String(g.total).padStart(3)}  ${String(g.emulator).padStart(8)}  ${String(g.till).padStart(4)}`)
  console.log(`${'all'.padEnd(width)}  ${String(totals.total).padStart(3)}  ${String(totals.emulator).padStart(8)}  ${String(totals.till).padStart(4)}`)
  console.log(`\n${totals.emulator} of ${totals.total} SDK operations answered by the emulator, ${totals.till} called by till commands.`)
}
if (showMissing) {
  console.log('\nNot in the emulator:')
  for (const [name, g] of rows) for (const m of g.missing) console.log(`  ${name}: ${m}`)
}
