// The detail view of one resource on a terminal (`get` commands), as gh's `view` commands read: a
// curated summary first when the resource declares one (what an operator looks at: status, customer,
// amounts, dates, items or prices), then every other field under a heading. Labels are words
// (`Billing reason`, not `billing_reason`), empty fields are left out, money is formatted with its
// currency, dates in full with their distance from now, live prices come before archived ones, nested
// objects are indented sections and lists of objects numbered blocks; nothing is shown as a JSON blob.
import type {ChalkInstance} from 'chalk'

import {cellText, type DetailView} from './columns.js'
import {formatBytes, formatIso, formatMoney, formatRelative, looksLikeDatetime, terminalText, visibleWidth, wrapWords} from './format.js'
import {styleCell} from './table.js'

type Obj = Record<string, unknown>

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isObjectList = (v: unknown): v is Obj[] => Array.isArray(v) && v.length > 0 && v.every(isObject)

const STEP = '  '

export interface DetailStyle {
  now: number
  chalk: ChalkInstance
  /** The terminal's width: longer values are wrapped to it (see fitValue). */
  width?: number
}

export interface DetailOptions {
  /** The resource's curated summary, shown first. */
  view?: DetailView
  /** The summary alone (after an update): without the other fields. */
  summaryOnly?: boolean
}

/** The heading of the fields after a summary. */
export const REST_HEADING = 'Other fields'

const WORDS: Record<string, string> = {id: 'ID', ids: 'IDs', url: 'URL', urls: 'URLs', api: 'API', ip: 'IP', sha256: 'SHA-256', oauth2: 'OAuth2'}

/** A field name as words: `billing_reason` -> `Billing reason`, `customer_id` -> `Customer ID`, `is_archived` -> `Archived`. */
export function labelOf(key: string): string {
  const words = key
    .replace(/^is_/, '')
    .split('_')
    .filter((w) => w !== '')
    .map((w) => WORDS[w] ?? w)
  if (words.length === 0) return key
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1)
  return words.join(' ')
}

/** Nothing to show: null, empty text, an empty list or object. */
const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)

/** Live items before archived ones, otherwise in their order. */
const liveFirst = (items: Obj[]): Obj[] => [...items.filter((i) => i.is_archived !== true), ...items.filter((i) => i.is_archived === true)]

/** The currency an object's amounts are in: its own, or the one of the object around it. */
const currencyOf = (obj: Obj, outer: string | undefined): string | undefined => {
  const own = obj.currency ?? obj.price_currency
  return typeof own === 'string' && own !== '' ? own : outer
}

const isAmountKey = (key: string) => key === 'amount' || key.endsWith('_amount')

