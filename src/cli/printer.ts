// Printing resources to stdout in the chosen format, for one command run. A list streams; one
// resource is a detail view (or a JSON object). While a command acts on ids read from stdin, each
// resource printed joins one list per resource (a table, csv/tsv rows, JSON lines), so that the bulk
// output of `get -` has the same columns and the same JSON objects as the single command's.
import {Writable} from 'node:stream'

import type {Context} from './context.js'
import {rememberShownIds} from './shown-ids.js'
import {wrapWords} from './output/format.js'
import type {ListWriter} from './output/writers.js'
import type {ColumnsSpec, ResourceColumns} from './output/columns.js'
import {projectRow} from './output/paths.js'
import {withoutDeprecated} from './output/deprecated.js'
import type {Format} from './output/format.js'
import {longerThanScreen, page, pagerCommand} from './pager.js'

export interface OutputFlagValues {
  output?: string
  columns?: string
  json?: boolean
  /** --no-header / --header: the header line of csv and tsv (see the writers). */
  header?: boolean
  /** --no-pager: a long detail view is not paged. */
  pager?: boolean
}

type Flags = OutputFlagValues & {color?: boolean}

async function* mapItems<T, U>(items: AsyncIterable<T> | Iterable<T>, f: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield f(item)
}

/** The fields JSON output keeps: those of --columns (dotted paths allowed), or undefined for all. */
export function jsonFields(format: string, columns: string | undefined): string[] | undefined {
  if ((format !== 'json' && format !== 'jsonl') || columns === undefined) return undefined
  return columns
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')
}

/** One item as printed: without deprecated fields, and with JSON only the --columns fields. */
function shownItem(resource: string, format: string, columns: ColumnsSpec, requested: string | undefined) {
  const names = jsonFields(format, requested)
  return (item: object): Record<string, unknown> => {
    const row = withoutDeprecated(resource, item) as Record<string, unknown>
    if (!names) return row
    if (typeof columns === 'function') columns(row) // checks the names against the first row's fields
    return projectRow(row, names)
  }
}

/** What a create prints when piped without a format: which field names the new object, and its one-time secret. */
export interface CreatedOptions {
  /** The field printed alone (default `id`; a checkout's `url`, an OAuth2 client's `client_id`). */
  key?: string
  /** A field the service shows this once (a signing secret, a client secret, a session token): printed after the key, tab-separated, and added to csv/tsv columns. */
  secret?: string
  /** The key alone on a terminal too (a checkout's URL), not the detail view. */
  keyOnTerminal?: boolean
  /** The columns shown in a table, csv or tsv without --columns (default: the detail view, or the resource's default columns). */
  columns?: readonly string[]
}

export interface PrinterHost {
  ctx: Context
  registry(): Promise<Record<string, ResourceColumns>>
  jsonEnabled(): boolean
}

export class Printer {
  /** Set while acting on ids from stdin: one list per resource, ended by endShared(). */
  private shared?: Map<string, {writer: ListWriter; shown: (item: object) => object}>

  constructor(private readonly host: PrinterHost) {}

  async setup(resource: string, flags: Flags) {
    const output = await import('./output/index.js')
    const io = this.host.ctx.io
    const format: Format = output.resolveFormat({output: flags.output, json: flags.json ?? this.host.jsonEnabled(), stdoutIsTTY: io.stdoutIsTTY})
    const color = output.colorEnabled({flag: flags.color, env: process.env, isTTY: io.stdoutIsTTY})
    return {output, format, color, columns: output.columnsFor(await this.host.registry(), resource, flags.columns)}
  }

