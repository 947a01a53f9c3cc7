// The detail view of one resource on a terminal (`get` commands), as gh's `view` commands read:
// the plain fields first as aligned `label  value` lines, then each nested object as a section of
// indented lines, and each list of objects as numbered blocks. Money is formatted with its currency,
// dates in full with their distance from now; nothing is shown as a JSON blob.
import type {ChalkInstance} from 'chalk'

import {formatIso, formatMoney, formatRelative, looksLikeDatetime, terminalText} from './format.js'

type Obj = Record<string, unknown>

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isObjectList = (v: unknown): v is Obj[] => Array.isArray(v) && v.length > 0 && v.every(isObject)

const STEP = '  '

export interface DetailStyle {
  now: number
  chalk: ChalkInstance
}

/** The currency an object's amounts are in: its own, or the one of the object around it. */
const currencyOf = (obj: Obj, outer: string | undefined): string | undefined => {
  const own = obj.currency ?? obj.price_currency
  return typeof own === 'string' && own !== '' ? own : outer
}

const isAmountKey = (key: string) => key === 'amount' || key.endsWith('_amount')

/** One plain value as text: money, dates, yes/no, lists of plain values joined. */
function valueText(key: string, value: unknown, currency: string | undefined, style: DetailStyle): string {
  if (value === null || value === undefined || value === '') return style.chalk.dim('-')
  if (typeof value === 'number' && isAmountKey(key) && currency) return formatMoney(value, currency, {grouping: true})
  if (looksLikeDatetime(value)) return `${formatIso(value)} ${style.chalk.dim(`(${formatRelative(value, style.now)})`)}`
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value))
    return value.length === 0 ? style.chalk.dim('none') : value.map((v) => terminalText(typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
  if (isObject(value)) return style.chalk.dim('none') // an empty object; others are sections
  return terminalText(String(value))
}

function block(obj: Obj, indent: string, outerCurrency: string | undefined, style: DetailStyle): string[] {
  const currency = currencyOf(obj, outerCurrency)
  // keys are the user's too (metadata): escaped as values are
  const entries = Object.entries(obj).map(([k, v]): [string, unknown] => [terminalText(k), v])
  const isSection = (v: unknown) => (isObject(v) && Object.keys(v).length > 0) || isObjectList(v)
  const plain = entries.filter(([, v]) => !isSection(v))
  const width = Math.max(0, ...plain.map(([k]) => k.length))
  const lines = plain.map(([k, v]) => `${indent}${style.chalk.bold(k.padEnd(width))}  ${valueText(k, v, currency, style)}`.trimEnd())
  for (const [k, v] of entries.filter(([, value]) => isSection(value))) {
    if (isObjectList(v)) {
      lines.push('', `${indent}${style.chalk.bold(k)} ${style.chalk.dim(`(${v.length})`)}`)
      v.forEach((item, i) => {
        // `  1. id  ...` with the item's other lines under its first
        const inner = block(item, `${indent}${STEP}   `, currency, style)
        lines.push(`${indent}${STEP}${`${i + 1}.`.padEnd(3)}${inner[0]?.trimStart() ?? ''}`, ...inner.slice(1))
      })
    } else {
      lines.push('', `${indent}${style.chalk.bold(k)}`, ...block(v as Obj, `${indent}${STEP}`, currency, style))
    }
  }
  return lines
}

/** The detail view of `row`, newline-terminated lines. */
export function renderDetail(row: Obj, style: DetailStyle): string {
  const lines = block(row, '', undefined, style)
  // no blank line twice in a row (a section that starts with a section)
  return `${lines.filter((line, i) => !(line === '' && lines[i - 1] === '')).join('\n')}\n`
}
