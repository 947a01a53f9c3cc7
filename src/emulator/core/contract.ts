// The contract mode: the service's published OpenAPI document decides what a request may carry and what
// an answer must hold. Every request the emulator receives is checked against its operation's
// parameters, body schema and media types; every answer against the documented schema for its status.
// A request the document refuses is answered 422 as the service would; anything else that departs from
// the document is a violation, handed to `record` (see contract-mode.ts); so is a property of a valid body
// that its schema does not declare, which the service ignores (contract-extras.ts).
//
// Validation is JSON Schema 2020-12 (the dialect of OpenAPI 3.1) with ajv; each schema is compiled on
// first use and kept for the life of the process.
import {readFileSync} from 'node:fs'

import type {Ajv2020, ValidateFunction} from 'ajv/dist/2020.js'
import FindMyWay from 'find-my-way'

import {undeclared, type Walker} from './contract-extras.js'
import {NONE, type Newer, newerBeside, withNewer} from './contract-newer.js'
import {newAjvs, rebase} from './contract-schemas.js'
import {describe, preview, toIssues} from './contract-issues.js'
import {DEPARTURES, UNPUBLISHED} from './contract-known.js'
import type {ValidationIssue} from './errors.js'

type Json = Record<string, unknown>

interface Parameter {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  style?: string
  required?: boolean
  schema?: Json
}

interface MediaTypes {
  content?: Record<string, {schema?: Json}>
}

export interface Operation {
  id: string
  method: string
  /** The document's path template, `/v1/products/{id}`. */
  path: string
  parameters: Parameter[]
  requestBody?: MediaTypes & {required?: boolean}
  responses: Record<string, MediaTypes>
  /** The OAuth2 scopes that each accept the operation (any one is enough). */
  scopes: string[]
}

/** One departure from the document, as recorded. */
export interface Violation {
  /** Who departed: till (its request) or the emulator (its answer). */
  side: 'request' | 'answer'
  method: string
  path: string
  operation: string | null
  status?: number
  /** Where in the message, e.g. `body.items[0].start_timestamp` or `query.type_filter`. */
  at: string
  /** The schema location that refused it, e.g. `#/components/schemas/OrderItemSchema/required`. */
  schemaPath: string
  message: string
  /** A request the emulator refused with the service's 422, as the service would. */
  refused?: boolean
}

export interface RequestCheck {
  operation: Operation | null
  /** The service's 422 for a request its schemas refuse (answered instead of the emulator's route). */
  refusal?: ValidationIssue[]
  violations: Violation[]
}

/** The framework's 422 for input its models refuse (`{detail: [{type, loc, msg, input}]}`). */
const VALIDATION_ANSWER: MediaTypes = {content: {'application/json': {schema: {$ref: '#/components/schemas/HTTPValidationError'}}}}

/** The published document, indexed by method and path, with its validators. */
export class Contract {
  readonly document: Json
  private readonly operations = FindMyWay({ignoreTrailingSlash: false, maxParamLength: 1000})
  private readonly byId = new Map<string, Operation>()
  /** Bodies and answers: types as they are. */
  private readonly ajv: Ajv2020
  /** Parameters: strings from the URL coerced to the schema's types (`?page=2`, `?id=a` as a list). */
  private readonly ajvParams: Ajv2020
  private readonly compiled = new Map<string, ValidateFunction>()
  private readonly members = new WeakMap<Json, ValidateFunction>()
  /** How the search for undeclared body properties reads the document and tests a union's members. */
  private readonly walker: Walker = {
    resolve: (ref) => this.deref<Json>({$ref: ref}),
    validates: (schema, value) => {
      let validate = this.members.get(schema)
      if (!validate) {
        validate = this.ajv.compile({$schema: 'https://json-schema.org/draft/2020-12/schema', ...rebase(schema)})
        this.members.set(schema, validate)
      }
      return validate(value)
    },
  }

