// Output decisions (which format, whether to colour) and value formatting (money, dates, cells).
// Pure functions: no streams, no process globals; callers pass the TTY state, env and clock.
import {serviceDigits} from '../../client/currencies.js'
import {usageError} from '../../client/till-error.js'

export const FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv'] as const
export type Format = (typeof FORMATS)[number]

const isFormat = (text: string): text is Format => (FORMATS as readonly string[]).includes(text)

/**
 * The format from `-o/--output` and `--json`. Without either: a table for a person at a terminal,
 * tab-separated values when stdout is piped (as GitHub CLI does).
 */
export function resolveFormat(options: {output?: string; json?: boolean; stdoutIsTTY: boolean}): Format {
  const output = options.output?.trim().toLowerCase()
  if (output !== undefined && !isFormat(output)) {
    throw usageError(`Unknown output format "${options.output}".`, `Use one of: ${FORMATS.join(', ')}.`)
  }
  if (options.json) {
    if (output !== undefined && output !== 'json') throw usageError(`--json cannot be combined with --output ${output}.`)
    return 'json'
  }
  return output ?? (options.stdoutIsTTY ? 'table' : 'tsv')
}

/**
 * Whether to colour output. In order: `--no-color` (flag false) always wins; `FORCE_COLOR` set
 * decides next (`0`/`false` off; empty, `true` or a level >= 1 on, even when piped); a non-empty
 * `NO_COLOR` turns colour off; `CLICOLOR_FORCE` other than empty or `0` turns it on, even when piped
 * (as gh reads it); `CLICOLOR=0` and `TERM=dumb` turn it off; otherwise colour on a TTY only.
 * `flag: true` (an explicit `--color`) is treated like no flag: automatic.
 */
export function colorEnabled(options: {flag?: boolean; env: Record<string, string | undefined>; isTTY: boolean}): boolean {
  const {flag, env, isTTY} = options
  if (flag === false) return false
  const forced = forceColor(env.FORCE_COLOR)
  if (forced !== undefined) return forced
  if (env.NO_COLOR) return false
  if (env.CLICOLOR_FORCE && env.CLICOLOR_FORCE !== '0') return true
  if (env.CLICOLOR === '0' || env.TERM === 'dumb') return false
  return isTTY
}

/** FORCE_COLOR as on/off, or undefined when unset or unreadable. */
function forceColor(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined
  const v = value.trim().toLowerCase()
  if (v === '' || v === 'true') return true
  if (v === 'false') return false
  const level = Number.parseInt(v, 10)
  return Number.isNaN(level) ? undefined : level >= 1
}

// ---- money ----

/** An amount in minor units (cents) with its ISO 4217 currency code. */
export interface Money {
  amount: number
  currency: string
}

export const isMoney = (value: unknown): value is Money =>
  typeof value === 'object' && value !== null && typeof (value as Money).amount === 'number' && typeof (value as Money).currency === 'string'

const SYMBOLS: Record<string, string> = {USD: '$', EUR: '€'}

// Minor-unit digits where they are not 2, as the runtime's ICU data gives them (format.test.ts checks the
// table against Intl), for the currencies the service does not take (it counts ISK or COP in hundredths,
// though ICU shows them without decimals). A table, because the first Intl.NumberFormat of a process costs milliseconds of
// start-up (loading ICU's currency data) for every command that prints an amount.
const ZERO_DIGITS = new Set([
  'AFN',
  'ALL',
  'BIF',
  'CLP',
  'COP',
  'DJF',
  'GNF',
  'HUF',
  'IDR',
  'IQD',
  'IRR',
  'ISK',
  'JPY',
  'KMF',
  'KPW',
  'KRW',
  'LAK',
  'LBP',
  'MGA',
  'MMK',
  'PKR',
  'PYG',
  'RWF',
  'SLL',
  'SOS',
  'SYP',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
  'YER',
])
const THREE_DIGITS = new Set(['BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'])

/**
 * Minor-unit digits of a currency's amounts: the service's own for a currency it takes (2 for USD and
 * HUF, 0 for JPY: its amounts are in those units), else the runtime's (3 for KWD; 2 when unknown).
 */
export function minorDigits(code: string): number {
  const service = serviceDigits(code)
  if (service !== undefined) return service
  const upper = code.toUpperCase()
  return ZERO_DIGITS.has(upper) ? 0 : THREE_DIGITS.has(upper) ? 3 : 2
}

