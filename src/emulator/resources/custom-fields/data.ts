// Custom field data, as the service checks it on checkouts: the product's attached fields make a schema
// (one key per field slug), the data is validated against it and only those keys are kept, each field
// absent from the data taking its default (null, or false for a checkbox). A required field is required
// only when `enforceRequired` (a confirmation); on create and update every field is optional. Errors are
// the validation library's own, one per field, at ["body", "custom_field_data", slug].
import {ruleValidation, type ValidationIssue} from '../../core/errors.js'
import type {CustomFieldRecord} from './model.js'

export type CustomFieldData = Record<string, unknown>

interface Attached {
  custom_field_id: string
  required: boolean
}

class Invalid {
  constructor(
    readonly type: string,
    readonly msg: string,
    readonly ctx?: Record<string, unknown>,
  ) {}
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

function text(value: unknown, props: Record<string, unknown>): string {
  if (typeof value !== 'string') throw new Invalid('string_type', 'Input should be a valid string')
  const length = [...value].length
  const min = props.min_length
  const max = props.max_length
  if (typeof min === 'number' && length < min)
    throw new Invalid('string_too_short', `String should have at least ${plural(min, 'character')}`, {min_length: min})
  if (typeof max === 'number' && length > max) throw new Invalid('string_too_long', `String should have at most ${plural(max, 'character')}`, {max_length: max})
  return value
}

function bounds(value: number, ge: number | undefined, le: number | undefined, shown: (bound: number) => unknown): void {
  if (ge !== undefined && value < ge) throw new Invalid('greater_than_equal', `Input should be greater than or equal to ${String(shown(ge))}`, {ge: shown(ge)})
  if (le !== undefined && value > le) throw new Invalid('less_than_equal', `Input should be less than or equal to ${String(shown(le))}`, {le: shown(le)})
}

const numberProp = (props: Record<string, unknown>, key: string) => (typeof props[key] === 'number' ? (props[key] as number) : undefined)

function integer(value: unknown, props: Record<string, unknown>): number {
  let n: number
  if (typeof value === 'boolean') n = value ? 1 : 0
  else if (typeof value === 'number') {
    if (!Number.isFinite(value) || !Number.isInteger(value))
      throw new Invalid('int_from_float', 'Input should be a valid integer, got a number with a fractional part')
    n = value
  } else if (typeof value === 'string') {
    if (!/^\s*[+-]?\d+\s*$/.test(value)) throw new Invalid('int_parsing', 'Input should be a valid integer, unable to parse string as an integer')
    n = Number(value.trim())
  } else throw new Invalid('int_type', 'Input should be a valid integer')
  bounds(n, numberProp(props, 'ge'), numberProp(props, 'le'), (b) => b)
  return n
}

const DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/

/** A timestamp's day (UTC) at midnight, as the service turns a `ge`/`le` bound into a date. */
const dayOf = (seconds: number) => new Date(Math.floor(seconds / 86400) * 86400 * 1000).toISOString().slice(0, 10)

function datetime(value: unknown, props: Record<string, unknown>): string {
  let shown: string
  let at: number
  if (typeof value === 'number' && Number.isFinite(value)) {
    at = Math.abs(value) > 2e10 ? value : value * 1000
    shown = new Date(at).toISOString().replace('.000Z', 'Z')
  } else if (typeof value === 'string') {
    const m = DATETIME.exec(value)
    if (!m)
      throw new Invalid(
        'datetime_from_date_parsing',
        `Input should be a valid datetime or date, ${value.length < 10 ? 'input is too short' : 'invalid character in year'}`,
        {error: value.length < 10 ? 'input is too short' : 'invalid character in year'},
      )
    const [, day, hh = '00', mm = '00', ss = '00', fraction = '', zone] = m
    const tz = zone === undefined ? '' : /^z$/i.test(zone) ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
    shown = `${day}T${hh}:${mm}:${ss}${fraction}${tz}`
    at = Date.parse(`${day}T${hh}:${mm}:${ss}${fraction}${tz || 'Z'}`)
    if (Number.isNaN(at))
      throw new Invalid('datetime_from_date_parsing', 'Input should be a valid datetime or date, day value is outside expected range', {
        error: 'day value is outside expected range',
      })
  } else throw new Invalid('datetime_type', 'Input should be a valid datetime')
  const ge = numberProp(props, 'ge')
  const le = numberProp(props, 'le')
  const day = (s: number | undefined) => (s ? Date.parse(`${dayOf(s)}T00:00:00Z`) : undefined)
  const label = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  bounds(at, day(ge), day(le), label)
  return shown
}

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes'])
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no'])

function boolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  if (value === 0 || value === 1) return value === 1
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase()
    if (TRUE.has(v)) return true
    if (FALSE.has(v)) return false
    throw new Invalid('bool_parsing', 'Input should be a valid boolean, unable to interpret input')
  }
  throw new Invalid('bool_type', 'Input should be a valid boolean')
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`: how the service lists the values a select takes. */
function expected(values: string[]): string {
  const quoted = values.map((v) => `'${v}'`)
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

function select(value: unknown, props: Record<string, unknown>): string {
  const options = Array.isArray(props.options) ? (props.options as Array<{value: string}>).map((o) => o.value) : []
  if (typeof value !== 'string' || !options.includes(value)) {
    const e = expected(options)
    throw new Invalid('literal_error', `Input should be ${e}`, {expected: e})
  }
  return value
}

/** One field's value (the data had the key), or throws Invalid. */
function validValue(field: CustomFieldRecord, required: boolean, value: unknown): unknown {
  if (field.type === 'checkbox') {
    if (required) {
      if (value !== true) throw new Invalid('literal_error', 'Input should be True', {expected: 'True'})
      return true
    }
    return boolean(value)
  }
  if (value === null && !required) return null
  switch (field.type) {
    case 'text':
      return text(value, field.properties)
    case 'number':
      return integer(value, field.properties)
    case 'date':
      return datetime(value, field.properties)
    case 'select':
      return select(value, field.properties)
  }
}

/**
 * The custom field data to store for `data` against the attached fields, or the service's 422 listing
 * every field in error.
 */
export function validateCustomFieldData(
  fieldOf: (id: string) => CustomFieldRecord | undefined,
  attached: Attached[] | undefined,
  data: CustomFieldData,
  enforceRequired: boolean,
): CustomFieldData {
  const result: CustomFieldData = {}
  const issues: ValidationIssue[] = []
  for (const a of attached ?? []) {
    const field = fieldOf(a.custom_field_id)
    if (!field) continue
    const required = a.required && enforceRequired
    const loc = ['body', 'custom_field_data', field.slug]
    if (!Object.hasOwn(data, field.slug)) {
      if (required) issues.push({type: 'missing', loc, msg: 'Field required', input: data})
      else result[field.slug] = field.type === 'checkbox' ? false : null
      continue
    }
    try {
      result[field.slug] = validValue(field, required, data[field.slug])
    } catch (error) {
      if (!(error instanceof Invalid)) throw error
      issues.push({type: error.type, loc, msg: error.msg, input: data[field.slug], ...(error.ctx ? {ctx: error.ctx} : {})})
    }
  }
  if (issues.length > 0) throw ruleValidation(issues)
  return result
}
