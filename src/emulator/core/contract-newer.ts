// What the service has that is newer than its published document, as data beside the derived document:
// contract/newer.json (each entry with its source: fields, operations and query parameters the official SDK
// 1.0.1 types or the service reads, and the fields each API version adds) and contract/changes/*.json (one
// file per change of the service since the snapshot, named by its pull request: docs/contract.md lists
// them). The contract mode checks against a copy of the document with these added, so that sending or
// answering them is not taken for a departure.
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'

type Json = Record<string, unknown>

/** A field a schema of the document lacks. */
interface Field {
  schema: string
  property: string
  definition: Json
  source?: string
}

/** The facts newer than the document (contract/newer.json). */
export interface Newer {
  fields: Field[]
  operations: Array<{
    path: string
    method: string
    operation: Json
    /** Error shapes the document lacks. */
    schemas?: Record<string, Json>
    /** Query parameters taken as they are from an operation of the document that has the same ones. */
    parametersFrom?: {path: string; method: string; names: string[]}
    source: string
  }>
  /** Query parameters an operation reads that the document does not declare. */
  parameters: Array<{path: string; method: string; names: string[]; source: string}>
  /** What each API version adds to the document's shapes. */
  versions: Record<string, {source: string; fields: Field[]}>
  /** The service's changes since the snapshot (contract/changes/*.json). */
  changes?: Change[]
}

/** One change of the service since the snapshot, and what of the document it departs from. */
export interface Change {
  /** The pull request of polarsource/polar, or null where only the service's newer files show it. */
  pr: number | null
  /** The API versions it applies to. */
  versions: string[]
  source: string
  /** Schemas the document lacks. */
  schemas?: Record<string, Json>
  fields?: Field[]
  /** Values an enum of the document lacks. */
  enums?: Array<{schema: string; values: string[]}>
  /** Members a union of the document lacks (`anyOf` of `$ref`s, or `oneOf` with its discriminator's `tag`). */
  variants?: Array<{schema: string; ref: string; tag?: string}>
}

export const NONE: Newer = {fields: [], operations: [], parameters: [], versions: {}}

/** The changes kept in `folder` (one JSON file each), in their files' order. */
export function changesIn(folder: string): Change[] {
  if (!existsSync(folder)) return []
  const files = readdirSync(folder).filter((f) => f.endsWith('.json'))
  return files.sort().map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as Change)
}

/** The newer facts kept beside a derived document (`newer.json` and `changes/` in its folder); none beside another file. */
export function newerBeside(file: string): Newer {
  const beside = join(dirname(file), 'newer.json')
  const newer = existsSync(beside) ? (JSON.parse(readFileSync(beside, 'utf8')) as Newer) : NONE
  return {...newer, changes: changesIn(join(dirname(file), 'changes'))}
}

type Union = {anyOf?: Json[]; oneOf?: Json[]; discriminator?: {mapping?: Record<string, string>}}
type Schemas = Record<string, {properties?: Json; enum?: unknown[]} & Union>

/** Adds a change's schemas, fields, enum values and union members to `schemas` (a copy's). */
function applyChange(schemas: Schemas, change: Change): void {
  for (const [name, schema] of Object.entries(change.schemas ?? {})) schemas[name] ??= schema
  for (const {schema, property, definition} of change.fields ?? []) {
    const target = schemas[schema]
    if (target?.properties && !(property in target.properties)) target.properties[property] = definition
  }
  for (const {schema, values} of change.enums ?? []) {
    const target = schemas[schema]
    if (target?.enum) target.enum = [...target.enum, ...values.filter((v) => !target.enum!.includes(v))]
  }
  for (const {schema, ref, tag} of change.variants ?? []) addMember(schemas[schema], `#/components/schemas/${ref}`, tag)
}

/** Adds `$ref` to a union: an `anyOf`, or a `oneOf` whose discriminator then maps `tag` to it. */
function addMember(target: Union | undefined, $ref: string, tag: string | undefined): void {
  const members = target?.anyOf ?? target?.oneOf
  if (!target || !members || members.some((m) => m.$ref === $ref)) return
  if (target.anyOf) target.anyOf = [...members, {$ref}]
  else target.oneOf = [...members, {$ref}]
  const mapping = target.discriminator?.mapping
  if (mapping && tag) mapping[tag] = $ref
}

/** A copy of the document with the fields, parameters and operations newer than it. */
export function withNewer(document: Json, newer: Newer): Json {
  const copy = structuredClone(document)
  const schemas = (copy.components as {schemas: Schemas}).schemas
  for (const {schema, property, definition} of [...newer.fields, ...Object.values(newer.versions).flatMap((v) => v.fields)]) {
    const target = schemas[schema]
    if (target?.properties && !(property in target.properties)) target.properties[property] = definition
  }
  for (const change of newer.changes ?? []) applyChange(schemas, change)
  const paths = copy.paths as Record<string, Json>
  for (const {path, method, names} of newer.parameters) {
    const operation = paths[path]?.[method] as {parameters?: Json[]} | undefined
    if (!operation) continue
    const known = new Set((operation.parameters ?? []).map((p) => p.name))
    operation.parameters = [
      ...(operation.parameters ?? []),
      ...names.filter((n) => !known.has(n)).map((name) => ({name, in: 'query', required: false, schema: {type: 'string'}})),
    ]
  }
  for (const {path, method, operation, schemas: added, parametersFrom: from} of newer.operations) {
    if (paths[path]?.[method]) continue
    const borrowed = from
      ? ((paths[from.path]?.[from.method] as {parameters?: Json[]} | undefined)?.parameters ?? []).filter((p) => from.names.includes(p.name as string))
      : []
    paths[path] = {...paths[path], [method]: {...operation, parameters: [...((operation.parameters as Json[] | undefined) ?? []), ...borrowed]}}
    for (const [name, schema] of Object.entries(added ?? {})) schemas[name] ??= schema
  }
  return copy
}
