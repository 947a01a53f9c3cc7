// Writers for lists (streamed as pages arrive, with backpressure) and for single resources.
//
// Formats:
// - table: borderless, header once, widths fixed by the first batch (see table.ts); dates relative on a TTY.
// - json:  one array written incrementally (`[`, items separated by `,\n`, `]`); `[]` when empty. Values untouched.
// - jsonl: one JSON object per line.
// - csv:   RFC 4180: a header line of column keys (unless `header: false`), fields quoted when they hold
//          `,`, `"` or line breaks, records ending in CRLF on every platform.
// - tsv:   no header line unless `header: true` (GitHub CLI's piped output), so `cut -f2` and `while read`
//          see data only; tabs and line breaks inside values become spaces; lines end in LF.
// On a terminal, what a value holds never acts on it: a table escapes control characters and U+202E, as do
// csv and tsv (csv keeps line breaks inside quoted fields); JSON writes them as \u escapes (the same JSON).
// Piped, csv and tsv keep the bytes (tsv's tabs and line breaks inside values still become spaces).
// csv and tsv carry raw values: dates in full ISO, money as minor units with a currency column (added
// at the end when not chosen), sizes in bytes, yes/no for booleans, and a column made for people (a price
// as `$15.00`) replaced by its raw columns (machineColumns). A single resource is one row of the same columns.
import {Chalk, type ChalkInstance} from 'chalk'

import {allFieldColumns, cellText, type CellStyle, type Column, type ColumnsSpec, type DetailView, type Row, machineColumns} from './columns.js'
import {renderDetail} from './detail.js'
import {csvField, type Format, jsonFor, singleLine, terminalLines, terminalText, wrapWords} from './format.js'
import {sinkFor, type Sink} from './sink.js'
import {BatchTable, renderKeyValue} from './table.js'

/** Rows a table prints at once at most; a batch also ends when the producer waits (a page boundary) or on flush(). */
export const TABLE_BATCH = 100
/** Characters of text buffered before they are written. */
const TEXT_CHUNK = 64 * 1024

export interface ListWriterOptions {
  format: Format
  out: NodeJS.WritableStream
  /** The columns of table, csv and tsv output (ignored by json and jsonl). */
  columns?: ColumnsSpec
  /** Whether `out` is a terminal: relative dates and pretty JSON. */
  tty: boolean
  color: boolean
  now?: () => number
  /** A line printed after a non-empty table (the production profile marker): a warning, in bold red with colour. */
  footer?: string
  /** Terminal width for tables to fit in (and the footer to wrap at). */
  width?: number
  /** Ids whole in a table even on a narrow terminal (`--columns` named the columns). */
  fullIds?: boolean
  /** Told the ids a table shows cut to fit the terminal (whole values). */
  onCutIds?: (ids: string[]) => void
  /** Told the headers of the columns a table left out to fit the terminal. */
  onLeftOut?: (headers: string[]) => void
  /** Rows per table batch (default 100). */
  batchSize?: number
  /** A header line of column keys in csv and tsv (default: csv yes, tsv no). */
  header?: boolean
}

export interface ListWriter {
  /** Buffer one item; resolves at once unless the stream is full (then after it drains). */
  write(item: object): Promise<void>
  /** Write what is buffered now (a table prints its batch). Use it at page boundaries, or before reporting an error. */
  flush(): Promise<void>
  /** Write the rest and close the list (`]`, table footer). Does not end `out`. */
  end(): Promise<void>
  /** The reader has gone (`| head -1`): stop producing, the command exits 0. */
  readonly closed: boolean
  /** Items written so far. */
  readonly count: number
}

/** How one format turns items into text; `take` empties the buffer. */
interface Layout {
  add(row: Row): void
  readonly full: boolean
  take(): Promise<string>
  finish(count: number): Promise<string>
}

export const chalkFor = (color: boolean): ChalkInstance => new Chalk({level: color ? 1 : 0})

const machineStyle = (now: number): CellStyle => ({dates: 'iso', grouping: false, now, raw: true})

function resolveColumns(spec: ColumnsSpec | undefined, first: Row | undefined): Column[] {
  if (spec === undefined) return first ? allFieldColumns(first) : []
  return typeof spec === 'function' ? spec(first) : spec
}

/** One csv record (CRLF) or tsv line; on a terminal (`tty`), every field escaped. */
const delimitedLine = (format: 'csv' | 'tsv', cells: string[], tty: boolean): string =>
  format === 'csv' ? `${cells.map((c) => csvField(tty ? terminalLines(c) : c)).join(',')}\r\n` : `${cells.map(tty ? terminalText : singleLine).join('\t')}\n`

