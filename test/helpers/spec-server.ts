// A test server that answers every operation of the service's published OpenAPI document with a sample of
// its documented answer, not with the emulator's own data: what till must survive is whatever the
// document allows, not only what the emulator happens to send. Samples come from openapi-sampler over a
// copy of the document reshaped for one pass, with a seeded choice at every union (so each run is the
// same) and, per pass, adversarial leaves:
//   plain     the document's own examples, one union member chosen by the seed
//   nulls     every nullable field null
//   unknown   every string enum and const replaced by a value the document does not name (the service
//             adds enum values and union members; till shows them as they are)
//   extremes  integers negative, zero or 2^53-1, decimal strings signed, free text 500 characters long,
//             arrays empty where the document allows it
//   empty     like plain, but every list answer has no items
// A list answer (items + pagination) gets LIST_ITEMS items, each sampled with another seed, and a
// pagination saying there is one page. Every answer but those of `unknown` is checked against the
// document (`violations`), so the server cannot drift from what the service may send.
import {createServer, type Server} from 'node:http'
import {join} from 'node:path'
import type {AddressInfo} from 'node:net'

import {sample} from 'openapi-sampler'

import {Contract, type Operation, type Violation} from '../../src/emulator/core/contract.js'
import {ROOT} from './emulator.js'

export const SPEC_FILE = join(ROOT, 'contract', '2026-10.openapi.json')
export const PASSES = ['plain', 'nulls', 'unknown', 'extremes', 'empty'] as const
export type Pass = (typeof PASSES)[number]
export const LIST_ITEMS = 3
export const HUGE = Number.MAX_SAFE_INTEGER
export const LONG = 500

type Json = Record<string, unknown>

/** mulberry32: a small seeded generator, the same numbers for the same seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const hex = (rng: () => number, n: number) => Array.from({length: n}, () => Math.floor(rng() * 16).toString(16)).join('')
const uuid4 = (rng: () => number) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${'89ab'[Math.floor(rng() * 4)]}${hex(rng, 3)}-${hex(rng, 12)}`

const isNull = (s: unknown) => typeof s === 'object' && s !== null && (s as Json).type === 'null'

/** A number for the extremes pass that the node's bounds allow (negative, zero or huge), if any does. */
function extremeNumber(node: Json, rng: () => number): number | undefined {
  const fits = (n: number) =>
    (typeof node.minimum !== 'number' || n >= node.minimum) &&
    (typeof node.maximum !== 'number' || n <= node.maximum) &&
    (typeof node.exclusiveMinimum !== 'number' || n > node.exclusiveMinimum) &&
    (typeof node.exclusiveMaximum !== 'number' || n < node.exclusiveMaximum)
  const candidates = [-987_654_321, 0, HUGE, -1].filter(fits)
  return candidates.length > 0 ? candidates[Math.floor(rng() * candidates.length)] : undefined
}

/** Free text for the extremes pass, as long as the node allows (up to LONG characters). */
function extremeString(node: Json): string | undefined {
  if (node.format !== undefined || node.pattern !== undefined) return undefined
  const length = Math.max(Math.min(LONG, typeof node.maxLength === 'number' ? node.maxLength : LONG), typeof node.minLength === 'number' ? node.minLength : 0)
  return 'Ω long text with, commas; "quotes"\ttabs and\nnewlines '.repeat(20).slice(0, length).padEnd(length, 'x')
}

/** A string the node's pattern allows (openapi-sampler gives "string" for a pattern): plain or, for extremes, signed. */
function patterned(node: Json, pass: Pass, rng: () => number): string | undefined {
  const re = new RegExp(node.pattern as string, 'u')
  const candidates = (pass === 'extremes' ? ['-12345678901234.5678901', '-99999.999999999999', '-0.5', '+42', '0', '-7'] : ['12.5', '0.001', '42']).filter(
    (s) => re.test(s),
  )
  return candidates.length > 0 ? candidates[Math.floor(rng() * candidates.length)] : undefined
}

/** The components that can reach themselves through $refs (a filter's clauses hold filters). */
function cyclicComponents(document: Json): Set<string> {
  const schemas = (document.components as {schemas: Record<string, unknown>}).schemas
  const refs = new Map<string, string[]>()
  for (const [name, schema] of Object.entries(schemas)) {
    refs.set(
      name,
      [...JSON.stringify(schema).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!),
    )
  }
  const cyclic = new Set<string>()
  for (const start of refs.keys()) {
    const seen = new Set<string>()
    const stack = [...(refs.get(start) ?? [])]
    while (stack.length > 0) {
      const name = stack.pop()!
      if (name === start) {
        cyclic.add(start)
        break
      }
      if (seen.has(name)) continue
      seen.add(name)
      stack.push(...(refs.get(name) ?? []))
    }
  }
  return cyclic
}

