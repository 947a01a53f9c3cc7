// Borderless tables (cli-table3, loaded on first use) printed in batches: the header once, column
// widths fixed by the first batch, wider values cut with an ellipsis.
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
/** The widest a column gets unless it holds ids (kept whole so they can be copied). */
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

/** Prints rows of plain cell texts in batches that line up with each other. */
export class BatchTable {
  private widths: number[] | undefined

  constructor(
    private readonly columns: TableColumn[],
    private readonly chalk: ChalkInstance,
    /** Terminal width to fit in, when known. */
    private readonly maxWidth?: number,
  ) {}

  /** The lines for `rows` (preceded by the header the first time), each ending in a newline. */
  async render(rows: string[][]): Promise<string> {
    if (rows.length === 0) return ''
    const Table = await loadTable()
    const first = this.widths === undefined
    const widths = (this.widths ??= this.measure(rows))
    this.widenIds(widths, rows)
    const table = new Table({
      chars: NO_BORDERS,
      style: {head: [], border: [], 'padding-left': 0, 'padding-right': 0},
      colWidths: widths,
      colAligns: this.columns.map((c) => (c.kind === 'money' ? 'right' : 'left')),
    })
    if (first) table.push(this.columns.map((c, i) => this.chalk.bold(truncate(c.header.toUpperCase(), widths[i]!))))
    for (const row of rows) {
      table.push(row.map((cell, i) => styleCell(this.columns[i]!.kind, truncate(cell, widths[i]!), this.chalk)))
    }
    return linesOf(table.toString())
  }

  /** Ids are never cut (they get copied): a longer id in a later batch widens its column from there on. */
  private widenIds(widths: number[], rows: string[][]): void {
    this.columns.forEach((c, i) => {
      if (c.kind === 'id') widths[i] = Math.max(widths[i]!, ...rows.map((r) => displayWidth(r[i] ?? '')))
    })
  }

  /** Column widths from the header and the first batch, capped, then squeezed to fit the terminal. */
  private measure(rows: string[][]): number[] {
    const widths = this.columns.map((c, i) => {
      const widest = Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] ?? '')))
      return c.kind === 'id' ? widest : Math.min(widest, MAX_COLUMN)
    })
    if (this.maxWidth) squeeze(widths, this.columns, this.maxWidth)
    return widths.map((w) => Math.max(w, 1))
  }
}

/** Narrow the widest non-id columns, one cell at a time, until the row fits `maxWidth` or none can shrink. */
function squeeze(widths: number[], columns: TableColumn[], maxWidth: number): void {
  let overflow = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - maxWidth
  while (overflow > 0) {
    let widest = -1
    for (let i = 0; i < widths.length; i++) {
      if (columns[i]!.kind !== 'id' && widths[i]! > MIN_COLUMN && (widest < 0 || widths[i]! > widths[widest]!)) widest = i
    }
    if (widest < 0) return
    widths[widest]!--
    overflow--
  }
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
