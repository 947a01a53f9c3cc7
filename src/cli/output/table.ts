// Borderless tables (cli-table3, loaded on first use) printed in batches: the header once, column
// widths fixed by the first batch, wider values cut with an ellipsis (at a word when one is near; a longer
// status, amount or yes/no widens its column instead). A table never exceeds the terminal: dates take
// their short form (`11d ago`), ids are shortened (whole when piped or named by --columns), then text gives
// way; rather than cut text to a few letters, the last columns are left out and the caller says so.
// Statuses, money and yes/no are never cut.
import type {ChalkInstance} from 'chalk'
import type CliTable from 'cli-table3'

import type {ColumnKind} from './columns.js'
import {charWidth, displayWidth} from './format.js'

type TableClass = typeof CliTable
let tableClass: Promise<TableClass> | undefined
const loadTable = () => (tableClass ??= import('cli-table3').then((m) => m.default))

const NO_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
}
const GAP = 2
/** The widest a column gets unless it holds ids (kept whole so they can be copied, unless the terminal is narrow). */
const MAX_COLUMN = 48
/** The narrowest a column is squeezed to when fitting a terminal. */
const MIN_COLUMN = 8

/**
 * `text` cut to `width` cells, ending in an ellipsis when cut: at the last space when that loses at most a
 * few cells (`Sample…`, not `Sample …` or `Consult…` for `Consulting Hours`), else mid-word.
 */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let out = ''
  let used = 0
  for (const char of text) {
    const w = charWidth(char)
    if (used + w > width - 1) break
    out += char
    used += w
  }
  const space = out.lastIndexOf(' ')
  const atWord = text[out.length] === ' ' || (space > 0 && out.length - space <= Math.min(8, out.length * 0.4))
  return `${(atWord && text[out.length] !== ' ' ? out.slice(0, space) : out).trimEnd()}…`
}

const RELATIVE = /^(in )?([\d,]+) (minute|hour|day|month|year)s?( ago)?$/
const SHORT_UNITS: Record<string, string> = {minute: 'min', hour: 'h', day: 'd', month: 'mo', year: 'y'}

/** A relative date as a table squeezed for room shows it: `11 days ago` -> `11d ago`, `in 3 months` -> `in 3mo`. */
export function compactDate(text: string): string {
  const match = RELATIVE.exec(text)
  if (!match) return text
  const [, future, count, unit, past] = match
  return `${future ?? ''}${count}${SHORT_UNITS[unit!]}${past ?? ''}`
}

const STATUS_COLORS: Record<string, 'green' | 'yellow' | 'red'> = {
  paid: 'green',
  active: 'green',
  succeeded: 'green',
  confirmed: 'green',
  granted: 'green',
  public: 'green',
  enabled: 'green',
  pending: 'yellow',
  draft: 'yellow',
  open: 'yellow',
  trialing: 'yellow',
  incomplete: 'yellow',
  partially_refunded: 'yellow',
  private: 'yellow',
  past_due: 'red',
  void: 'red',
  canceled: 'red',
  failed: 'red',
  refunded: 'red',
  revoked: 'red',
  expired: 'red',
  unpaid: 'red',
  disabled: 'red',
}

/** A cell's text styled by its column kind (no-op without colour). */
export function styleCell(kind: ColumnKind | undefined, text: string, chalk: ChalkInstance): string {
  if (text === '') return text
  if (kind === 'status') {
    const color = STATUS_COLORS[text]
    return color ? chalk[color](text) : text
  }
  if (kind === 'date') return chalk.dim(text)
  return text
}

export interface TableColumn {
  header: string
  kind?: ColumnKind
}

export interface TableOptions {
  /** Terminal width to fit in, when known. */
  maxWidth?: number
  /** Ids whole even when the table does not fit (`--columns` named them); otherwise cut to SHORT_ID on a narrow terminal. */
  fullIds?: boolean
  /** Told the whole values of the ids a batch shows cut (they are remembered, so that a shown prefix works as an id). */
  onCutIds?: (ids: string[]) => void
  /** Told the headers of the columns left out to fit the terminal (never when --columns named them). */
  onLeftOut?: (headers: string[]) => void
}

/** An id shortened to fit a narrow terminal: its first 8 characters and an ellipsis. */
export const SHORT_ID = 9