let cyclic = new Set<string>()
const refersToCycle = (s: unknown) =>
  typeof s === 'object' && s !== null && typeof (s as Json).$ref === 'string' && cyclic.has(((s as Json).$ref as string).split('/').pop()!)

/** One schema node reshaped for a pass (its children are reshaped by the caller). */
function reshape(node: Json, pass: Pass, rng: () => number, unknownCount: {n: number}): Json {
  const out: Json = {...node}
  if (pass !== 'plain' && pass !== 'empty') {
    delete out.example
    delete out.examples
    delete out.default
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = out[key] as unknown[] | undefined
    if (!Array.isArray(members) || members.length === 0) continue
    const nullable = members.findIndex(isNull)
    let chosen: number
    if (pass === 'nulls' && nullable >= 0) chosen = nullable
    else {
      // a member that leads back to itself would be sampled as {} one level down: avoided when another is there
      const all = members.map((_, i) => i).filter((i) => pass === 'plain' || pass === 'empty' || i !== nullable || members.length === 1)
      const pool = all.some((i) => !refersToCycle(members[i])) ? all.filter((i) => !refersToCycle(members[i])) : all
      chosen = pool[Math.floor(rng() * pool.length)]!
    }
    // openapi-sampler merges a union's own keywords ({} for `title` alone) with its first member's
    // sample, which turns null into {}: a chosen null replaces the node
    if (chosen === nullable) return {type: 'null'}
    out[key] = [members[chosen], ...members.filter((_, i) => i !== chosen)]
  }
  if (Array.isArray(out.type) && out.type.includes('null')) {
    out.type = pass === 'nulls' ? 'null' : (out.type as string[]).filter((t) => t !== 'null')[0]
  }
  const format = out.format
  if (format === 'uuid4' || format === 'uuid') out.const = uuid4(rng)
  if (format === 'ipvanyaddress') out.const = '192.0.2.7'
  if (format === 'color') out.const = '#ff8800'
  if (format === 'duration') out.const = 'P1D'
  if (
    pass === 'unknown' &&
    (typeof out.const === 'string' || (Array.isArray(out.enum) && out.enum.every((v) => typeof v === 'string'))) &&
    format === undefined
  ) {
    delete out.enum
    out.const = `future_value_${++unknownCount.n}`
  }
  if (out.type === 'string' && typeof out.pattern === 'string' && out.const === undefined && out.enum === undefined) {
    const s = patterned(out, pass, rng)
    if (s !== undefined) out.const = s
  }
  if (pass === 'extremes' && out.const === undefined && out.enum === undefined) {
    if (out.type === 'integer' || out.type === 'number') {
      const n = extremeNumber(out, rng)
      if (n !== undefined) out.const = out.type === 'number' && n !== 0 && n !== HUGE ? n + 0.125 : n
    }
    if (out.type === 'string') {
      const s = extremeString(out)
      if (s !== undefined) out.const = s
    }
    if (out.type === 'array' && !(typeof out.minItems === 'number' && out.minItems > 0) && rng() < 0.5) out.maxItems = 0
  }
  return out
}

/** A deep copy of a schema (or of a whole document) with every schema node reshaped for the pass. */
function reshapeAll(value: unknown, pass: Pass, rng: () => number, unknownCount: {n: number}): unknown {
  if (Array.isArray(value)) return value.map((v) => reshapeAll(v, pass, rng, unknownCount))
  if (typeof value !== 'object' || value === null) return value
  const node = value as Json
  const copy: Json = {}
  for (const [k, v] of Object.entries(node)) copy[k] = reshapeAll(v, pass, rng, unknownCount)
  // a `properties` map may have a property named `type` or `format`: only keyword values count
  const looksLikeSchema =
    typeof node.type === 'string' ||
    Array.isArray(node.type) ||
    Array.isArray(node.anyOf) ||
    Array.isArray(node.oneOf) ||
    Array.isArray(node.enum) ||
    typeof node.format === 'string' ||
    (node.const !== undefined && typeof node.const !== 'object')
  return looksLikeSchema ? reshape(copy, pass, rng, unknownCount) : copy
}

export interface SpecServer {
  pass: Pass
  /** Base address, ending in `/v1`, as TILL_API_URL. */
  url: string
  /** Every request answered, with the operation it matched (null: the document has no such operation). */
  requests: Array<{method: string; path: string; operation: string | null; status: number}>
  /** Departures of this server's own answers from the document (none expected, except in `unknown`). */
  violations: Violation[]
  close(): Promise<void>
}