/** `1234` -> `"12.34"` (or `"1,234.00"`-style with grouping), computed on integers to avoid float noise. */
function decimal(minor: number, digits: number, grouping: boolean): string {
  const unit = 10 ** digits
  let whole: string
  let fraction: string
  if (Number.isInteger(minor)) {
    whole = String(Math.floor(minor / unit))
    fraction = String(minor % unit).padStart(digits, '0')
  } else {
    ;[whole = '0', fraction = ''] = (minor / unit).toFixed(digits).split('.')
  }
  if (grouping) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return digits > 0 ? `${whole}.${fraction}` : whole
}

/**
 * An amount in minor units with its currency: `$12.00`, `€24.00`, `-$5.50`, `12.00 SEK`,
 * `1200 JPY`. `grouping` adds thousands separators (`$1,234.00`), for people rather than scripts.
 */
export function formatMoney(amount: number, currency: string, options: {grouping?: boolean} = {}): string {
  const code = currency.toUpperCase()
  const digits = minorDigits(code)
  // a currency the service counts in hundredths but people write without decimals (ISK, HUF, COP): a whole
  // amount is shown whole (`5000 ISK`), one with hundredths keeps them
  const whole = digits > 0 && ZERO_DIGITS.has(code) && amount % 10 ** digits === 0
  const text = whole ? decimal(Math.abs(amount) / 10 ** digits, 0, options.grouping ?? false) : decimal(Math.abs(amount), digits, options.grouping ?? false)
  const sign = amount < 0 ? '-' : ''
  const symbol = SYMBOLS[code]
  return symbol ? `${sign}${symbol}${text}` : `${sign}${text} ${code}`
}

/**
 * A card as people read it, one way everywhere (payments, saved payment methods, the portal's):
 * `visa ****4242, expires 12/2030`, the expiry when known.
 */
export function cardText(card: {brand?: unknown; last4?: unknown; exp_month?: unknown; exp_year?: unknown}): string {
  const expires = card.exp_month && card.exp_year ? `, expires ${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year)}` : ''
  return `${String(card.brand ?? 'card')} ****${String(card.last4 ?? '')}${expires}`
}

