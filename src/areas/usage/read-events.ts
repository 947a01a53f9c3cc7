// Events read from JSON lines or CSV, one input record at a time with its line number, so that a
// file of any size streams through in bounded memory. A bad line becomes a record with an error.
import {createReadStream} from 'node:fs'
import {createInterface} from 'node:readline'
import type {Readable} from 'node:stream'

import type {EventInput} from '../../client/resources/events.js'

export interface InputRecord {
  /** 1-based line number of the record (its last line for a CSV record spanning lines). */
  line: number
  /** Bytes of input consumed through this record (for progress). */
  bytes: number
  event?: EventInput
  error?: string
  /** The error is of the whole input (a CSV header), not of one record: the run stops even with --skip-invalid. */
  fatal?: boolean
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

/** A CSV record being read, line by line: its cells so far and, inside a quoted cell, that cell so far. */
interface CsvState {
  cells: string[]
  cell: string
  /** Inside a quoted cell that the line read last did not close. */
  open: boolean
}

/**
 * Reads one more line of a CSV record (RFC 4180: cells split by commas, a cell in quotes may hold commas,
 * doubled quotes and line breaks). Returns an error, 'open' when a quoted cell goes on on the next line,
 * or 'done'. Pure but for `state`.
 */
export function feedCsvLine(state: CsvState, text: string): 'done' | 'open' | {error: string} {
  let i = 0
  if (state.open) state.cell += '\n'
  for (;;) {
    if (state.open) {
      const quote = text.indexOf('"', i)
      if (quote < 0) {
        state.cell += text.slice(i)
        return 'open'
      }
      state.cell += text.slice(i, quote)
      if (text[quote + 1] === '"') {
        state.cell += '"'
        i = quote + 2
        continue
      }
      state.open = false
      state.cells.push(state.cell)
      state.cell = ''
      i = quote + 1
      if (i === text.length) return 'done'
      if (text[i] !== ',') return {error: 'text after the closing quote of a cell (a quote inside a quoted cell is written twice: "")'}
      i++
    }
    if (text[i] === '"') {
      state.open = true
      i++
      continue
    }
    const comma = text.indexOf(',', i)
    const cell = comma < 0 ? text.slice(i) : text.slice(i, comma)
    if (cell.includes('"')) return {error: 'a quote inside a cell that does not start with one (put the cell in quotes and write the quote twice: "a ""b""")'}
    state.cells.push(cell)
    if (comma < 0) return 'done'
    i = comma + 1
  }
}

/** A quoted cell may span lines; one that goes on past this many bytes is taken as a quote never closed. */
const MAX_OPEN_BYTES = 1024 * 1024

interface Line {
  line: number
  text: string
  /** Bytes of input through this line. */
  bytes: number
}

/**
 * CSV with a header line (`name,external_customer_id,timestamp,external_id,metadata.KEY,...`). Every record
 * is read on its own, so a bad one costs that record only: a record of the wrong length, or a quote that is
 * never closed (its first line is the bad one; the lines after it are read again as records of their own).
 */
export async function* readCsv(input: Readable, defaults: Defaults): AsyncGenerator<InputRecord> {
  const lines = createInterface({input, crlfDelay: Infinity})[Symbol.asyncIterator]()
  /** Lines read again after a quote that was never closed. */
  const again: Line[] = []
  let count = 0
  let bytes = 0
  const next = async (): Promise<Line | null> => {
    const line = again.shift()
    if (line) return line
    const read = await lines.next()
    if (read.done) return null
    count++
    bytes += Buffer.byteLength(read.value) + 1
    // a byte order mark (as Windows editors write) is not part of the header
    return {line: count, text: count === 1 ? read.value.replace(/^\ufeff/, '') : read.value, bytes}
  }
  let header: string[] | null = null
  let record: {state: CsvState; lines: Line[]; size: number} | null = null
  for (;;) {
    const line = await next()
    if (line === null && record === null) return
    if (line !== null && record === null && line.text === '') continue
    if (line !== null) {
      record ??= {state: {cells: [], cell: '', open: false}, lines: [], size: 0}
      record.lines.push(line)
      record.size += line.text.length
    }
    const outcome = line === null ? 'open' : feedCsvLine(record!.state, line.text)
    if (outcome === 'open' && line !== null && record!.size <= MAX_OPEN_BYTES) continue
    const {state, lines: read} = record!
    record = null
    const first = read[0]!
    const last = read.at(-1)!
    if (outcome === 'open') {
      // The quote opened on the first line is never closed: that line is the bad one, the others are read again.
      again.unshift(...read.slice(1))
      const problem = 'a quoted cell is never closed (a cell that starts with " needs a closing ")'
      if (header === null) {
        yield {line: first.line, bytes: first.bytes, error: `bad CSV header (${problem})`, fatal: true}
        return
      }
      yield {line: first.line, bytes: first.bytes, error: problem}
      continue
    }
    if (typeof outcome === 'object') {
      if (header === null) {
        yield {line: last.line, bytes: last.bytes, error: `bad CSV header (${outcome.error})`, fatal: true}
        return
      }
      yield {line: last.line, bytes: last.bytes, error: outcome.error}
      continue
    }
    if (header === null) {
      // The header is checked as it is read: a file of unknown columns (or garbage) fails even with no rows.
      const unknown = state.cells.find((c) => !CSV_FIELDS.has(c) && !c.startsWith('metadata.'))
      if (unknown !== undefined) {
        const error = `bad CSV (the header has an unknown column ${JSON.stringify(unknown)}; use name, customer_id, external_customer_id, timestamp, external_id, parent_id or metadata.KEY)`
        yield {line: last.line, bytes: last.bytes, error, fatal: true}
        return
      }
      header = state.cells
      continue
    }
    if (state.cells.length !== header.length) {
      const error = `${state.cells.length} ${state.cells.length === 1 ? 'cell' : 'cells'} where the header has ${header.length}`
      yield {line: last.line, bytes: last.bytes, error}
      continue
    }
    const raw = csvEvent(Object.fromEntries(header.map((column, i) => [column, state.cells[i]!])))
    if (typeof raw === 'string') {
      yield {line: last.line, bytes: last.bytes, error: raw}
      continue
    }
    const checked = checkEvent(raw, defaults)
    yield typeof checked === 'string' ? {line: last.line, bytes: last.bytes, error: checked} : {line: last.line, bytes: last.bytes, event: checked}
  }
}

export function openInput(path: string): Readable {
  return path === '-' ? process.stdin : createReadStream(path)
}
