// Request schemas are zod schemas; this turns zod's issues into the 422 `detail` arrays
// the real service (FastAPI + pydantic) produces (server/polar/exception_handlers.py).
import {z} from './zod.js'
import {COUNTRIES} from '../../client/countries.js'
import {nestingDepth} from '../../client/json-depth.js'
import {carryProtoKey, restoreProtoKey} from '../../client/own-keys.js'

import {requestValidation, type ValidationIssue} from './errors.js'

type Issue = z.core.$ZodIssue

const quote = (v: unknown) => (typeof v === 'string' ? `'${v}'` : String(v))

function listWords(values: readonly unknown[]): string {
  const q = values.map(quote)
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q.at(-1)}`
}

const TYPE_WORDS: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list'],
  tuple: ['tuple_type', 'Input should be a valid tuple'],
  null: ['none_required', 'Input should be None'],
}

function convert(issue: Issue, prefix: Array<string | number>): ValidationIssue[] {
  const loc = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))]
  const input = issue.input
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return [{type: 'missing', loc, msg: 'Field required', input: null}]
      if (issue.expected === 'int' && typeof input === 'number') {
        return [{type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input}]
      }
      const [type, msg] = TYPE_WORDS[issue.expected] ?? ['value_error', `Input should be a valid ${issue.expected}`]
      return [{type, loc, msg, input}]
    }
    case 'too_small': {
      const min = Number(issue.minimum)
      if (issue.origin === 'string') {
        return [{type: 'string_too_short', loc, msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`, input, ctx: {min_length: min}}]
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return [
          {
            type: 'too_short',
            loc,
            msg: `List should have at least ${min} item${min === 1 ? '' : 's'} after validation, not ${(input as unknown[])?.length ?? 0}`,
            input,
            ctx: {min_length: min},
          },
        ]
      }
      return issue.inclusive
        ? [{type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${min}`, input, ctx: {ge: min}}]
        : [{type: 'greater_than', loc, msg: `Input should be greater than ${min}`, input, ctx: {gt: min}}]
    }
    case 'too_big': {
      const max = Number(issue.maximum)
      if (issue.origin === 'string') {
        return [{type: 'string_too_long', loc, msg: `String should have at most ${max} character${max === 1 ? '' : 's'}`, input, ctx: {max_length: max}}]
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return [
          {
            type: 'too_long',
            loc,
            msg: `List should have at most ${max} item${max === 1 ? '' : 's'} after validation, not ${(input as unknown[])?.length ?? 0}`,
            input,
            ctx: {max_length: max},
          },
        ]
      }
      if (issue.origin === 'object' || issue.origin === 'record') {
        return [{type: 'too_long', loc, msg: `Dictionary should have at most ${max} items`, input, ctx: {max_length: max}}]
      }
      return issue.inclusive
        ? [{type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${max}`, input, ctx: {le: max}}]
        : [{type: 'less_than', loc, msg: `Input should be less than ${max}`, input, ctx: {lt: max}}]
    }
    case 'invalid_value': {
      if (input === undefined) return [{type: 'missing', loc, msg: 'Field required', input: null}]
      if (issue.values.length === 1) {
        return [{type: 'literal_error', loc, msg: `Input should be ${quote(issue.values[0])}`, input, ctx: {expected: quote(issue.values[0])}}]
      }
      const expected = listWords(issue.values)
      return [{type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: {expected}}]
    }
    case 'invalid_format': {
      switch (issue.format) {
        case 'uuid':
        case 'guid':
          return [{type: 'uuid_parsing', loc, msg: 'Input should be a valid UUID, invalid character or length', input}]
        case 'email':
          return [{type: 'value_error', loc, msg: 'value is not a valid email address: The email address is not valid.', input}]
        case 'url':
          return [{type: 'url_parsing', loc, msg: 'Input should be a valid URL, relative URL without a base', input}]
        case 'datetime':
          return [{type: 'datetime_from_date_parsing', loc, msg: 'Input should be a valid datetime or date, invalid character in year', input}]
        default:
          return [{type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${(issue as {pattern?: string}).pattern ?? issue.format}'`, input}]
      }
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        type: 'extra_forbidden',
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        input: (input as Record<string, unknown>)?.[key],
      }))
    case 'invalid_union': {
      const discriminator = (issue as {discriminator?: string}).discriminator
      if ((issue as {note?: string}).note === 'No matching discriminator' || discriminator) {
        return [{type: 'union_tag_invalid', loc, msg: `Input tag found using ${quote(discriminator ?? 'type')} does not match any of the expected tags`, input}]
      }
      // Report the branch that got furthest: the one with the fewest issues.
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? []
      return best.flatMap((sub) => convert(sub as Issue, loc))
    }
    case 'custom':
      return [{type: 'value_error', loc, msg: issue.message, input}]
    default:
      return [{type: 'value_error', loc, msg: issue.message, input}]
  }
}

