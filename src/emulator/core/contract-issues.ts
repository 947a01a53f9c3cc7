// The contract mode's words: ajv's errors as violations (the fewest that tell what is wrong where) and as
// the service's 422 `detail` items (pydantic's error types and messages where they map).
import type {ErrorObject} from 'ajv/dist/2020.js'

import type {ValidationIssue} from './errors.js'

export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** `/items/0/name` as `.items[0].name`. */
function dotted(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${unescapeKey(k)}`))
    .join('')
}

/**
 * ajv's errors, fewest and most telling first: a union (anyOf, oneOf) reports every branch's failure,
 * so an error is dropped when a deeper one explains the same place.
 */
export interface Described {
  error: ErrorObject
  /** `.items[0].name`: where in the instance. */
  at: string
  schemaPath: string
  message: string
}

export function describe(errors: ErrorObject[]): Described[] {
  const besideOthers = (e: ErrorObject) => errors.some((o) => o !== e && !UNION.has(o.keyword) && !isNullBranch(o) && o.instancePath.startsWith(e.instancePath))
  // a union reports each member's failure and its own: keep the errors that say what is wrong where
  const telling = errors.filter((e) => !((UNION.has(e.keyword) || isNullBranch(e)) && besideOthers(e)))
  const seen = new Set<string>()
  const out: Described[] = []
  for (const e of telling.length > 0 ? telling : errors) {
    const missing = e.keyword === 'required' ? `.${(e.params as {missingProperty: string}).missingProperty}` : ''
    const extra = e.keyword === 'additionalProperties' ? `.${(e.params as {additionalProperty: string}).additionalProperty}` : ''
    const at = `${dotted(e.instancePath)}${missing}${extra}`
    const message =
      e.keyword === 'required'
        ? 'required, missing'
        : `${e.message ?? e.keyword}${e.keyword === 'enum' || e.keyword === 'const' ? ` ${JSON.stringify(e.params)}` : ''}`
    const key = `${at} ${message}`
    if (seen.has(key)) continue
    seen.add(key)
    const title = (e.parentSchema as {title?: string} | undefined)?.title
    out.push({error: e, at, schemaPath: `${title ?? ''}${e.schemaPath.replace(/^spec#/, '#')}`, message})
    if (out.length >= 8) break
  }
  return out
}

const UNION = new Set(['anyOf', 'oneOf', 'if', 'not'])
/** The `{type: null}` branch of a nullable field: its failure says nothing when the value is not null. */
const isNullBranch = (e: ErrorObject) => e.keyword === 'type' && (e.params as {type?: string}).type === 'null'

const AJV_TYPES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  integer: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  array: ['list_type', 'Input should be a valid list'],
  null: ['none_required', 'Input should be None'],
}

