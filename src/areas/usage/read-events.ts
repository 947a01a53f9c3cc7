// Events read from JSON lines or CSV, one input record at a time with its line number, so that a
// file of any size streams through in bounded memory. A bad line becomes a record with an error.
import {createReadStream} from 'node:fs'
import {createInterface} from 'node:readline'
import type {Readable} from 'node:stream'

import {parse as parseCsv} from 'csv-parse'

import type {EventInput} from '../../client/resources/events.js'

export interface InputRecord {
  /** 1-based line number of the record (its last line for a CSV record spanning lines). */
  line: number
  /** Bytes of input consumed through this record (for progress). */
  bytes: number
  event?: EventInput
  error?: string
}

export interface Defaults {
  name?: string
  externalCustomer?: string
}

export type InputFormat = 'jsonl' | 'csv'

/** The format of a file by its name; null when it does not tell. */
export function formatOf(path: string): InputFormat | null {
  if (/\.csv$/i.test(path)) return 'csv'
  if (/\.(jsonl|ndjson|json)$/i.test(path)) return 'jsonl'
  return null
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/

/** Fills defaults and checks what the service would refuse anyway; the error names the fix. */
export function checkEvent(raw: Record<string, unknown>, defaults: Defaults): EventInput | string {
  // Read loosely (any JSON object), checked below field by field, then returned as the document's event.
  const event: Record<string, unknown> = {...raw}
  if (event.name === undefined && defaults.name !== undefined) event.name = defaults.name
  if (event.customer_id === undefined && event.external_customer_id === undefined && defaults.externalCustomer !== undefined) {
    event.external_customer_id = defaults.externalCustomer
  }
  if (typeof event.name !== 'string' || event.name === '') return 'no event name (add a "name" field or pass --name)'
  const hasCustomer = typeof event.customer_id === 'string' && event.customer_id !== ''
  const hasExternal = typeof event.external_customer_id === 'string' && event.external_customer_id !== ''
  if (!hasCustomer && !hasExternal) return 'no customer (add "customer_id" or "external_customer_id", or pass --external-customer)'
  if (event.timestamp !== undefined) {
    if (typeof event.timestamp !== 'string' || !ISO_TIME.test(event.timestamp) || Number.isNaN(Date.parse(event.timestamp))) {
      return `bad timestamp ${JSON.stringify(event.timestamp)} (use ISO 8601 with a zone, e.g. 2026-01-31T12:00:00Z)`
    }
  }
  if (event.external_id !== undefined && (typeof event.external_id !== 'string' || event.external_id === '')) return 'external_id must be a non-empty string'
  if (event.metadata !== undefined && (event.metadata === null || typeof event.metadata !== 'object' || Array.isArray(event.metadata))) {
    return 'metadata must be an object'
  }
  return event as EventInput
}

/** JSON lines: one event object per line; blank lines are skipped (and counted). */
export async function* readJsonLines(input: Readable, defaults: Defaults): AsyncGenerator<InputRecord> {
  const lines = createInterface({input, crlfDelay: Infinity})
  let line = 0
  let bytes = 0
  for await (const read of lines) {
    line++
    bytes += Buffer.byteLength(read) + 1
    // a byte order mark (as Windows editors write) is not part of the first line's JSON
    const text = line === 1 ? read.replace(/^\ufeff/, '') : read
    if (text.trim() === '') continue
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch (error) {
      yield {line, bytes, error: `not JSON (${(error as Error).message})`}
      continue
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      yield {line, bytes, error: 'not a JSON object (one event per line)'}
      continue
    }
    const checked = checkEvent(raw as Record<string, unknown>, defaults)
    yield typeof checked === 'string' ? {line, bytes, error: checked} : {line, bytes, event: checked}
  }
}

/** A CSV cell as a metadata value: numbers and true/false keep their type. */
function cellValue(text: string): string | number | boolean {
  if (/^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text)
  if (text === 'true' || text === 'false') return text === 'true'
  return text
}

const CSV_FIELDS = new Set(['name', 'customer_id', 'external_customer_id', 'timestamp', 'external_id', 'parent_id'])

/** One CSV record (keyed by the header) as an event: `metadata.KEY` columns fill `metadata`; empty cells are left out. */
export function csvEvent(record: Record<string, string>): Record<string, unknown> | string {
  const event: Record<string, unknown> = {}
  const metadata: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(record)) {
    if (value === '' || value === undefined) continue
    if (column.startsWith('metadata.')) metadata[column.slice('metadata.'.length)] = cellValue(value)
    else if (CSV_FIELDS.has(column)) event[column] = value
    else return `unknown column "${column}" (use name, customer_id, external_customer_id, timestamp, external_id or metadata.KEY)`
  }
  if (Object.keys(metadata).length > 0) event.metadata = metadata
  return event
}

/** CSV with a header line (`name,external_customer_id,timestamp,external_id,metadata.KEY,...`). */
export async function* readCsv(input: Readable, defaults: Defaults): AsyncGenerator<InputRecord> {
  // The header is checked as it is read: a file of unknown columns (or garbage) fails even with no rows.
  const header = (columns: string[]) => {
    const unknown = columns.find((c) => !CSV_FIELDS.has(c) && !c.startsWith('metadata.'))
    if (unknown !== undefined)
      throw new Error(
        `the header has an unknown column ${JSON.stringify(unknown)}; use name, customer_id, external_customer_id, timestamp, external_id, parent_id or metadata.KEY`,
      )
    return columns
  }
  const parser = input.pipe(parseCsv({columns: header, info: true, skip_empty_lines: true, relax_column_count: false, bom: true, trim: false}))
  try {
    for await (const item of parser as AsyncIterable<{record: Record<string, string>; info: {lines: number; bytes: number}}>) {
      const {record, info} = item
      const raw = csvEvent(record)
      if (typeof raw === 'string') {
        yield {line: info.lines, bytes: info.bytes, error: raw}
        continue
      }
      const checked = checkEvent(raw, defaults)
      yield typeof checked === 'string' ? {line: info.lines, bytes: info.bytes, error: checked} : {line: info.lines, bytes: info.bytes, event: checked}
    }
  } catch (error) {
    const e = error as Error & {lines?: number}
    // never line 0: that would count as settled and be skipped without a word
    yield {line: Math.max(1, e.lines ?? 1), bytes: 0, error: `bad CSV (${e.message})`}
  }
}

export function openInput(path: string): Readable {
  return path === '-' ? process.stdin : createReadStream(path)
}
