// Dotted paths into a resource, for `--columns` and `--json FIELDS`. One rule: a path goes into nested objects
// by name, and where it meets a list it goes into every element (`prices.price_amount` is the amount of each
// price, as a projection keeps a list's shape). A list has no names, so a number meeting a list is refused:
// an element by its position is jq's to pick. Pure.
import {usageError} from '../../client/till-error.js'

type Row = Record<string, unknown>

/** The paths asked for as a tree: each name's own paths, or `true` for its whole value. */
type Selection = Map<string, Selection | true>

function objectOf(value: unknown): Row | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row) : undefined
}

/** The error for a number where the path meets a list (`prices.0.price_amount`), naming the path that works. */
function indexRefused(listPath: string, index: string, rest: string): Error {
  const tail = rest === '' ? '' : `.${rest}`
  const problem = `"${listPath}.${index}${tail}": ${listPath} is a list, and a path takes from each of its elements`
  const jq = `--json ${listPath} | jq '.${listPath}[${index}]${tail}'`
  const instead = `${listPath}${tail} for ${rest === '' ? 'the whole list' : 'every element'}`
  return usageError(`${problem}, not one by position`, `give ${instead}, or pick one with jq: ${jq}`)
}

/** Refuses a number among a selection's names where the value is a list. */
function refuseIndexes(selection: Selection, listPath: string): void {
  for (const [name, sub] of selection) {
    if (/^\d+$/.test(name)) throw indexRefused(listPath, name, sub === true ? '' : firstPath(sub))
  }
}

/** One path of a selection, for an error's words. */
function firstPath(selection: Selection): string {
  const [name, sub] = [...selection][0]!
  return sub === true ? name : `${name}.${firstPath(sub)}`
}

/**
 * The value at a dotted path of a row (`customer.email`); through a list, each element's
 * (`prices.price_amount`); undefined when a part is missing.
 */
export function valueAt(row: Row, path: string): unknown {
  const parts = path.split('.')
  const walk = (value: unknown, at: number): unknown => {
    if (at === parts.length) return value
    if (Array.isArray(value)) {
      const part = parts[at]!
      if (/^\d+$/.test(part)) throw indexRefused(parts.slice(0, at).join('.'), part, parts.slice(at + 1).join('.'))
      return value.map((item) => walk(item, at))
    }
    const obj = objectOf(value)
    if (!obj || !Object.hasOwn(obj, parts[at]!)) return undefined
    return walk(obj[parts[at]!], at + 1)
  }
  return walk(row, 0)
}

/** `names` as a selection; a name asked for whole takes in the paths under it (`customer,customer.email`). */
function selectionOf(names: readonly string[]): Selection {
  const root: Selection = new Map()
  for (const name of names) {
    const parts = name.split('.')
    let node = root
    for (const [i, part] of parts.entries()) {
      const have = node.get(part)
      if (have === true) break
      if (i === parts.length - 1) {
        node.set(part, true)
        break
      }
      const next: Selection = have ?? new Map()
      node.set(part, next)
      node = next
    }
  }
  return root
}

/** Only the selected fields of `value`; a list, each element's; a missing field null, a missing parent's fields too. */
function project(value: unknown, selection: Selection, path: string): unknown {
  if (Array.isArray(value)) {
    refuseIndexes(selection, path)
    return value.map((item) => project(item, selection, path))
  }
  const obj = objectOf(value)
  // built without a prototype: a field named __proto__ is a field like any other
  const out: Row = Object.create(null)
  for (const [name, sub] of selection) {
    const field = obj && Object.hasOwn(obj, name) ? obj[name] : undefined
    out[name] = sub === true ? (field ?? null) : project(field, sub, path === '' ? name : `${path}.${name}`)
  }
  return out
}

/**
 * Only the fields `names` of `row`, for JSON output with `--columns`: a dotted path keeps its nesting
 * (`customer.email` gives `{"customer": {"email": ...}}`), and through a list keeps the list
 * (`prices.price_amount` gives `{"prices": [{"price_amount": ...}, ...]}`); a missing field is null.
 */
export function projectRow(row: Row, names: readonly string[]): Row {
  return project(row, selectionOf(names), '') as Row
}
