// Stable keys: the name a catalog object has in the file and keeps, in every environment, as the `key`
// entry of its metadata. An object without one gets a key derived from its name (the first pull).
import type {Item} from '../../client/resources/common.js'

export const KEY_FIELD = 'key'
export const KEY_RE = /^[a-z0-9][a-z0-9_-]{0,39}$/
export const KEY_RULE = 'a key is 1-40 characters: lower-case letters, digits, "-" and "_", starting with a letter or digit'

/** "Pro Plan (2024)" -> "pro-plan-2024"; "" or only symbols -> "item". At most 36 characters (room for "-99"). */
export function slug(text: string): string {
  const base = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 36)
    .replace(/-+$/, '')
  return base === '' ? 'item' : base
}

/** The key an object records in its metadata, when it is a valid one. */
export function recordedKey(item: Item): string | undefined {
  const value = (item.metadata as Record<string, unknown> | undefined)?.[KEY_FIELD]
  return typeof value === 'string' && KEY_RE.test(value) ? value : undefined
}

export interface Keyed {
  item: Item
  key: string
  /** Whether the key is recorded in the object's metadata (false: derived from its name). */
  recorded: boolean
}

/**
 * Every object with its key: the recorded one (the oldest's, when several record one), or one derived from `label` (oldest first, "-2", "-3"...
 * when taken), so that the same objects get the same keys in every environment and on every read.
 */
export function assignKeys(items: Item[], label: (item: Item) => string): Keyed[] {
  const taken = new Set<string>()
  const out = new Map<Item, Keyed>()
  const oldestFirst = [...items].sort((a, b) => String(a.created_at ?? '').localeCompare(String(b.created_at ?? '')) || a.id.localeCompare(b.id))
  // Of objects that record the same key (twins), the oldest keeps it.
  for (const item of oldestFirst) {
    const key = recordedKey(item)
    if (key === undefined || taken.has(key)) continue
    taken.add(key)
    out.set(item, {item, key, recorded: true})
  }
  for (const item of oldestFirst.filter((i) => !out.has(i))) {
    const base = slug(label(item))
    let key = base
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`
    taken.add(key)
    out.set(item, {item, key, recorded: false})
  }
  return items.map((i) => out.get(i)!)
}
