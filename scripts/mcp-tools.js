#!/usr/bin/env node
// The tools of `till mcp` (src/areas/mcp), made at build time from the resource descriptions
// (src/client/resources/described.ts: each resource's operations by operation id), the operation table
// (src/client/operations.generated.ts) and the published document (contract/2026-10.openapi.json: each
// operation's path and query parameters and its JSON body), into dist/bundle/mcp-tools.json. The package
// ships no contract: the schemas the tools need travel in that file, read only by `till mcp`.
// An operation is a tool when an organization token may send it and it takes and answers JSON: the
// Customer Portal's (a customer session's) and the CSV exports are not.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const load = (path) => import(pathToFileURL(join(dist, ...path.split('/'))).href)
const {RESOURCES, isList} = await load('client/resources/described.js')
const {OPERATIONS} = await load('client/operations.generated.js')
const contract = JSON.parse(readFileSync(join(root, 'contract', '2026-10.openapi.json'), 'utf8'))

const REF = '#/components/schemas/'
/** The component schemas a schema names, and theirs in turn, into `into`. */
function collectRefs(schema, into) {
  if (Array.isArray(schema)) for (const s of schema) collectRefs(s, into)
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF)) {
        const name = value.slice(REF.length)
        if (!into.has(name)) {
          into.add(name)
          collectRefs(contract.components.schemas[name], into)
        }
      } else collectRefs(value, into)
    }
  }
}

/** What a tool's input is: its path and query parameters by name, and `body` for the JSON body. */
function inputOf(doc) {
  const properties = {}
  const required = []
  const path = []
  const query = []
  for (const p of doc.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue
    properties[p.name] = p.schema ?? {type: 'string'}
    if (p.required) required.push(p.name)
    ;(p.in === 'path' ? path : query).push(p.name)
  }
  const body = doc.requestBody?.content?.['application/json']?.schema
  if (body) {
    properties.body = body
    if (doc.requestBody.required) required.push('body')
  }
  return {schema: {type: 'object', properties, required, additionalProperties: false}, pathParams: path, query, body: Boolean(body)}
}

const takesJson = (doc) => {
  const answers = Object.entries(doc.responses ?? {}).filter(([status]) => /^2/.test(status))
  const jsonAnswer = answers.every(([, r]) => !r.content || r.content['application/json'])
  const jsonBody = !doc.requestBody || doc.requestBody.content?.['application/json']
  return jsonAnswer && jsonBody
}

const tools = []
const refs = new Set()
for (const resource of RESOURCES) {
  for (const id of resource.operations) {
    const op = OPERATIONS[id]
    if (!op.auth.includes('oat') && !op.auth.includes('pat')) continue
    const doc = contract.paths[op.path]?.[op.method.toLowerCase()]
    if (!doc || !takesJson(doc)) continue
    const input = inputOf(doc)
    collectRefs(input.schema, refs)
    tools.push({
      operation: id,
      method: op.method,
      path: op.path,
      noun: resource.noun,
      topic: resource.topic,
      scopes: op.scopes,
      list: isList(id) && input.query.includes('page'),
      ...input,
    })
  }
}
const schemas = Object.fromEntries([...refs].sort().map((name) => [name, contract.components.schemas[name]]))
const out = join(dist, 'bundle', 'mcp-tools.json')
mkdirSync(dirname(out), {recursive: true})
writeFileSync(out, JSON.stringify({tools, schemas}))