/** ajv's errors as the service's 422 `detail` items (pydantic's types and words where they map). */
export function toIssues(errors: ErrorObject[], loc: Array<string | number>, input: unknown, strip = ''): ValidationIssue[] {
  return describe(errors).map(({error, message}) => {
    const pointer = error.instancePath.slice(strip.length)
    const missing = error.keyword === 'required' ? [(error.params as {missingProperty: string}).missingProperty] : []
    const path = [
      ...pointer
        .split('/')
        .slice(1)
        .map(unescapeKey)
        .map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
      ...missing,
    ]
    const value = valueAt(input, pointer)
    const full = [...loc, ...path]
    const limit = (error.params as {limit?: number}).limit
    const plural = (n: number | undefined, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
    const tag = (error.parentSchema as {'x-union-tag'?: string} | undefined)?.['x-union-tag']
    if (tag && error.keyword === 'required') {
      return {
        type: 'union_tag_not_found',
        loc: loc.concat(path.slice(0, -1)),
        msg: `Unable to extract tag using discriminator '${tag}'`,
        input: value ?? null,
        ctx: {discriminator: `'${tag}'`},
      }
    }
    if (tag && error.keyword === 'enum') {
      const expected = ((error.params as {allowedValues: unknown[]}).allowedValues ?? []).map((v) => `'${String(v)}'`).join(', ')
      const msg = `Input tag '${String(value)}' found using '${tag}' does not match any of the expected tags: ${expected}`
      return {
        type: 'union_tag_invalid',
        loc: loc.concat(path.slice(0, -1)),
        msg,
        input: valueAt(input, pointer.replace(/\/[^/]*$/, '')),
        ctx: {discriminator: `'${tag}'`, tag: String(value), expected_tags: expected},
      }
    }
    switch (error.keyword) {
      case 'required':
        return {type: 'missing', loc: full, msg: 'Field required', input: value ?? null}
      case 'additionalProperties':
        return {
          type: 'extra_forbidden',
          loc: [...full, (error.params as {additionalProperty: string}).additionalProperty],
          msg: 'Extra inputs are not permitted',
          input: (value as Record<string, unknown>)?.[(error.params as {additionalProperty: string}).additionalProperty],
        }
      case 'type': {
        const [type, msg] = AJV_TYPES[String((error.params as {type: string}).type).split(',')[0]!] ?? ['value_error', message]
        return {type, loc: full, msg, input: value}
      }
      case 'const':
        return {type: 'literal_error', loc: full, msg: `Input should be '${String((error.params as {allowedValue: unknown}).allowedValue)}'`, input: value}
      case 'enum':
        return {
          type: 'enum',
          loc: full,
          msg: `Input should be ${((error.params as {allowedValues: unknown[]}).allowedValues ?? []).map((v) => `'${String(v)}'`).join(', ')}`,
          input: value,
        }
      case 'minLength':
        return {type: 'string_too_short', loc: full, msg: `String should have at least ${plural(limit, 'character')}`, input: value, ctx: {min_length: limit}}
      case 'maxLength':
        return {type: 'string_too_long', loc: full, msg: `String should have at most ${plural(limit, 'character')}`, input: value, ctx: {max_length: limit}}
      case 'minimum':
        return {type: 'greater_than_equal', loc: full, msg: `Input should be greater than or equal to ${limit}`, input: value, ctx: {ge: limit}}
      case 'exclusiveMinimum':
        return {type: 'greater_than', loc: full, msg: `Input should be greater than ${limit}`, input: value, ctx: {gt: limit}}
      case 'maximum':
        return {type: 'less_than_equal', loc: full, msg: `Input should be less than or equal to ${limit}`, input: value, ctx: {le: limit}}
      case 'exclusiveMaximum':
        return {type: 'less_than', loc: full, msg: `Input should be less than ${limit}`, input: value, ctx: {lt: limit}}
      case 'minItems':
        return {
          type: 'too_short',
          loc: full,
          msg: `List should have at least ${plural(limit, 'item')} after validation, not ${(value as unknown[])?.length ?? 0}`,
          input: value,
          ctx: {min_length: limit},
        }
      case 'maxItems':
        return {
          type: 'too_long',
          loc: full,
          msg: `List should have at most ${plural(limit, 'item')} after validation, not ${(value as unknown[])?.length ?? 0}`,
          input: value,
          ctx: {max_length: limit},
        }
      case 'pattern':
        return {
          type: 'string_pattern_mismatch',
          loc: full,
          msg: `String should match pattern '${(error.params as {pattern: string}).pattern}'`,
          input: value,
          ctx: {pattern: (error.params as {pattern: string}).pattern},
        }
      case 'format':
        return formatIssue((error.params as {format: string}).format, full, value)
      default:
        return {type: 'value_error', loc: full, msg: `Value error, ${message}`, input: value}
    }
  })
}

function formatIssue(format: string, loc: Array<string | number>, input: unknown): ValidationIssue {
  switch (format) {
    case 'uuid':
    case 'uuid4':
      return {
        type: 'uuid_parsing',
        loc,
        msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-]',
        input,
      }
    case 'date-time':
      return {type: 'datetime_from_date_parsing', loc, msg: 'Input should be a valid datetime or date, invalid character in year', input}
    case 'date':
      return {type: 'date_from_datetime_parsing', loc, msg: 'Input should be a valid date or datetime, invalid character in year', input}
    case 'email':
      return {type: 'value_error', loc, msg: 'value is not a valid email address: An email address must have an @-sign.', input}
    case 'uri':
      return {type: 'url_parsing', loc, msg: 'Input should be a valid URL, relative URL without a base', input}
    default:
      return {type: 'value_error', loc, msg: `Value error, not a valid ${format}`, input}
  }
}

const unescapeKey = (key: string) => key.replaceAll('~1', '/').replaceAll('~0', '~')

function valueAt(root: unknown, pointer: string): unknown {
  let value = root
  for (const key of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[unescapeKey(key)]
  }
  return value
}
