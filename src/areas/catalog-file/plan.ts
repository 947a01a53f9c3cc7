// What applying a catalog would do to an environment: for each kind in dependency order, each key of the
// file is created, updated (with the changed fields) or left as it is; what the environment has that the
// file does not is reported, and archived only with --prune. Pure: the environment is given as read.
import type {Item} from '../../client/resources/common.js'
import type {Catalog} from './document.js'
import {assignKeys, recordedKey, type Keyed} from './keys.js'
import {KINDS, type AnyKind} from './kinds/index.js'
import type {Change, Keys, Staying} from './kinds/kind.js'

export type Action = 'create' | 'update' | 'archive' | 'extra'

export interface Step {
  kind: string
  noun: string
  key: string
  action: Action
  /** The object in the environment (update, archive, extra). */
  id?: string
  changes: Change[]
  /** A change the service cannot make: the whole apply is refused before anything is written. */
  blocked?: string
  /** Why an `extra` object is kept. */
  note?: string
}

export interface Plan {
  steps: Step[]
  counts: Record<Action, number>
  /** Whether applying would write anything. */
  pending: boolean
}

/** The environment as read: every object of every kind, archived ones included. */
export type Environment = Record<string, Item[]>

/** Objects of one kind that record the same key (two applies at once, or a copy made by hand). */
export interface Twins {
  kind: string
  noun: string
  key: string
  /** The one the key stands for first, then the others (each given a key of its own in a pull). */
  ids: string[]
}

/** Every object of the environment with its key, by kind; which keyed object stands for a key. */
export class EnvironmentKeys implements Keys {
  readonly keyed = new Map<string, Keyed[]>()
  /** Keys recorded by more than one live object of a kind. */
  readonly twins: Twins[] = []
  /** Objects created since the environment was read: key to id and id to key, by kind. */
  private readonly learned = new Map<string, {ids: Map<string, string>; keys: Map<string, string>}>()

  constructor(env: Environment, kinds: AnyKind[] = KINDS) {
    for (const kind of kinds) {
      const list = assignKeys(env[kind.section] ?? [], kind.label)
      const byKey = new Map<string, Keyed[]>()
      for (const k of list) {
        const recorded = recordedKey(k.item)
        if (recorded === undefined || kind.archived(k.item)) continue
        byKey.set(recorded, [...(byKey.get(recorded) ?? []), k])
      }
      for (const [key, same] of byKey) {
        if (same.length < 2) continue
        // the object the key stands for (assignKeys gave it the key) first
        const ordered = [...same.filter((k) => k.key === key), ...same.filter((k) => k.key !== key)]
        this.twins.push({kind: kind.section, noun: kind.noun, key, ids: ordered.map((k) => k.item.id)})
      }
      this.keyed.set(kind.section, list)
      this.learned.set(kind.section, {ids: new Map(), keys: new Map()})
    }
  }

  // through the index of each kind's objects (keys and ids are each one object's), then what was learned
  keyOf = (kind: string, id: string) => this.learned.get(kind)?.keys.get(id) ?? this.byId(kind, id)?.key
  idOf = (kind: string, key: string) => this.learned.get(kind)?.ids.get(key) ?? this.find(kind, key)?.item.id

  /** An object now known under `key` (just created). */
  learn(kind: string, key: string, id: string): void {
    this.learned.get(kind)?.ids.set(key, id)
    this.learned.get(kind)?.keys.set(id, key)
  }

  /** Each section's objects by key and by id, made on first use (a plan looks up every entry's). */
  private readonly index = new Map<string, {byKey: Map<string, Keyed>; byId: Map<string, Keyed>}>()
  private indexOf(kind: string) {
    let found = this.index.get(kind)
    if (!found) {
      const list = this.keyed.get(kind) ?? []
      // the first of a key or an id wins, as a search through the list would find it
      found = {byKey: new Map([...list].reverse().map((k) => [k.key, k])), byId: new Map([...list].reverse().map((k) => [k.item.id, k]))}
      this.index.set(kind, found)
    }
    return found
  }

  find(kind: string, key: string): Keyed | undefined {
    return this.indexOf(kind).byKey.get(key)
  }

  byId(kind: string, id: string): Keyed | undefined {
    return this.indexOf(kind).byId.get(id)
  }
}

/**
 * The object of the environment each entry of the file stands for: the one with its key or, for a kind
 * whose objects cannot keep a key (`identity`), the one with the same identity (a webhook endpoint's URL),
 * preferring the one whose derived key is the entry's.
 */
function matchEntries(kind: AnyKind, entries: Record<string, unknown>, keys: EnvironmentKeys): Matched {
  const list = keys.keyed.get(kind.section) ?? []
  const out = new Map<string, Keyed>()
  const taken = new Set<Keyed>()
  for (const key of Object.keys(entries).sort()) {
    const same = (k: Keyed) => !taken.has(k) && (!kind.identity || kind.identity.item(k.item) === kind.identity.entry(entries[key]))
    const keyed = keys.find(kind.section, key)
    const found = (keyed && same(keyed) ? keyed : undefined) ?? (kind.identity ? list.find(same) : undefined)
    if (!found) continue
    out.set(key, found)
    taken.add(found)
  }
  return {byKey: out, inFile: taken}
}

