// The shape of a resource description (see ./described.ts), apart so that the descriptions can be kept in
// more than one file.
import type {OperationId, UndocumentedOperationId} from '../operations.generated.js'
import type {components} from '../wire/index.js'

export interface ResourceDescription {
  /** The key that names it everywhere (column sets, completion): `discounts`, `portal-orders`. */
  readonly name: string
  /** One of them, in messages: `discount`, `webhook endpoint`. */
  readonly noun: string
  /** The till topic that lists them: `discounts`, `webhooks endpoints`, `portal orders`. */
  readonly topic: string
  /** Its wire type in the published document. */
  readonly wire: keyof components['schemas']
  /** Every operation of the document that acts on it, and that till may send. */
  readonly operations: readonly OperationId[]
  /** Operations on it newer than the document (scripts/operations.js UNDOCUMENTED) that till sends. */
  readonly newer?: readonly UndocumentedOperationId[]
  /** The column sets that show it or its parts (default: one named as the resource). */
  readonly views?: readonly string[]
  /** `till TOPIC list` lists them (default: when one of its operations is a list). */
  readonly listed?: boolean
  /**
   * Commands made from the description alone (src/areas/derived/commands.ts), by verb: the operation each
   * sends. A resource whose everyday commands need nothing of their own is added without command files.
   */
  readonly commands?: Readonly<Partial<Record<DerivedVerb, OperationId>>>
  /** The plural in command help (`metric dashboards`); default: the noun and an s. */
  readonly plural?: string
  /** The noun of what its paths name first, for one under another (members: `customer`); its own id is the last. */
  readonly parent?: string
  /** A body the derived `create` takes: shown in its help, and what the tests create one with. */
  readonly example?: Readonly<Record<string, unknown>>
  /**
   * What its topic holds, in the help and docs/commands, for the resource that has a topic of its own
   * (`products`, `webhooks endpoints`): package.json's oclif.topics is written from these (`npm run topics`).
   */
  readonly about?: string
}

/** The commands a description can derive: `till TOPIC list|get|create|update|delete`. */
export const DERIVED_VERBS = ['list', 'get', 'create', 'update', 'delete'] as const
export type DerivedVerb = (typeof DERIVED_VERBS)[number]

export const describe = <const T extends ResourceDescription>(d: T): T => d
