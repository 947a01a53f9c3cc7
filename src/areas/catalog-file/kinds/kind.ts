// What one kind of catalog object (meters, custom fields, benefits, products, discounts, checkout links,
// webhook endpoints) tells the catalog machinery: its section of the file, how to read it from an environment, how
// to compare a file entry with the object found there, and how to create, update and archive it.
// Adding a kind is one module that exports a `Kind` and one line in kinds/index.ts.
import type {z} from 'zod'

import type {ApiClient} from '../../../client/client.js'
import type {Item} from '../../../client/resources/common.js'

/** Where a problem is in the file: a path of keys and indexes (`['products', 'pro', 'prices', 0]`). */
export type Path = Array<string | number>

export interface Issue {
  path: Path
  message: string
}

/** One changed field: values as people read them (money with its currency). */
export interface Change {
  field: string
  from?: string
  to: string
  /** What the service does instead of an edit in place (a price is replaced, not edited). */
  note?: string
}

/** The keys of the objects of every kind, in the environment being read or written. */
export interface Keys {
  /** Key of the object of `kind` with this id (undefined when it is not known). */
  keyOf(kind: string, id: string): string | undefined
  /** Id of the object of `kind` with this key, in the target (undefined before it is created). */
  idOf(kind: string, key: string): string | undefined
}

/** A reference from one entry to another kind's key (a product's benefits). */
export interface Reference {
  kind: string
  key: string
  path: Path
}

/** An object of the environment that applying leaves as it is (not in the file, not archived by it). */
export interface Staying {
  kind: string
  noun: string
  key: string
  item: Item
}

export interface Kind<E = Record<string, unknown>> {
  /** The file's section and the kind's name: `benefits`. */
  section: string
  /** One object, in messages: `benefit`. */
  noun: string
  /** One entry of the section (its key is the map key). */
  schema: z.ZodType<E, unknown>
  /** Checks beyond the schema (money, allowed mixes); paths relative to the entry. */
  check?(entry: E): Issue[]
  /** Keys of other kinds this entry uses; paths relative to the entry. */
  references?(entry: E): Reference[]
  /** Every object of the environment, archived ones included. */
  list(client: ApiClient): AsyncIterable<Item>
  /** The text a key is derived from when the object has none yet (its name). */
  label(item: Item): string
  archived(item: Item): boolean
  /** The object as a file entry (pull). */
  toEntry(item: Item, keys: Keys): E
  /** How the object differs from the entry; `blocked` names a change the service cannot make. */
  diff(entry: E, item: Item, keys: Keys): {changes: Change[]; blocked?: string}
  /** What a create shows, field by field. */
  describe(entry: E): Change[]
  create(client: ApiClient, key: string, entry: E, keys: Keys): Promise<Item>
  /** Brings the object to the entry (it was found different, or archived, or without its key). */
  update(client: ApiClient, key: string, entry: E, item: Item, keys: Keys): Promise<Item>
  /** Archives an object no longer in the file (`--prune`); absent when the service cannot. */
  archive?(client: ApiClient, item: Item): Promise<Item>
  /** Why an object of this kind that is not in the file is kept even with `--prune`. */
  kept?: string
  /** What `archive` does, when it is not archiving (`disable`). */
  archiveWord?: string
  /** False for a kind without metadata: its keys are always derived from `label`, never recorded. */
  keyed?: false
  /** For such a kind: what finds an entry's object whatever its key (a webhook endpoint's URL). */
  identity?: {name: string; entry(entry: E): string; item(item: Item): string}
  /** Why the file cannot express this object yet (pull leaves it out and warns; apply keeps it, even with --prune). */
  unsupported?(item: Item): string | undefined
  /** What keeps the service from archiving this object, among the objects that stay as they are ("benefit credits"). */
  usedBy?(item: Item, staying: Staying[]): string | undefined
  /** A line for stderr once an object is created (what the user must do next). */
  created?(key: string, item: Item): string
}