/** The objects entries stand for: by the entry's key, and as a set (what is not in it is not in the file). */
interface Matched {
  byKey: Map<string, Keyed>
  inFile: Set<Keyed>
}

export interface PlanOptions {
  prune: boolean
  /** The environment's keys, when they are made already. */
  keys?: EnvironmentKeys
  /** Drop each entry from `catalog` once its step is made (a plan that is only shown: its peak is not entries and steps at once). */
  consume?: boolean
}

/** The plan of applying `catalog` to `env`. */
export function buildPlan(catalog: Catalog, env: Environment, options: PlanOptions, kinds: AnyKind[] = KINDS): Plan {
  const keys = options.keys ?? new EnvironmentKeys(env, kinds)
  const steps: Step[] = []
  const extras: Step[][] = []
  // per section; what is in the file is a set, looked up once per object (a list looked through for each
  // object made a plan of 15,000 products spend 1.5 s here)
  const matched = new Map(kinds.map((kind) => [kind.section, matchEntries(kind, catalog[kind.section] ?? {}, keys)]))
  const inFile = (kind: AnyKind, k: Keyed) => matched.get(kind.section)!.inFile.has(k)
  // what applying leaves as it is: objects not in the file that are kept (and, with --prune, cannot be archived)
  const staying: Staying[] = kinds.flatMap((kind) =>
    (keys.keyed.get(kind.section) ?? [])
      .filter((k) => !inFile(kind, k) && !kind.archived(k.item) && !(options.prune && kind.archive && !kind.unsupported?.(k.item)))
      .map((k) => ({kind: kind.section, noun: kind.noun, key: k.key, item: k.item})),
  )
  for (const kind of kinds) {
    const kindExtras: Step[] = []
    extras.unshift(kindExtras)
    const entries = catalog[kind.section] ?? {}
    for (const key of Object.keys(entries).sort()) {
      const entry = entries[key]
      if (options.consume) delete entries[key]
      const found = matched.get(kind.section)!.byKey.get(key)
      const base = {kind: kind.section, noun: kind.noun, key}
      if (!found) {
        steps.push({...base, action: 'create', changes: kind.describe(entry)})
        continue
      }
      const unsupported = kind.unsupported?.(found.item)
      if (unsupported) {
        steps.push({
          ...base,
          action: 'update',
          id: found.item.id,
          changes: [],
          blocked: `the ${kind.noun} in the environment ${unsupported}, which the file cannot express yet: give the entry another key`,
        })
        continue
      }
      const {changes, blocked} = kind.diff(entry, found.item, keys)
      if (kind.archived(found.item))
        changes.unshift({field: kind.archiveWord ? `${kind.archiveWord}d` : 'archived', from: 'yes', to: 'no', note: 'restored: it is in the file again'})
      if (!found.recorded && kind.keyed !== false)
        changes.push({field: 'metadata.key', from: '(none)', to: JSON.stringify(key), note: "the key is recorded in the object's metadata"})
      if (changes.length > 0 || blocked) steps.push({...base, action: 'update', id: found.item.id, changes, ...(blocked ? {blocked} : {})})
    }
    for (const k of keys.keyed.get(kind.section) ?? []) {
      if (inFile(kind, k) || kind.archived(k.item)) continue
      const base = {kind: kind.section, noun: kind.noun, key: k.key, id: k.item.id, changes: []}
      const word = kind.archiveWord ?? 'archive'
      const absent = kind.identity ? `no entry has its ${kind.identity.name}` : 'not in the file'
      const unsupported = kind.unsupported?.(k.item)
      const user = options.prune ? kind.usedBy?.(k.item, staying) : undefined
      if (unsupported) kindExtras.push({...base, action: 'extra', note: `${absent}: kept (it ${unsupported}, which the file cannot express yet)`})
      else if (user) kindExtras.push({...base, action: 'extra', note: `${absent}: kept (${user}, and the service does not ${word} it while so)`})
      else if (options.prune && kind.archive) kindExtras.push({...base, action: 'archive', ...(kind.archiveWord ? {note: `${absent}: ${word}d`} : {})})
      else
        kindExtras.push({
          ...base,
          action: 'extra',
          note: kind.archive ? `${absent}: kept (--prune ${word}s it)` : `${absent}: kept (${kind.kept ?? 'the service cannot archive it'})`,
        })
    }
  }
  // Archives go last, the kinds that use others first (products before their benefits).
  const all = [...steps, ...extras.flat()]
  const counts: Record<Action, number> = {create: 0, update: 0, archive: 0, extra: 0}
  for (const s of all) counts[s.action]++
  return {steps: all, counts, pending: counts.create + counts.update + counts.archive > 0}
}