  /** The published document, with the facts newer than it (none when not given). */
  constructor(published: Json, newer: Newer = NONE) {
    const document = withNewer(published, newer)
    this.document = document
    const {bodies, params} = newAjvs(document)
    this.ajv = bodies
    this.ajvParams = params
    const paths = document.paths as Record<string, Record<string, Json>>
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, raw] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
        const op: Operation = {
          id: raw.operationId as string,
          method: method.toUpperCase(),
          path,
          parameters: ((raw.parameters as unknown[] | undefined) ?? []).map((p) => this.deref<Parameter>(p)),
          requestBody: raw.requestBody ? this.deref<Operation['requestBody']>(raw.requestBody) : undefined,
          responses: Object.fromEntries(Object.entries((raw.responses as Record<string, unknown>) ?? {}).map(([k, v]) => [k, this.deref<MediaTypes>(v)])),
          scopes: scopesOf(raw.security as Array<Record<string, string[]>> | undefined),
        }
        this.byId.set(op.id, op)
        this.operations.on(op.method as FindMyWay.HTTPMethod, path.replace(/\{([^}]+)\}/g, ':$1'), () => {}, op)
      }
    }
  }

  static load(file: string): Contract {
    return new Contract(JSON.parse(readFileSync(file, 'utf8')) as Json, newerBeside(file))
  }

  /** Every operation of the document. */
  all(): Operation[] {
    return [...this.byId.values()]
  }

  operation(id: string): Operation | undefined {
    return this.byId.get(id)
  }

  /** The operation a request's method and path name, with its path parameters; null when none does. */
  find(method: string, path: string): {operation: Operation; params: Record<string, string>} | null {
    const found = this.operations.find(method as FindMyWay.HTTPMethod, path)
    return found ? {operation: found.store as Operation, params: found.params as Record<string, string>} : null
  }

  checkRequest(req: {
    method: string
    path: string
    query: URLSearchParams
    headers: Record<string, string | string[] | undefined>
    body: unknown
    hasBody: boolean
  }): RequestCheck {
    const found = this.find(req.method, req.path)
    const base = {method: req.method, path: req.path}
    if (!found) {
      if (UNPUBLISHED.some((u) => u.method === req.method && u.path.test(req.path))) return {operation: null, violations: []}
      return {
        operation: null,
        violations: [
          {
            ...base,
            side: 'request',
            operation: null,
            at: 'path',
            schemaPath: '#/paths',
            message: `no operation of the published document is ${req.method} ${req.path}`,
          },
        ],
      }
    }
    const {operation: op, params} = found
    const violations: Violation[] = []
    const issues: ValidationIssue[] = []
    const at = (v: Omit<Violation, 'method' | 'path' | 'operation' | 'side'>) => violations.push({...base, side: 'request', operation: op.id, ...v})

    // parameters: path and query (headers and cookies are the framework's business)
    const known = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))
    for (const name of new Set(req.query.keys())) {
      if (!known.has(name.replace(/\[[^\]]*\]$/, '')))
        at({
          at: `query.${name}`,
          schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}/parameters`,
          message: `query parameter "${name}" is not one of the operation's (${[...known].join(', ') || 'none'}); the service ignores it`,
        })
    }
    for (const p of op.parameters) {
      if (p.in !== 'query' && p.in !== 'path') continue
      if (p.style === 'deepObject') {
        // `metadata[tier]=pro&metadata[tier]=team`: an object of the keys in brackets
        const object: Record<string, string | string[]> = {}
        for (const [key, value] of req.query) {
          const inner = key.startsWith(`${p.name}[`) && key.endsWith(']') ? key.slice(p.name.length + 1, -1) : undefined
          if (inner !== undefined) object[inner] = object[inner] === undefined ? value : [object[inner]].flat().concat(value)
        }
        if (Object.keys(object).length > 0 && p.schema) this.checkParam(op, p, object, issues)
        continue
      }
      const values = p.in === 'path' ? (params[p.name] === undefined ? [] : [params[p.name]!]) : req.query.getAll(p.name)
      if (values.length === 0) {
        if (p.required) issues.push({type: 'missing', loc: [p.in, p.name], msg: 'Field required', input: null})
        continue
      }
      // a parameter that takes no list takes the last of repeated values, as the service's framework does
      if (p.schema) this.checkParam(op, p, !takesList(p.schema) ? values.at(-1) : values.length === 1 && p.schema.type !== 'array' ? values[0] : values, issues)
    }

    // the body: its media type, then its schema
    const content = op.requestBody?.content
    if (req.hasBody && content) {
      const type = mediaType(req.headers['content-type']) ?? 'application/json'
      if (!content[type])
        at({
          at: 'headers.content-type',
          schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}/requestBody/content`,
          message: `a body of type ${type} where the operation takes ${Object.keys(content).join(' or ')}`,
        })
      const schema = content[type]?.schema
      if (schema && type === 'application/json') {
        const validate = this.compile(`body:${op.id}`, schema, this.ajv)
        if (!validate(req.body)) issues.push(...toIssues(validate.errors ?? [], ['body'], req.body))
        else
          for (const u of undeclared(schema, req.body, this.walker))
            at({at: u.at, schemaPath: u.schemaPath, message: `not a property of ${u.model}; the service ignores it`})
      }
    } else if (!req.hasBody && op.requestBody?.required) {
      issues.push({type: 'missing', loc: ['body'], msg: 'Field required', input: null})
    } else if (req.hasBody && !content) {
      at({at: 'body', schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}`, message: 'a body sent to an operation that takes none'})
    }

    // what the client accepts: some answer of the operation must be of that type
    const accept = req.headers.accept
    if (typeof accept === 'string') {
      const offered = successTypes(op)
      if (offered.length > 0 && !offered.some((type) => acceptable(accept, type))) {
        at({
          at: 'headers.accept',
          schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}/responses`,
          message: `Accept: ${accept}, but the operation answers only ${offered.join(' or ')}`,
        })
      }
    }

    for (const issue of issues) {
      at({
        at: issue.loc.join('.'),
        schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}`,
        message: `${issue.msg}${issue.input !== undefined && issue.input !== null ? ` (got ${preview(issue.input)})` : ''}`,
        refused: true,
      })
    }
    return {operation: op, refusal: issues.length > 0 ? issues : undefined, violations}
  }

  /** Checks an answer against the operation's documented answer for its status. */
  checkAnswer(op: Operation, answer: {status: number; contentType: string | undefined; body: unknown}): Violation[] {
    const base = {side: 'answer' as const, method: op.method, path: op.path, operation: op.id, status: answer.status}
    if (DEPARTURES.some((d) => d.operation === op.id && d.status === answer.status && d.when(answer.body))) return []
    // every operation that reads input may answer the framework's validation error, even where the document
    // names only a domain error for its 422 (POST /v1/orders/{id}/invoice: MissingInvoiceBillingDetails)
    const validation = answer.status === 422 && Array.isArray((answer.body as {detail?: unknown} | null)?.detail)
    const documented = validation
      ? VALIDATION_ANSWER
      : (op.responses[String(answer.status)] ?? op.responses[`${String(answer.status)[0]}XX`] ?? op.responses.default)
    if (!documented) {
      if (answer.status >= 200 && answer.status < 300) {
        return [
          {
            ...base,
            at: 'status',
            schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}/responses`,
            message: `status ${answer.status} where the operation answers ${Object.keys(op.responses).join(', ')}`,
          },
        ]
      }
      return []
    }
    const content = documented.content
    if (!content) return []
    const type = mediaType(answer.contentType)
    if (type === undefined) {
      return answer.status === 204
        ? []
        : [{...base, at: 'headers.content-type', schemaPath: '', message: `no body, where the operation answers ${Object.keys(content).join(' or ')}`}]
    }
    if (!content[type]) {
      return [
        {
          ...base,
          at: 'headers.content-type',
          schemaPath: `#/paths/${op.path}/${op.method.toLowerCase()}/responses/${answer.status}/content`,
          message: `an answer of type ${type} where the operation answers ${Object.keys(content).join(' or ')}`,
        },
      ]
    }
    const schema = content[type]!.schema
    if (!schema || type !== 'application/json') return []
    const validate = this.compile(validation ? 'answer:validation' : `answer:${op.id}:${answer.status}`, schema, this.ajv)
    if (validate(answer.body)) return []
    return describe(validate.errors ?? []).map((e) => ({...base, at: `body${e.at}`, schemaPath: e.schemaPath, message: e.message}))
  }

  /** A parameter's value, strings from the URL coerced to its schema's types. */
  private checkParam(op: Operation, p: Parameter, value: unknown, issues: ValidationIssue[]): void {
    const validate = this.compile(`param:${op.id}:${p.in}:${p.name}`, {type: 'object', properties: {value: p.schema}}, this.ajvParams)
    if (!validate({value})) issues.push(...toIssues(validate.errors ?? [], [p.in, p.name], value, '/value'))
  }

  private compile(key: string, schema: Json, ajv: Ajv2020): ValidateFunction {
    let validate = this.compiled.get(key)
    if (!validate) {
      validate = ajv.compile({$schema: 'https://json-schema.org/draft/2020-12/schema', ...rebase(schema)})
      this.compiled.set(key, validate)
    }
    return validate
  }

  /** Follows a `$ref` to a component (parameters, request bodies, responses may be references). */
  private deref<T>(value: unknown): T {
    let current = value as Json
    while (typeof current.$ref === 'string') {
      const path = (current.$ref as string).replace(/^#\//, '').split('/')
      current = path.reduce<Json>((o, k) => o[k] as Json, this.document)
    }
    return current as T
  }
}

function scopesOf(security: Array<Record<string, string[]>> | undefined): string[] {
  const scopes = new Set<string>()
  for (const requirement of security ?? []) for (const list of Object.values(requirement)) for (const s of list) scopes.add(s)
  return [...scopes]
}

/** A schema that takes a list, alone or as one of its forms (`?id=a&id=b`). */
function takesList(schema: Json): boolean {
  return schema.type === 'array' || ((schema.anyOf ?? schema.oneOf) as Json[] | undefined)?.some((s) => s.type === 'array') === true
}

function mediaType(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  return value.split(';')[0]!.trim().toLowerCase() || undefined
}

function successTypes(op: Operation): string[] {
  const types = new Set<string>()
  for (const [status, r] of Object.entries(op.responses)) if (status.startsWith('2')) for (const t of Object.keys(r.content ?? {})) types.add(t)
  return [...types]
}

/** Whether an Accept header allows `type` (with or without a q of 0, wildcards included). */
function acceptable(accept: string, type: string): boolean {
  const [major] = type.split('/')
  return accept.split(',').some((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false
    return range === '*/*' || range === type || range === `${major}/*`
  })
}