/** JSON text as it is written to `out`: on a terminal, with what would act on it escaped (the same JSON). */
const jsonText = jsonFor

class TextBuffer {
  text = ''
  get full(): boolean {
    return this.text.length >= TEXT_CHUNK
  }
  async take(): Promise<string> {
    const text = this.text
    this.text = ''
    return text
  }
}

class JsonLayout extends TextBuffer implements Layout {
  private started = false
  constructor(private readonly pretty: boolean) {
    super()
  }
  add(row: Row): void {
    const json = this.pretty ? `  ${JSON.stringify(row, null, 2).replaceAll('\n', '\n  ')}` : JSON.stringify(row)
    this.text += `${this.started ? ',\n' : '[\n'}${jsonText(json, this.pretty)}`
    this.started = true
  }
  async finish(): Promise<string> {
    return this.started ? `${await this.take()}\n]\n` : '[]\n'
  }
}

class JsonlLayout extends TextBuffer implements Layout {
  constructor(private readonly tty: boolean) {
    super()
  }
  add(row: Row): void {
    this.text += `${jsonText(JSON.stringify(row), this.tty)}\n`
  }
  async finish(): Promise<string> {
    return this.take()
  }
}

class DelimitedLayout extends TextBuffer implements Layout {
  private columns: Column[] | undefined
  constructor(
    private readonly format: 'csv' | 'tsv',
    private readonly spec: ColumnsSpec | undefined,
    private readonly now: () => number,
    private readonly header: boolean,
    private readonly tty: boolean,
  ) {
    super()
  }
  add(row: Row): void {
    const columns = this.start(row)
    const style = machineStyle(this.now())
    this.text += delimitedLine(
      this.format,
      columns.map((c) => cellText(c, row, style)),
      this.tty,
    )
  }
  async finish(): Promise<string> {
    this.start(undefined)
    return this.take()
  }
  /** Columns, chosen at the first row; the csv header goes first. */
  private start(first: Row | undefined): Column[] {
    if (!this.columns) {
      this.columns = machineColumns(resolveColumns(this.spec, first))
      if (this.header)
        this.text += delimitedLine(
          this.format,
          this.columns.map((c) => c.key),
          this.tty,
        )
    }
    return this.columns
  }
}

class TableLayout implements Layout {
  private columns: Column[] | undefined
  private table: BatchTable | undefined
  private rows: string[][] = []
  constructor(
    private readonly options: ListWriterOptions & {now: () => number; batchSize: number},
    private readonly chalk: ChalkInstance,
  ) {}
  get full(): boolean {
    return this.rows.length >= this.options.batchSize
  }
  add(row: Row): void {
    if (!this.columns) {
      this.columns = resolveColumns(this.options.columns, row)
      const {width, fullIds, onCutIds, onLeftOut} = this.options
      this.table = new BatchTable(this.columns, this.chalk, {maxWidth: width, fullIds, onCutIds, onLeftOut})
    }
    const style: CellStyle = {dates: this.options.tty ? 'relative' : 'iso', grouping: true, now: this.options.now()}
    this.rows.push(this.columns.map((c) => terminalText(cellText(c, row, style))))
  }
  take(): Promise<string> {
    const rows = this.rows
    this.rows = []
    return this.table ? this.table.render(rows) : Promise.resolve('')
  }
  async finish(count: number): Promise<string> {
    const rest = await this.take()
    const footer = count > 0 && this.options.footer ? `${this.chalk.bold.red(wrapWords(this.options.footer, this.options.width))}\n` : ''
    return rest + footer
  }
}

function layoutFor(options: ListWriterOptions & {now: () => number; batchSize: number}): Layout {
  switch (options.format) {
    case 'json':
      return new JsonLayout(options.tty)
    case 'jsonl':
      return new JsonlLayout(options.tty)
    case 'csv':
    case 'tsv':
      return new DelimitedLayout(options.format, options.columns, options.now, options.header ?? options.format === 'csv', options.tty)
    case 'table':
      return new TableLayout(options, chalkFor(options.color))
  }
}

class StreamingListWriter implements ListWriter {
  count = 0
  private readonly sink: Sink
  private readonly layout: Layout
  private flushing: Promise<void> = Promise.resolve()
  private idle: NodeJS.Immediate | undefined
  private failure: unknown
  private ended = false

  constructor(options: ListWriterOptions) {
    this.sink = sinkFor(options.out)
    this.layout = layoutFor({...options, now: options.now ?? Date.now, batchSize: options.batchSize ?? TABLE_BATCH})
  }