  /** A list writer for `resource` on stdout, and how each item is shown. */
  async listWriter(resource: string, flags: Flags, opts: {footer?: string; format?: Format; out?: NodeJS.WritableStream} = {}) {
    const {output, format: chosen, color, columns} = await this.setup(resource, flags)
    const format = opts.format ?? chosen
    const io = this.host.ctx.io
    const writer = output.createListWriter({
      format,
      now: await this.relativeClock(format),
      out: opts.out ?? io.stdout,
      columns,
      tty: io.stdoutIsTTY,
      color,
      footer: opts.footer,
      width: io.stdout.columns,
      fullIds: flags.columns !== undefined,
      header: flags.header,
      onCutIds: (ids: string[]) => {
        for (const id of ids) this.cutIds.add(id)
      },
      onLeftOut: (headers: string[]) => {
        this.leftOut = headers
      },
    })
    return {writer, format, shown: shownItem(resource, format, columns, flags.columns), output}
  }

  /**
   * The clock relative times count from (`2d ago`), which only a table on a terminal shows: the environment's
   * (an emulator's clock on an emulator profile), read then and only then; this machine's otherwise.
   */
  private async relativeClock(format: Format): Promise<(() => number) | undefined> {
    return format === 'table' && this.host.ctx.io.stdoutIsTTY ? this.host.ctx.clock.reader() : undefined
  }

  /** Streams a list; returns the format used. */
  async writeList(
    resource: string,
    items: AsyncIterable<object> | Iterable<object>,
    flags: Flags,
    footer?: (format: Format) => string | undefined,
  ): Promise<Format> {
    const {format} = await this.setup(resource, flags)
    if (this.shared && format !== 'table') {
      for await (const item of items) await this.writeShared(resource, item, flags)
      return format
    }
    const io = this.host.ctx.io
    // --pager asked for on a terminal: the table is kept, then paged when it is longer than the screen
    const command = flags.pager === true && format === 'table' && io.stdoutIsTTY ? pagerCommand(process.env) : undefined
    const kept = command ? keptText() : undefined
    const {writer, shown, output} = await this.listWriter(resource, flags, {footer: footer?.(format), out: kept?.stream})
    await output.writeList(mapItems(items, shown), writer)
    if (kept && command) {
      const text = kept.text()
      if (!longerThanScreen(text, io.stdout.rows) || !(await page(text, command, io.stdout))) await output.writeText(io.stdout, text)
    }
    this.sayWhatWasCut()
    return format
  }

  /** Ids a table showed cut: remembered for the profile, so that the shown prefix works as an id; said once on stderr. */
  private readonly cutIds = new Set<string>()
  /** The headers of the columns a table left out to fit the terminal: said on stderr with the way to see them. */
  private leftOut: string[] = []
  /** After a table: the columns it left out, then the ids it cut (remembered for the profile), each said once on stderr. */
  private sayWhatWasCut(): void {
    const ctx = this.host.ctx
    const width = ctx.io.stderrIsTTY ? ctx.io.stderr.columns : undefined
    if (this.leftOut.length > 0) {
      const names = this.leftOut.map((h) => h.toUpperCase()).join(', ')
      const line = `Left out to fit ${ctx.io.stdout.columns} columns: ${names}; a wider terminal or --columns shows them.`
      ctx.note(wrapWords(line, width))
      this.leftOut = []
    }
    if (this.cutIds.size === 0) return
    const ids = [...this.cutIds]
    rememberShownIds(ctx.configDir, `${ctx.profile.name} ${ctx.profile.baseUrl}`, ids)
    const line = `Ids are cut to fit the terminal: a shown prefix (${ids[0]!.slice(0, 8)}) works where an id is expected; -o tsv or --columns id shows them whole.`
    ctx.note(wrapWords(line, width))
    this.cutIds.clear()
  }