/** One plain value as text: money, sizes, dates, yes/no, lists of plain values joined. */
function valueText(key: string, value: unknown, currency: string | undefined, style: DetailStyle): string {
  if (typeof value === 'number' && isAmountKey(key) && currency) return formatMoney(value, currency, {grouping: true})
  if (typeof value === 'number' && key === 'size') return `${formatBytes(value)} ${style.chalk.dim(`(${value} bytes)`)}`
  if (looksLikeDatetime(value)) return `${formatIso(value)} ${style.chalk.dim(`(${formatRelative(value, style.now)})`)}`
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.map((v) => terminalText(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
  return terminalText(String(value))
}

/** `label  value` lines, labels padded to the widest, values wrapped to the terminal (fitValue). */
const aligned = (pairs: Array<[string, string]>, indent: string, style: DetailStyle): string[] => {
  const width = Math.max(0, ...pairs.map(([label]) => label.length))
  const at = indent.length + width + 2
  return pairs.flatMap(([label, value]) => {
    const [first, ...rest] = fitValue(value, at, indent, style.width)
    return [`${indent}${style.chalk.bold(label.padEnd(width))}  ${first}`.trimEnd(), ...rest]
  })
}

/**
 * A value that starts at column `at` as lines no wider than `width`, the first beside its label. Words
 * wrap at spaces, the next lines starting under the first; a single token (a URL, a path, a hash) is never
 * broken: it goes whole on a line of its own under the label, or from the first column when even that is
 * too narrow, so that the terminal wraps it and it still copies as one.
 */
function fitValue(value: string, at: number, indent: string, width: number | undefined): string[] {
  if (!width || at + visibleWidth(value) <= width) return [value]
  if (!value.includes(' ')) {
    const under = `${indent}${STEP}`
    return ['', under.length + visibleWidth(value) <= width ? `${under}${value}` : value]
  }
  return wrapWords(value, width, ' '.repeat(at), at).split('\n')
}

/** Objects whose keys are the user's (metadata, custom field answers): shown as they are, not as words. */
const isUserKeyed = (key: string) => key.endsWith('metadata') || key.endsWith('custom_field_data')

/**
 * Fields a person need not read: a file's `size_readable` beside its size (the service's words, which
 * count 1024 bytes as "KB"), and the marker till puts in a refund's metadata to find it again
 * (MARKER_KEY of src/client/settlement.ts). JSON output keeps both.
 */
const hidden = (key: string, obj: Obj, userKeys: boolean): boolean =>
  userKeys ? key === 'till_request' : key === 'size_readable' && typeof obj.size === 'number'

function block(obj: Obj, indent: string, outerCurrency: string | undefined, style: DetailStyle, userKeys = false): string[] {
  const label = (k: string) => terminalText(userKeys ? k : labelOf(k))
  const currency = currencyOf(obj, outerCurrency)
  const entries = Object.entries(obj).filter(([k, v]) => !isEmpty(v) && !hidden(k, obj, userKeys))
  const isSection = (v: unknown) => isObject(v) || isObjectList(v)
  const plain = entries.filter(([, v]) => !isSection(v))
  // keys are the user's too (metadata): escaped as values are
  const lines = aligned(
    plain.map(([k, v]) => [label(k), valueText(k, v, currency, style)]),
    indent,
    style,
  )
  for (const [k, v] of entries.filter(([, value]) => isSection(value))) {
    if (isObjectList(v)) {
      lines.push('', `${indent}${style.chalk.bold(label(k))} ${style.chalk.dim(`(${v.length})`)}`)
      liveFirst(v).forEach((item, i) => {
        // `  1. ID  ...` with the item's other lines under its first
        const inner = block(item, `${indent}${STEP}   `, currency, style)
        lines.push(`${indent}${STEP}${`${i + 1}.`.padEnd(3)}${inner[0]?.trimStart() ?? ''}`, ...inner.slice(1))
      })
    } else {
      const inner = block(v as Obj, `${indent}${STEP}`, currency, style, isUserKeyed(k))
      if (inner.length > 0) lines.push('', `${indent}${style.chalk.bold(label(k))}`, ...inner)
    }
  }
  return lines
}

/** The curated summary: its fields, then its lists. */
function summary(row: Obj, view: DetailView, style: DetailStyle): string[] {
  const cells = {dates: 'both' as const, grouping: true, now: style.now}
  const pairs = view.summary
    .map((c): [string, string] => [c.header, styleCell(c.kind, terminalText(cellText(c, row, cells)), style.chalk)])
    .filter(([, value]) => value !== '')
  const lines = aligned(pairs, '', style)
  for (const list of view.lists ?? []) {
    const items = row[list.key]
    if (!isObjectList(items)) continue
    lines.push('', `${style.chalk.bold(list.title)} ${style.chalk.dim(`(${items.length})`)}`)
    for (const item of liveFirst(items)) lines.push(`${STEP}${terminalText(list.line(item, row))}`)
  }
  return lines
}

/** The detail view of `row`, newline-terminated lines. */
export function renderDetail(row: Obj, style: DetailStyle, options: DetailOptions = {}): string {
  const {view} = options
  let lines: string[]
  if (!view) lines = block(row, '', undefined, style)
  else {
    lines = summary(row, view, style)
    if (!options.summaryOnly) {
      const covered = new Set(view.covers)
      const rest = block(Object.fromEntries(Object.entries(row).filter(([k]) => !covered.has(k))), STEP, currencyOf(row, undefined), style)
      if (rest.length > 0) lines.push('', style.chalk.bold(REST_HEADING), ...rest)
    }
  }
  // no blank line twice in a row (a section that starts with a section), none first
  const kept = lines.filter((line, i) => !(line === '' && (i === 0 || lines[i - 1] === '')))
  return `${kept.join('\n')}\n`
}