  get closed(): boolean {
    return this.sink.closed
  }

  async write(item: object): Promise<void> {
    if (this.ended) throw new Error('write() after end()')
    while (this.sink.draining) await this.sink.draining
    this.rethrow()
    if (this.closed) return
    this.layout.add(item as Row)
    this.count++
    if (this.layout.full) await this.flush()
    else this.idle ??= setImmediate(() => this.flush().catch((error: unknown) => (this.failure ??= error)))
  }

  flush(): Promise<void> {
    if (this.idle) clearImmediate(this.idle)
    this.idle = undefined
    this.flushing = this.flushing.then(async () => this.sink.write(await this.layout.take()))
    return this.flushing
  }

  async end(): Promise<void> {
    if (this.ended) return
    this.ended = true
    await this.flush()
    this.rethrow()
    await this.sink.write(await this.layout.finish(this.count))
  }

  private rethrow(): void {
    if (this.failure) throw this.failure
  }
}

/** A writer for a list in `format`; call write() per item, flush() per page if you like, then end(). */
export function createListWriter(options: ListWriterOptions): ListWriter {
  return new StreamingListWriter(options)
}

/**
 * Write every item of `items` (an async generator over pages' items) and end the list. Stops early,
 * ending the generator, when the reader has gone. On a failure mid-way the rows so far are shown
 * (a JSON array is left open, so it does not pass for a complete list) and the error is rethrown.
 */
export async function writeList(items: AsyncIterable<object> | Iterable<object>, writer: ListWriter): Promise<{count: number; closed: boolean}> {
  try {
    for await (const item of items) {
      await writer.write(item)
      if (writer.closed) break
    }
  } catch (error) {
    await writer.flush().catch(() => undefined)
    throw error
  }
  await writer.end()
  return {count: writer.count, closed: writer.closed}
}

export interface ObjectWriterOptions {
  format: Format
  out: NodeJS.WritableStream
  /** Fields to show in table/csv/tsv; all top-level fields without. */
  columns?: ColumnsSpec
  tty: boolean
  color: boolean
  now?: () => number
  /** A header line of column keys in csv and tsv (default: csv yes, tsv no), as for lists. */
  header?: boolean
  /** A table shows the resource as a detail view (sections, nested objects indented) rather than chosen columns. */
  detail?: boolean
  /** The terminal's width, that the detail view's long values are wrapped to. */
  width?: number
  /** The detail view's curated summary, and whether to show it alone (after an update). */
  view?: DetailView
  summaryOnly?: boolean
}

/**
 * One resource (`get` commands): a label/value table (dates in full, relative too on a TTY),
 * pretty JSON, one JSON line, or a csv/tsv header and row. A gone reader is not an error.
 */
export async function writeObject(item: object, options: ObjectWriterOptions): Promise<void> {
  await sinkFor(options.out).write(await renderObject(item as Row, options))
}

/** Text to `out`, with backpressure; a gone reader is not an error. */
export const writeText = (out: NodeJS.WritableStream, text: string): Promise<void> => sinkFor(out).write(text)

/** One resource as writeObject prints it. */
export async function renderObject(row: Row, options: ObjectWriterOptions): Promise<string> {
  const now = (options.now ?? Date.now)()
  const columns = () => resolveColumns(options.columns, row)
  switch (options.format) {
    case 'json':
      return `${jsonText(JSON.stringify(row, null, 2), options.tty)}\n`
    case 'jsonl':
      return `${jsonText(JSON.stringify(row), options.tty)}\n`
    case 'csv':
    case 'tsv': {
      const cols = machineColumns(columns())
      const cells = cols.map((c) => cellText(c, row, machineStyle(now)))
      const header =
        (options.header ?? options.format === 'csv')
          ? delimitedLine(
              options.format,
              cols.map((c) => c.key),
              options.tty,
            )
          : ''
      return header + delimitedLine(options.format, cells, options.tty)
    }
    case 'table': {
      if (options.detail) {
        const style = {now, chalk: chalkFor(options.color), width: options.width}
        return renderDetail(row, style, {view: options.view, summaryOnly: options.summaryOnly})
      }
      const style: CellStyle = {dates: options.tty ? 'both' : 'iso', grouping: true, now}
      const pairs = columns().map((c): [string, string, Column['kind']] => [c.header, terminalText(cellText(c, row, style)), c.kind])
      return renderKeyValue(pairs, chalkFor(options.color))
    }
  }
}