  /**
   * Prints one resource (a detail view on a terminal: its summary, then the other fields; paged when
   * longer than the screen), or adds it to the shared list while acting on ids from stdin. After a
   * change (`summaryOnly`) the detail view is the summary alone.
   */
  async writeOne(resource: string, item: object, flags: Flags, options: {summaryOnly?: boolean} = {}): Promise<void> {
    if (this.shared) return this.writeShared(resource, item, flags)
    // csv and tsv give the same columns as a row of the list; a table without --columns is the detail view.
    const {output, format, color, columns: chosen} = await this.setup(resource, flags)
    const columns = flags.columns || format === 'csv' || format === 'tsv' ? chosen : undefined
    const row = shownItem(resource, format, columns ?? [], flags.columns)(item)
    const io = this.host.ctx.io
    const detail = !flags.columns
    const view = detail && format === 'table' ? (await this.host.registry())[resource]?.detail : undefined
    const width = io.stdoutIsTTY ? io.stdout.columns : undefined
    const now = await this.relativeClock(format)
    const shown = {
      format,
      now,
      out: io.stdout,
      columns,
      tty: io.stdoutIsTTY,
      color,
      header: flags.header,
      detail,
      view,
      width,
      summaryOnly: options.summaryOnly,
    }
    const text = await output.renderObject(row, shown)
    if (detail && format === 'table' && io.stdoutIsTTY && flags.pager !== false && longerThanScreen(text, io.stdout.rows)) {
      const command = pagerCommand(process.env)
      if (command && (await page(text, command, io.stdout))) return
    }
    await output.writeText(io.stdout, text)
  }

  /**
   * A resource just created. Piped without -o/--json/--columns: its key alone (`id=$(till ... create)`), then
   * its one-time secret after a tab when it has one (`read -r id secret`). With a format or on a terminal:
   * as `get` shows it, the secret among the csv/tsv columns so that it is never lost.
   */
  async writeCreated(resource: string, item: object, flags: Flags, options: CreatedOptions = {}): Promise<void> {
    const row = item as Record<string, unknown>
    const keyName = options.key ?? 'id'
    const key = row[keyName]
    const secret = options.secret === undefined || options.secret === keyName ? undefined : row[options.secret]
    const io = this.host.ctx.io
    const asked = flags.output !== undefined || flags.columns !== undefined || (flags.json ?? this.host.jsonEnabled())
    if (!asked && typeof key === 'string' && (!io.stdoutIsTTY || options.keyOnTerminal)) {
      io.stdout.write(`${key}${typeof secret === 'string' ? `\t${secret}` : ''}\n`)
      return
    }
    const {format} = await this.setup(resource, flags)
    if (flags.columns !== undefined || format === 'json' || format === 'jsonl') return this.writeOne(resource, item, flags)
    // a table, csv or tsv: the secret is among the columns
    const chosen = options.columns ?? (format === 'table' ? undefined : (await this.host.registry())[resource]?.defaults)
    const columns = chosen && options.secret && !chosen.includes(options.secret) && row[options.secret] !== undefined ? [...chosen, options.secret] : chosen
    return this.writeOne(resource, item, columns ? {...flags, columns: columns.join(',')} : flags)
  }

  /** From now on, resources printed join one list per resource (JSON as JSON lines: one object per id). */
  startShared(): void {
    this.shared = new Map()
  }

  private async writeShared(resource: string, item: object, flags: Flags): Promise<void> {
    let list = this.shared!.get(resource)
    if (!list) {
      const {format} = await this.setup(resource, flags)
      list = await this.listWriter(resource, flags, {format: format === 'json' ? 'jsonl' : format})
      this.shared!.set(resource, list)
    }
    await list.writer.write(list.shown(item))
  }

  /** Writes what the shared lists hold so far (before a failure is reported on stderr). */
  async flushShared(): Promise<void> {
    for (const {writer} of this.shared?.values() ?? []) await writer.flush()
  }

  /** True once stdout's reader has gone. */
  get closed(): boolean {
    return [...(this.shared?.values() ?? [])].some(({writer}) => writer.closed)
  }

  async endShared(): Promise<void> {
    const lists = [...(this.shared?.values() ?? [])]
    this.shared = undefined
    for (const {writer} of lists) await writer.end()
  }
}

/** A stream that keeps what is written to it, as text. */
function keptText(): {stream: NodeJS.WritableStream; text: () => string} {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString())
      done()
    },
  })
  return {stream, text: () => chunks.join('')}
}
