// oclif's parse errors as till says them: one line naming the problem, a hint, exit 2. A flag's value and
// an unexpected argument are never echoed (either may be a token).
import type {Command} from '@oclif/core'

import {redact} from '../client/redact.js'

export interface ParseProblem {
  message: string
  /** Further lines of oclif's own (a list of flags, say), or a till hint. */
  rest?: string
  hint?: string
}

type Example = string | {command: string; description?: string}

/** The command line of an example, as `till ...`. */
const exampleLine = (example: Example, id: string) =>
  (typeof example === 'string' ? example : example.command).replaceAll('<%= config.bin %>', 'till').replaceAll('<%= command.id %>', id).split('\n')[0]!

/**
 * oclif's "Missing 2 required args:" with a list of them and its notes (five lines for `till api`), as one
 * line naming them and the command's first example.
 */
function missingArguments(error: Error & {args?: Array<{name: string}>}, command: typeof Command, id: string): ParseProblem | null {
  if (!/^Missing \d+ required args?\b/.test(error.message) || !Array.isArray(error.args)) return null
  const names = error.args.map((a) => a.name.toUpperCase())
  const usage = `till ${id} ${Object.keys(command.args ?? {})
    .map((n) => n.toUpperCase())
    .join(' ')}`
  const what = names.length === 1 ? `the ${names[0]} argument` : `the ${names.slice(0, -1).join(', ')} and ${names.at(-1)} arguments`
  const example = (command.examples as Example[] | undefined)?.[0]
  return {message: `missing ${what} (${usage})`, hint: `${example ? `e.g. ${exampleLine(example, id)}; ` : ''}see: till ${id} --help`}
}

/** A parse error of oclif's (or a flag value its parser refused), or null for any other error. */
export function parseProblem(error: Error & {oclif?: {exit?: number}}, command: typeof Command, id: string): (ParseProblem & {usage: boolean}) | null {
  // A flag value its parser refused ("Parsing --flag ...") is a usage error too.
  const parseError = /^Parsing --/.test(error.message ?? '')
  if (!parseError && (error.oclif?.exit === undefined || error.constructor.name === 'Error')) return null
  const missing = missingArguments(error, command, id)
  if (missing) return {...missing, usage: true}
  // oclif says "Parsing --flag" on one line and the parser's own message on the next: show that one.
  const lines = error.message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  let [first, ...rest] = parseError && lines.length > 1 ? lines.slice(1) : lines
  const flag = /^Parsing (--[\w-]+)/.exec(lines[0] ?? '')?.[1]
  if (parseError && flag && !first!.includes(flag)) first = `${flag}: ${first}`
  first = redact(first!.replace(/^(Nonexistent flags?: --[\w-]+)=.*/, '$1=…').replace(/^(Unexpected arguments?): .*/, '$1 (not shown)'))
  return {message: first, rest: rest.length > 0 ? redact(rest.join('\n')) : undefined, usage: parseError || error.oclif?.exit !== 1}
}
