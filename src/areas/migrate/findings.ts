// What the precheck report says about each object of the source: converts as is (with what is worth knowing
// of it), converts with a change (each change named by its rule), or cannot move (and why). Shared by the
// converters and the report.
import {createHash} from 'node:crypto'

import {KEY_RE} from '../catalog-file/keys.js'

export type FindingKind = 'product' | 'price' | 'meter' | 'benefit' | 'discount' | 'customer'

export interface Finding {
  kind: FindingKind
  /** The source's id. */
  id: string
  name: string
  /** What rule applied: `currency-not-sold`, `price-shape`, `code-characters`... (docs/migrate.md lists them). */
  rule: string
  detail: string
}

/** The findings of one conversion, and per object whether it moved as is. */
export class Findings {
  readonly changes: Finding[] = []
  readonly notMoved: Finding[] = []
  /** What is worth knowing of an object that moves as it is: it counts as converted as is. */
  readonly notes: Finding[] = []

  change(kind: FindingKind, id: string, name: string, rule: string, detail: string): void {
    this.changes.push({kind, id, name, rule, detail})
  }

  note(kind: FindingKind, id: string, name: string, rule: string, detail: string): void {
    this.notes.push({kind, id, name, rule, detail})
  }

  skip(kind: FindingKind, id: string, name: string, rule: string, detail: string): void {
    this.notMoved.push({kind, id, name, rule, detail})
  }

  /** How many distinct objects of `kind` moved with a change (not counting those that did not move at all). */
  changedCount(kind: FindingKind): number {
    const gone = new Set(this.notMoved.filter((f) => f.kind === kind).map((f) => f.id))
    return new Set(this.changes.filter((f) => f.kind === kind && !gone.has(f.id)).map((f) => f.id)).size
  }

  notMovedCount(kind: FindingKind): number {
    return new Set(this.notMoved.filter((f) => f.kind === kind).map((f) => f.id)).size
  }
}

/**
 * The catalog key of a source object, from its id, so that a renamed object keeps its key and a re-run
 * updates it: `prod_NWjs8kKbJW` -> `prod_nwjs8kkbjw-3f2a` (ids that differ in case only get different
 * keys: a short hash of the exact id is added when lower-casing changed it).
 */
export function keyFromId(id: string, suffix = ''): string {
  const lower = id.toLowerCase()
  const hash = lower === id ? '' : `-${createHash('sha256').update(id).digest('hex').slice(0, 4)}`
  const room = 40 - hash.length - suffix.length
  let base = lower.replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z0-9]+/, '')
  if (base.length > room) base = `${base.slice(0, room - 7)}-${createHash('sha256').update(id).digest('hex').slice(0, 6)}`
  const key = `${base || 'item'}${hash}${suffix}`
  return KEY_RE.test(key) ? key : `item-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`
}

/** A text cut to `max` characters (the last one an ellipsis) and at least `min` (padded with `pad`). */
export function fitText(text: string, min: number, max: number, pad: string): string {
  let out = text.trim()
  if (out.length > max) out = `${out.slice(0, max - 1).trimEnd()}…`
  if (out.length < min) out = `${out}${pad}`.slice(0, Math.max(min, out.length + pad.length)).trim()
  return out
}
