// A trigger's overrides (server/polar/cli/service.py, apply_overrides and _reject_dropped_overrides): each
// dotted path, from the payload's root, is set to its value, in the order given; a list's segment is an
// index (negative from the end); a missing key of an object is made an empty object on the way. What the
// payload's serialization would drop (a key its model does not have) is refused after, as the service
// refuses it. Each refusal is the service's 422 at ["body", "overrides", path].
import {ruleValidation} from '../../core/errors.js'

type Json = Record<string, unknown>

/** Paths no override may set. */
const PROTECTED = new Set(['type'])

/** Python's `repr` of a string: single quotes unless the text has one and no double quote. */
function repr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'"
  return `${quote}${text.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`)}${quote}`
}

/** Python's name of a JSON value's type, as `type(x).__name__` says it. */
function typeName(value: unknown): string {
  if (value === null) return 'NoneType'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  if (typeof value === 'string') return 'str'
  return Array.isArray(value) ? 'list' : 'dict'
}

const refuse = (path: string, value: unknown, msg: string) => ruleValidation(['body', 'overrides', path], msg, value)

/** Python's `int(segment)` of a list index: digits with an optional sign, spaces and underscores between digits. */
function listIndex(list: unknown[], segment: string, path: string, value: unknown): number {
  const text = segment.trim()
  if (!/^[+-]?\d+(_\d+)*$/.test(text)) throw refuse(path, value, `${repr(segment)} is not a valid list index`)
  const index = Number(text.replaceAll('_', ''))
  if (index < -list.length || index >= list.length) throw refuse(path, value, `List index ${index} is out of range`)
  return index < 0 ? list.length + index : index
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

export function applyOverrides(payload: Json, overrides: Json): void {
  for (const [path, value] of Object.entries(overrides)) {
    if (PROTECTED.has(path)) throw refuse(path, value, `${repr(path)} cannot be overridden`)
    const segments = path.split('.')
    const leaf = segments.pop()!
    let target: unknown = payload
    for (const segment of segments) {
      if (Array.isArray(target)) target = target[listIndex(target, segment, path, value)]
      else if (isObject(target)) {
        if (!Object.hasOwn(target, segment)) target[segment] = {}
        target = target[segment]
      } else throw refuse(path, value, `Cannot set ${repr(segment)} on a ${typeName(target)}`)
    }
    if (Array.isArray(target)) target[listIndex(target, leaf, path, value)] = value
    else if (isObject(target)) target[leaf] = value
    else throw refuse(path, value, `Cannot set ${repr(leaf)} on a ${typeName(target)}`)
  }
}

/**
 * What serializing the overridden payload keeps: every key the fixture had, and any key inside an open
 * map (metadata, custom field data), which the models take whole. A key an override added elsewhere is a
 * field the payload's model does not have, and is dropped.
 */
export function serialized(overridden: unknown, fixture: unknown, open = false): unknown {
  if (Array.isArray(overridden)) {
    const items = Array.isArray(fixture) ? fixture : []
    return overridden.map((v, i) => serialized(v, items[i], open))
  }
  if (!isObject(overridden)) return overridden
  const known = isObject(fixture) ? fixture : {}
  const kept: Json = {}
  for (const [key, v] of Object.entries(overridden)) {
    const map = open || /metadata$|^custom_field_data$/.test(key)
    if (open || Object.hasOwn(known, key)) kept[key] = serialized(v, known[key], map)
  }
  return kept
}

/** The value at a dotted path, or `undefined` when the path does not reach one. */
function lookup(payload: unknown, path: string): {found: boolean} {
  let target = payload
  for (const segment of path.split('.')) {
    if (Array.isArray(target)) {
      const text = segment.trim()
      const index = /^[+-]?\d+(_\d+)*$/.test(text) ? Number(text.replaceAll('_', '')) : Number.NaN
      if (!Number.isInteger(index) || index < -target.length || index >= target.length) return {found: false}
      target = target[index < 0 ? target.length + index : index]
    } else if (isObject(target) && Object.hasOwn(target, segment)) target = target[segment]
    else return {found: false}
  }
  return {found: true}
}

/** Refuses an override whose path the serialized payload no longer has. */
export function rejectDropped(payload: Json, overrides: Json): void {
  for (const [path, value] of Object.entries(overrides)) {
    if (!lookup(payload, path).found) throw refuse(path, value, `${repr(path)} is not a field of this payload`)
  }
}
