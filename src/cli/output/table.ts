// Borderless tables (cli-table3, loaded on first use) printed in batches: the header once, column
// widths fixed by the first batch, wider values cut with an ellipsis. A table never exceeds the
// terminal: ids are shortened first (whole when piped or named by --columns), then text gives way.
import type {ChalkInstance} from 'chalk'
import type CliTable from 'cli-table3'

import type {ColumnKind} from './columns.js'

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

// Characters that take two cells on a terminal (CJK, Hangul, full-width forms, most emoji).
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u

/** Terminal cells taken by plain (unstyled) text. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) width += WIDE.test(char) ? 2 : 1
  return width
}

/** `text` cut to `width` cells, ending in an ellipsis when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let out = ''
  let used = 0
  for (const char of text) {
    const w = WIDE.test(char) ? 2 : 1
    if (used + w > width - 1) break
    out += char
    used += w
  }
  return `${out}…`
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
}

/** An id shortened to fit a narrow terminal: its first 8 characters and an ellipsis. */
export const SHORT_ID = 9

/** Prints rows of plain cell texts in batches that line up with each other. */
export class BatchTable {
  private widths: number[] | undefined
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
    if (!this.shortIds) this.widenIds(widths, rows)
    const table = new Table({
      chars: NO_BORDERS,
      style: {head: [], border: [], 'padding-left': 0, 'padding-right': 0},
      colWidths: widths,
      colAligns: this.columns.map((c) => (c.kind === 'money' ? 'right' : 'left')),
    })
    if (first) table.push(this.columns.map((c, i) => this.chalk.bold(truncate(c.header.toUpperCase(), widths[i]!))))
    const cut = this.columns.flatMap((c, i) => (c.kind === 'id' ? rows.map((r) => r[i] ?? '').filter((id) => displayWidth(id) > widths[i]!) : []))
    if (cut.length > 0) this.options.onCutIds?.(cut)
    for (const row of rows) {
      table.push(row.map((cell, i) => styleCell(this.columns[i]!.kind, truncate(cell, widths[i]!), this.chalk)))
    }
    return linesOf(table.toString())
  }

  /** Whole ids (they get copied): a longer id in a later batch widens its column from there on. */
  private widenIds(widths: number[], rows: string[][]): void {
    this.columns.forEach((c, i) => {
      if (c.kind === 'id') widths[i] = Math.max(widths[i]!, ...rows.map((r) => displayWidth(r[i] ?? '')))
    })
  }

  /** Column widths from the header and the first batch, capped, then fitted to the terminal. */
  private measure(rows: string[][]): number[] {
    const widths = this.columns.map((c, i) => {
      const widest = Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] ?? '')))
      return c.kind === 'id' ? widest : Math.min(widest, MAX_COLUMN)
    })
    const {maxWidth, fullIds} = this.options
    if (maxWidth) this.shortIds = fitWidths(widths, this.columns, maxWidth, !fullIds)
    return widths.map((w) => Math.max(w, 1))
  }
}

const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1)

/** What gives way first when a table is too wide: text, then dates and statuses; money, yes/no and ids last. */
const isText = (kind: ColumnKind | undefined) => kind === undefined || kind === 'text'
const isSoft = (kind: ColumnKind | undefined) => kind === 'date' || kind === 'status'

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
 * the widest text column loses a cell at a time down to MIN_COLUMN, then dates and statuses. Returns
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
