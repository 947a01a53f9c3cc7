// What the service has that is newer than its published document, as data (contract/newer.json, beside the
// derived document, each entry with its source): fields, operations and query parameters the official SDK
// 1.0.1 types or the service reads, and the fields each API version adds. The contract mode checks against
// a copy of the document with these added, so that sending or answering them is not taken for a departure.
import {existsSync, readFileSync} from 'node:fs'
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
}

export const NONE: Newer = {fields: [], operations: [], parameters: [], versions: {}}

/** The newer facts kept beside a derived document (`newer.json` in its folder); none beside another file. */
export function newerBeside(file: string): Newer {
  const beside = join(dirname(file), 'newer.json')
  return existsSync(beside) ? (JSON.parse(readFileSync(beside, 'utf8')) as Newer) : NONE
}

/** A copy of the document with the fields, parameters and operations newer than it. */
export function withNewer(document: Json, newer: Newer): Json {
  const copy = structuredClone(document)
  const schemas = (copy.components as {schemas: Record<string, {properties?: Json}>}).schemas
  for (const {schema, property, definition} of [...newer.fields, ...Object.values(newer.versions).flatMap((v) => v.fields)]) {
    const target = schemas[schema]
    if (target?.properties && !(property in target.properties)) target.properties[property] = definition
  }
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
