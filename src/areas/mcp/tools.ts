// The tools of `till mcp`, one per operation of the resource descriptions that an organization token may
// send (made at build time by scripts/mcp-tools.js into dist/bundle/mcp-tools.json: its input schema from
// the published document), and what till's safety asks of each: whether it writes, and whether it moves
// money or destroys something, so that it answers a dry run before it acts.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

export interface Annotations {
  title?: string
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

/** One operation as scripts/mcp-tools.js writes it. */
export interface OperationTool {
  operation: string
  method: string
  path: string
  noun: string
  topic: string
  scopes: string[]
  /** A paginated list: its answer is a page (`items`) and its `pagination`. */
  list: boolean
  schema: {type: 'object'; properties: Record<string, unknown>; required: string[]; additionalProperties: false}
  /** The names of its path and query parameters (the rest of the input is `body`). */
  pathParams: string[]
  query: string[]
  body: boolean
}

interface Built {
  tools: OperationTool[]
  schemas: Record<string, unknown>
}

/**
 * Money-moving writes that are neither DELETEs nor named so: each answers a dry run first. A refund pays
 * money back; accepting a dispute gives up its amount; a subscription's update cancels it or changes its
 * plan (a proration is charged); a checkout's confirmation charges the buyer; finalizing a draft order
 * charges its saved payment method; a new endpoint secret makes the old one fail at once.
 */
const MONEY_MOVING = new Set([
  'refunds:create',
  'disputes:accept',
  'subscriptions:update',
  'checkouts:client_confirm',
  'orders:finalize',
  'webhooks:reset_webhook_endpoint_secret',
])

/** The tool's name: the operation id with `_` for `:` (`refunds:create` -> `refunds_create`). */
export const toolName = (operation: string) => operation.replaceAll(':', '_')

type Sent = {method: string; operation: string}

/** Whether a call of the operation acts only on a second call that confirms the dry run of the first. */
export const needsConfirmation = (t: Sent) => t.method === 'DELETE' || MONEY_MOVING.has(t.operation)

/**
 * Derived from the method and till's list above: the 2026-10 document carries no `x-tool-annotations`
 * (the service's routes declare them in `openapi_extra`, server/polar/<module>/endpoints.py, from 2027-01).
 */
export function annotationsOf(t: Sent): Annotations {
  const read = t.method === 'GET'
  return {
    readOnlyHint: read,
    destructiveHint: !read && needsConfirmation(t),
    idempotentHint: read || t.method === 'PUT' || t.method === 'PATCH' || t.method === 'DELETE',
    openWorldHint: true,
  }
}

let built: Built | undefined

/** The operations' tools as the build made them (beside the bundle). */
export function operationTools(bundleDir: string): Built {
  built ??= JSON.parse(readFileSync(join(bundleDir, 'mcp-tools.json'), 'utf8')) as Built
  return built
}

const REF = '#/components/schemas/'
type Json = Record<string, unknown>
/** A copy whose references name the schema's own `$defs`. */
const local = (value: Json): Json => JSON.parse(JSON.stringify(value).replaceAll(`"${REF}`, '"#/$defs/')) as Json

/** A tool's input schema on its own: the component schemas it names under `$defs`. */
export function inputSchema(t: OperationTool, schemas: Record<string, unknown>, confirm: boolean): Json {
  const names = new Set<string>()
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v)
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === '$ref' && typeof v === 'string' && v.startsWith(REF) && !names.has(v.slice(REF.length))) {
          names.add(v.slice(REF.length))
          walk(schemas[v.slice(REF.length)])
        } else walk(v)
      }
    }
  }
  walk(t.schema)
  const properties = {...t.schema.properties, ...(confirm ? {confirm: CONFIRM_PROPERTY} : {})}
  const schema = local({...t.schema, properties})
  if (names.size === 0) return schema
  return {...schema, $defs: local(Object.fromEntries([...names].map((n) => [n, schemas[n]])))}
}

export const CONFIRM_PROPERTY = {
  type: 'string',
  description: 'The confirmation token a dry run of this call returned: give it, with the same arguments, to act.',
}

const CONFIRMED = ' Answers a dry run first; acts only when called again with its `confirm` token.'
const REFUSED = ' A write: refused on a production profile unless till mcp was started with --allow-production-writes.'

/** What a tool says of itself: what it sends, what it needs, and what safety holds it. */
export function descriptionOf(t: OperationTool): string {
  const scopes = t.scopes.length > 0 ? ` Scopes (any one): ${t.scopes.join(', ')}.` : ''
  const page = t.list ? ' Answers one page (`limit` items, `page` from 1) and its `pagination`.' : ''
  const confirm = needsConfirmation(t) ? CONFIRMED : ''
  const write = t.method === 'GET' ? '' : REFUSED
  return `${t.operation} (${t.noun}, as till ${t.topic}): ${t.method} ${t.path}.${page}${scopes}${confirm}${write}`
}
