// JSON for a person at a terminal, as gh prints API answers: indented, keys in blue, strings in green,
// numbers and booleans in yellow, null dimmed. The text is the same as JSON.stringify(value, null, 2)
// once the colours are taken out, except that what would act on the terminal in a string (U+202E, a C1
// control) is written as a \u escape, which JSON reads the same.
import type {ChalkInstance} from 'chalk'

import {terminalJson} from './format.js'

const quoted = (text: string) => terminalJson(JSON.stringify(text))

export function colorJson(value: unknown, chalk: ChalkInstance, indent = ''): string {
  if (value === null || value === undefined) return chalk.dim('null')
  if (typeof value === 'string') return chalk.green(quoted(value))
  if (typeof value === 'number' || typeof value === 'boolean') return chalk.yellow(JSON.stringify(value))
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[\n${value.map((v) => `${inner}${colorJson(v, chalk, inner)}`).join(',\n')}\n${indent}]`
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return '{}'
    return `{\n${entries.map(([k, v]) => `${inner}${chalk.blue(quoted(k))}: ${colorJson(v, chalk, inner)}`).join(',\n')}\n${indent}}`
  }
  return JSON.stringify(value) ?? 'null'
}