/** Prints rows of plain cell texts in batches that line up with each other. */
export class BatchTable {
  /** The width of each shown column, and which columns are shown (all unless some were left out to fit). */
  private widths: number[] | undefined
  private shown: number[] = []
  /** Date columns shown in their short form (`11d ago`) to fit the terminal. */
  private compact = new Set<number>()
  private shortIds = false

  constructor(
    private readonly columns: TableColumn[],
    private readonly chalk: ChalkInstance,
    private readonly options: TableOptions = {},
  ) {}

  /** The lines for `rows` (preceded by the header the first time), each ending in a newline. */
  async render(rows: string[][]): Promise<string> {
    if (rows.length === 0) return ''
    const Table = await loadTable()
    const first = this.widths === undefined
    const widths = (this.widths ??= this.measure(rows))
    const columns = this.shown.map((i) => this.columns[i]!)
    const cells = rows.map((row) => this.shown.map((i) => (this.compact.has(i) ? compactDate(row[i] ?? '') : (row[i] ?? ''))))
    if (!this.shortIds) this.widenIds(widths, columns, cells)
    if (!first) this.widenKept(widths, columns, cells)
    const table = new Table({
      chars: NO_BORDERS,
      style: {head: [], border: [], 'padding-left': 0, 'padding-right': 0},
      colWidths: widths,
      colAligns: columns.map((c) => (c.kind === 'money' ? 'right' : 'left')),
    })
    if (first) table.push(columns.map((c, i) => this.chalk.bold(truncate(c.header.toUpperCase(), widths[i]!))))
    const cut = columns.flatMap((c, i) => (c.kind === 'id' ? cells.map((r) => r[i]!).filter((id) => displayWidth(id) > widths[i]!) : []))
    if (cut.length > 0) this.options.onCutIds?.(cut)
    for (const row of cells) table.push(row.map((cell, i) => styleCell(columns[i]!.kind, truncate(cell, widths[i]!), this.chalk)))
    return linesOf(table.toString())
  }

  /** Whole ids (they get copied): a longer id in a later batch widens its column from there on. */
  private widenIds(widths: number[], columns: TableColumn[], cells: string[][]): void {
    columns.forEach((c, i) => {
      if (c.kind === 'id') widths[i] = Math.max(widths[i]!, ...cells.map((r) => displayWidth(r[i]!)))
    })
  }

  /**
   * Statuses, money and yes/no are never cut: a longer one in a later batch (`partially_refunded` after a
   * page of `paid`) widens its column, and the widest text gives the room back so the table still fits.
   */
  private widenKept(widths: number[], columns: TableColumn[], cells: string[][]): void {
    let widened = false
    columns.forEach((c, i) => {
      if (!isKept(c.kind)) return
      const widest = Math.max(widths[i]!, ...cells.map((r) => displayWidth(r[i]!)))
      if (widest > widths[i]!) [widths[i], widened] = [widest, true]
    })
    const {maxWidth} = this.options
    if (widened && maxWidth) for (const gives of [isText, isSoft]) squeeze(widths, columns, maxWidth, gives, MIN_COLUMN)
  }

  /**
   * Column widths from the header and the first batch, capped, then fitted to the terminal: dates take
   * their short form, then ids are cut and text and dates give way (fitWidths); when text would still be
   * cut below READABLE, the last columns are left out, one at a time, and the caller is told which.
   */
  private measure(rows: string[][]): number[] {
    const natural = (i: number, compact = false) => {
      const c = this.columns[i]!
      const widest = Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(compact ? compactDate(r[i] ?? '') : (r[i] ?? ''))))
      return c.kind === 'id' ? widest : Math.min(widest, MAX_COLUMN)
    }
    const all = this.columns.map((_, i) => i)
    let widths = all.map((i) => natural(i))
    const {maxWidth, fullIds} = this.options
    this.shown = all
    if (maxWidth && total(widths) > maxWidth) {
      for (const i of all) {
        if (this.columns[i]!.kind === 'date' && natural(i, true) < widths[i]!) {
          this.compact.add(i)
          widths[i] = natural(i, true)
        }
      }
      const leftOut: number[] = []
      for (;;) {
        const shown = all.filter((i) => !leftOut.includes(i))
        const fitted = shown.map((i) => widths[i]!)
        const columns = shown.map((i) => this.columns[i]!)
        this.shortIds = fitWidths(fitted, columns, maxWidth, !fullIds)
        const cramped = shown.some((i, k) => isText(this.columns[i]!.kind) && fitted[k]! < Math.min(widths[i]!, READABLE))
        const next = fullIds
          ? undefined
          : [...shown].reverse().find((i) => i !== shown[0] && this.columns[i]!.kind !== 'id' && i !== firstText(shown, this.columns))
        if (!cramped || next === undefined || shown.length <= 3) {
          this.shown = shown
          widths = fitted
          break
        }
        leftOut.push(next)
      }
      if (leftOut.length > 0) this.options.onLeftOut?.(leftOut.sort((a, b) => a - b).map((i) => this.columns[i]!.header))
    }
    return widths.map((w) => Math.max(w, 1))
  }
}