/** Parses `input` with `schema` or throws the service's 422 with a pydantic-style `detail` list. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, prefix: Array<string | number> = ['body']): z.output<S> {
  // A required body that is absent or JSON null: the framework's single `missing` at ["body"].
  if ((input === undefined || input === null) && prefix.length === 1 && !schema.safeParse(input).success) {
    throw requestValidation([{type: 'missing', loc: prefix, msg: 'Field required', input: null}])
  }
  const result = schema.safeParse(input, {reportInput: true})
  if (result.success) return result.data
  throw requestValidation(result.error.issues.flatMap((issue) => convert(issue, prefix)))
}

/** Parses a JSON request body; malformed JSON gets the framework's `json_invalid` 422. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return undefined
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw requestValidation([{type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: {error: (error as Error).message}}])
  }
  // Nesting is bounded, so that nothing echoed in an error can overflow the stack when it is sent.
  if (nestingDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw requestValidation([
      {type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: {error: `nesting deeper than ${MAX_JSON_DEPTH} levels`}},
    ])
  }
  return value
}

export const MAX_JSON_DEPTH = 200

// Shared pieces of request schemas.

// A metadata key "__proto__" is a key like any other to the service; zod builds a record by assignment,
// where that key would set the object's prototype and be lost: it is carried through (src/client/own-keys.ts).
export const metadataSchema = z
  .preprocess(
    carryProtoKey,
    z
      .record(z.string().min(1).max(40), z.union([z.string().min(1).max(500), z.int(), z.number(), z.boolean()]))
      .refine((m) => Object.keys(m).length <= 50, {message: 'Metadata should have at most 50 keys'}),
  )
  .transform((m) => restoreProtoKey(m) as Record<string, string | number | boolean>)

export const addressSchema = z.object({
  country: z.enum(COUNTRIES as [string, ...string[]]),
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  postal_code: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
})

export const uuid = () => z.uuid()

export const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i

// The framework's issues for a path or query value that does not parse (pydantic's types and messages).
type Loc = Array<string | number>
export const uuidIssue = (loc: Loc, input: unknown): ValidationIssue => ({
  type: 'uuid_parsing',
  loc,
  msg: 'Input should be a valid UUID, invalid character or length',
  input,
})
export const boolIssue = (loc: Loc, input: unknown): ValidationIssue => ({
  type: 'bool_parsing',
  loc,
  msg: 'Input should be a valid boolean, unable to interpret input',
  input,
})
export const intIssue = (loc: Loc, input: unknown): ValidationIssue => ({
  type: 'int_parsing',
  loc,
  msg: 'Input should be a valid integer, unable to parse string as an integer',
  input,
})

/** A boolean as the framework reads one from a query string; null for anything else. */
export function parseBool(raw: string): boolean | null {
  const v = raw.toLowerCase()
  if (['true', '1', 'yes', 'on', 't', 'y'].includes(v)) return true
  if (['false', '0', 'no', 'off', 'f', 'n'].includes(v)) return false
  return null
}

/** A UUID path parameter; anything else is the framework's 422 at `["path", name]`. */
export function pathUuid(params: Record<string, string>, name = 'id'): string {
  const value = params[name] ?? ''
  if (!UUID_RE.test(value)) throw requestValidation([uuidIssue(['path', name], value)])
  return normalizeUuid(value)
}

/** Lower case with dashes, whether or not the input had them. */
export function normalizeUuid(value: string): string {
  const hex = value.replaceAll('-', '').toLowerCase()
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