let contract: Contract | undefined
const loadContract = () => (contract ??= Contract.load(SPEC_FILE))

/** The answer status and JSON media type an operation documents for success (200, 201, 202 or 204). */
function success(op: Operation): {status: number; schema?: Json; contentType?: string} {
  const status =
    Object.keys(op.responses)
      .filter((s) => /^2\d\d$/.test(s))
      .sort()[0] ?? '200'
  const content = op.responses[status]?.content ?? {}
  const contentType = Object.keys(content)[0]
  return {status: Number(status), schema: contentType ? content[contentType]?.schema : undefined, contentType}
}

/** Whether the document has an operation for a request as the coverage report writes it (`GET /v1/orders/{}`). */
export function documented(request: string): boolean {
  const [method, path] = request.split(' ') as [string, string]
  return loadContract().find(method, path.replaceAll('{}', '7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d')) !== null
}

/** Starts a server on 127.0.0.1:0 answering every documented operation with samples of the pass. */
export async function startSpecServer(pass: Pass, seed = 31): Promise<SpecServer> {
  const spec = loadContract()
  cyclic = cyclicComponents(spec.document)
  const documents = Array.from({length: LIST_ITEMS}, (_, i) => {
    const doc = reshapeAll(spec.document, pass, seeded(seed + i * 7919), {n: 0}) as Json
    return doc
  })
  const cache = new Map<string, {status: number; contentType: string | undefined; body: unknown}>()
  const answerFor = (op: Operation) => {
    const cached = cache.get(op.id)
    if (cached) return cached
    const {status, schema, contentType} = success(op)
    let body: unknown
    if (contentType === 'application/json' && schema && Object.keys(schema).length === 0) {
      // an open schema ({}: the document does not describe the answer, e.g. an OAuth2 client): an object
      body = {}
    } else if (contentType === 'application/json' && schema) {
      const at = (i: number) => sample(reshapeAll(schema, pass, seeded(seed + i), {n: 1000}) as never, {skipWriteOnly: true, quiet: true}, documents[i]) as Json
      body = at(0)
      const list = body as {items?: unknown; pagination?: Json}
      if (typeof list === 'object' && list !== null && Array.isArray(list.items) && typeof list.pagination === 'object') {
        // an organization token sees its own organization only: that list has one item
        const count = op.id === 'organizations:list' ? 1 : pass === 'empty' ? 0 : LIST_ITEMS
        const items = Array.from({length: count}, (_, i) => (i === 0 ? (list.items as unknown[]) : (at(i).items as unknown[]))[0]).filter(
          (v) => v !== undefined,
        )
        // the extremes pass may sample that one list's array empty: its one item is sampled on its own
        if (op.id === 'organizations:list' && items.length === 0) {
          const organization = reshapeAll({$ref: '#/components/schemas/Organization'}, pass, seeded(seed), {n: 1000})
          items.push(sample(organization as never, {skipWriteOnly: true, quiet: true}, documents[0]) as Json)
        }
        body = {...list, items, pagination: 'has_next_page' in (list.pagination ?? {}) ? {has_next_page: false} : {total_count: items.length, max_page: 1}}
      }
    } else if (contentType) body = 'id,amount\n1,-5\n'
    const answer = {status, contentType, body}
    cache.set(op.id, answer)
    return answer
  }

  const server: SpecServer & {http?: Server} = {pass, url: '', requests: [], violations: [], close: async () => {}}
  const http = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      const found = spec.find(req.method ?? 'GET', path)
      if (!found) {
        server.requests.push({method: req.method ?? '', path, operation: null, status: 404})
        res.writeHead(404, {'content-type': 'application/json'}).end(JSON.stringify({detail: 'Not Found'}))
        return
      }
      const answer = answerFor(found.operation)
      server.requests.push({method: req.method ?? '', path, operation: found.operation.id, status: answer.status})
      if (pass !== 'unknown') server.violations.push(...spec.checkAnswer(found.operation, answer).map((v) => ({...v, path})))
      if (answer.contentType === undefined) {
        res.writeHead(answer.status).end()
        return
      }
      const text = answer.contentType === 'application/json' ? JSON.stringify(answer.body) : String(answer.body)
      res.writeHead(answer.status, {'content-type': answer.contentType}).end(text)
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`
  server.close = () =>
    new Promise((resolve) => {
      http.closeAllConnections()
      http.close(() => resolve())
    })
  return server
}