/** Text is cut no narrower than this before columns are left out to make room. */
const READABLE = 12

/** The first text column of `shown` (a name, a description): kept when columns are left out. */
const firstText = (shown: number[], columns: TableColumn[]) => shown.find((i) => isText(columns[i]!.kind))

const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1)

/**
 * What gives way first when a table is too wide: text, then dates (already in their short form); money,
 * statuses, yes/no and ids not at all (a status cut to `partially…` says nothing).
 */
const isText = (kind: ColumnKind | undefined) => kind === undefined || kind === 'text'
const isSoft = (kind: ColumnKind | undefined) => kind === 'date'
const isKept = (kind: ColumnKind | undefined) => kind === 'status' || kind === 'money' || kind === 'bool'

/** The narrowest text is squeezed to to keep ids whole (below it, ids are cut first). */
const TEXT_FLOOR = 16

/** Takes one cell at a time from the widest column `gives` admits, down to `floor`, until `widths` fit. */
function squeeze(widths: number[], columns: TableColumn[], maxWidth: number, gives: (kind: ColumnKind | undefined) => boolean, floor: number): void {
  let overflow = total(widths) - maxWidth
  while (overflow > 0) {
    let widest = -1
    for (let i = 0; i < widths.length; i++) {
      if (gives(columns[i]!.kind) && widths[i]! > floor && (widest < 0 || widths[i]! > widths[widest]!)) widest = i
    }
    if (widest < 0) break
    widths[widest]!--
    overflow--
  }
}

/**
 * Fits `widths` into `maxWidth` (in place). Ids stay whole (they get copied) when text squeezed to
 * TEXT_FLOOR makes room for them; otherwise ids are cut to SHORT_ID first when allowed, so that text
 * keeps the room, and an id whose whole width fits in what is left is whole again (from the left); then
 * the widest text column loses a cell at a time down to MIN_COLUMN, then dates. Returns
 * whether some ids stay cut (their column's later values are cut too, not widened).
 */
export function fitWidths(widths: number[], columns: TableColumn[], maxWidth: number, cutIds: boolean): boolean {
  if (total(widths) <= maxWidth) return false
  const floored = widths.map((w, i) => (isText(columns[i]!.kind) ? Math.min(w, TEXT_FLOOR) : w))
  if (total(floored) <= maxWidth) {
    squeeze(widths, columns, maxWidth, isText, TEXT_FLOOR)
    return false
  }
  let cut = false
  if (cutIds) {
    const whole = [...widths]
    columns.forEach((c, i) => {
      if (c.kind === 'id' && widths[i]! > SHORT_ID) widths[i] = SHORT_ID
    })
    // the room text leaves goes back to whole ids, from the left
    columns.forEach((c, i) => {
      if (c.kind !== 'id' || widths[i] === whole[i]) return
      if (total(widths) + whole[i]! - widths[i]! <= maxWidth) widths[i] = whole[i]!
      else cut = true
    })
  }
  for (const gives of [isText, isSoft]) squeeze(widths, columns, maxWidth, gives, MIN_COLUMN)
  return cut
}

/** Two columns, label and value, for one resource; values are never cut. */
export async function renderKeyValue(pairs: Array<[label: string, value: string, kind?: ColumnKind]>, chalk: ChalkInstance): Promise<string> {
  const Table = await loadTable()
  const table = new Table({chars: NO_BORDERS, style: {head: [], border: [], 'padding-left': 0, 'padding-right': 0}})
  for (const [label, value, kind] of pairs) table.push([chalk.bold(label), styleCell(kind, value, chalk)])
  return pairs.length === 0 ? '' : linesOf(table.toString())
}

/** cli-table3's output as newline-terminated lines without the padding after the last column. */
const linesOf = (rendered: string) =>
  rendered
    .split('\n')
    .map((line) => `${line.trimEnd()}\n`)
    .join('')