/** A size for people: `512 B`, `293.0 KiB`, `2.4 MiB` (units of 1024, so named as such; one decimal). */
export function formatBytes(size: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = size
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`
}

// ---- dates ----

const MONTH = 30 * 86_400_000
const YEAR = 365 * 86_400_000
const UNITS: Array<[string, number]> = [
  ['year', YEAR],
  ['month', MONTH],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

const toTime = (value: unknown): number =>
  value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN

/**
 * `3 hours ago`, `in 2 days`, `just now` (under a minute either way); whole units, rounded down, and never
 * `12 months` (that is `1 year`). The words
 * are English's, as Intl.RelativeTimeFormat('en') writes them, without it: its first use loads ICU's locale
 * data, time and memory of every command that shows a date on a terminal.
 */
export function formatRelative(value: string | number | Date, now: number): string {
  const time = toTime(value)
  if (Number.isNaN(time)) return String(value)
  const diff = time - now
  for (const [unit, size] of UNITS) {
    const count = unit === 'year' ? wholeYears(diff) : Math.trunc(diff / size)
    if (count === 0) continue
    const n = Math.abs(count)
    const words = `${String(n).replace(/\B(?=(\d{3})+$)/g, ',')} ${unit}${n === 1 ? '' : 's'}`
    return count > 0 ? `in ${words}` : `${words} ago`
  }
  return 'just now'
}

/** Whole years in `diff`, where 360 to 364 days are a year rather than `12 months` (a yearly renewal a day short of one). */
function wholeYears(diff: number): number {
  const years = Math.trunc(diff / YEAR)
  return years === 0 && Math.abs(diff) >= 12 * MONTH ? Math.sign(diff) : years
}

/** A timestamp in full: the API's ISO string untouched; numbers and Dates as ISO. */
export function formatIso(value: unknown): string {
  if (typeof value === 'string') return value
  const time = toTime(value)
  return Number.isNaN(time) ? text(value) : new Date(time).toISOString()
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/
export const looksLikeDatetime = (value: unknown): value is string => typeof value === 'string' && ISO_DATETIME.test(value)

// ---- cells ----

/** Any value as one line of text: empty for null, yes/no for booleans, JSON for objects. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Text safe for one terminal or TSV line: tabs and line breaks become spaces, other control characters go. */
export function singleLine(value: string): string {
  return value.replace(/[\t\r\n]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
}

/**
 * Characters that reorder or hide text on a terminal (bidirectional overrides and isolates, marks, line
 * and paragraph separators): "\u202e" in a customer's name would show a refund's amount backwards.
 */
const INVISIBLE = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * Text for a table cell or a detail view on a terminal: one line, and every control character and
 * character that reorders text shown escaped (`\x1b`, `\u202e`), never acted on by the terminal.
 */
export function terminalText(value: string): string {
  return value
    .replace(/[\t\r\n]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * Text of several lines for a terminal (a message, a note, a prompt, a report): as terminalText, but its
 * line breaks kept (a carriage return is shown escaped, `\x0d`, as it would overwrite the line).
 */
export function terminalLines(value: string): string {
  return value
    .replaceAll('\t', ' ')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * JSON text for a terminal: the characters JSON.stringify leaves as they are but a terminal acts on (C1
 * controls, U+202E and the other reordering characters) written as `\u` escapes, so the JSON means the same.
 */
export function terminalJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** JSON text for `out`: on a terminal as terminalJson writes it, piped as it is. */
export const jsonFor = (json: string, tty: boolean): string => (tty ? terminalJson(json) : json)

/** Output for `out`: escaped (terminalLines) when it is a terminal, its bytes kept when piped. */
export const forTerminal = (value: string, tty: boolean): string => (tty ? terminalLines(value) : value)

/**
 * A CSV document written by the service (an export) for `out`: on a terminal, its CRLF record ends shown as
 * line ends and every other control escaped as terminalLines does (a lone CR as `\x0d`); piped, its bytes.
 */
export function csvForTerminal(csv: string, tty: boolean): string {
  return tty ? terminalLines(csv.replaceAll('\r\n', '\n')) : csv
}

/** One CSV field, quoted per RFC 4180 when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

// Characters that take two cells on a terminal (CJK, Hangul, full-width forms, most emoji).
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u

/** Terminal cells taken by one character. */
export const charWidth = (char: string): number => (WIDE.test(char) ? 2 : 1)

/** Terminal cells taken by plain (unstyled) text. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) width += charWidth(char)
  return width
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001B\[[\d;]*m/g

/** Terminal cells taken by text that may hold colours and styles (which take none). */
export const visibleWidth = (text: string): number => displayWidth(text.includes('\u001B') ? text.replace(SGR, '') : text)

/**
 * `text` wrapped at word boundaries into lines of at most `width` terminal cells (a word longer than a line
 * keeps a line of its own); the first line starts at column `start` (after a label, say), `indent` starts
 * every line after it. Without a width, `text` as it is.
 */
export function wrapWords(text: string, width: number | undefined, indent = '', start = 0): string {
  const indentWidth = visibleWidth(indent)
  if (!width || width <= indentWidth + 1 || start + visibleWidth(text) <= width) return text
  const lead = /^ */.exec(text)![0]
  const lines: string[] = []
  let line = lead
  let used = lead.length
  for (const word of text.slice(lead.length).split(/ +/)) {
    const room = width - (lines.length === 0 ? start : indentWidth)
    const wordWidth = visibleWidth(word)
    if (line.trim() !== '' && used + 1 + wordWidth > room) {
      lines.push(lines.length === 0 ? line : indent + line)
      line = word
      used = wordWidth
    } else {
      const first = line.trim() === ''
      line = first ? line + word : `${line} ${word}`
      used += first ? wordWidth : 1 + wordWidth
    }
  }
  lines.push(lines.length === 0 ? line : indent + line)
  return lines.join('\n')
}

/**
 * A decimal text times 10^places, exactly (no floating point), without needless zeros: ("0.5", -2) ->
 * "0.005", ("0.005", 2) -> "0.5", ("12", 2) -> "1200", ("-1.5", 2) -> "-150" (the service's decimals may
 * be signed). Undefined when `text` is not a plain decimal.
 */
export function decimalShift(text: string, places: number): string | undefined {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(text)
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined
  const shifted = unsignedShift(match[2] || '0', match[3] ?? '', places)
  return match[1] === '-' && /[1-9]/.test(shifted) ? `-${shifted}` : shifted
}

function unsignedShift(integer: string, fraction: string, places: number): string {
  // all digits, and where the point goes (counted from the left)
  let digits = integer + fraction
  let point = integer.length + places
  if (point < 0) {
    digits = '0'.repeat(-point) + digits
    point = 0
  }
  if (point > digits.length) digits = digits.padEnd(point, '0')
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0'
  const rest = digits.slice(point).replace(/0+$/, '')
  return rest === '' ? whole : `${whole}.${rest}`
}
