// oclif's parse errors (an unknown flag, a refused value, a missing argument or required flag, flags that
// exclude each other) as till's one-line messages on stderr, and their exit code (a usage error, 2). A
// flag's value and an unexpected argument are never echoed: either may be a token.
import type {Command} from '@oclif/core'

import {redact} from '../client/redact.js'
import {ExitCode, TillError} from '../client/till-error.js'
import {escapeControls} from './settings.js'
import {nearestName} from './suggest.js'

type OclifError = Error & {oclif?: {exit?: number}; args?: Array<{name: string}>}
type Example = string | {command: string; description?: string}

/** The command line of an example, as `till ...`. */
const exampleLine = (example: Example, id: string) =>
  (typeof example === 'string' ? example : example.command).replaceAll('<%= config.bin %>', 'till').replaceAll('<%= command.id %>', id).split('\n')[0]!

/** "Missing required flag html" -> "missing --html: file to write the HTML report to". */
function missingFlag(line: string, flags: Record<string, {description?: string}> | undefined): string | undefined {
  const name = /^Missing required flags? (\S+)$/.exec(line)?.[1]
  if (!name) return undefined
  const what = flags?.[name]?.description?.replace(/\.$/, '')
  return `missing --${name}${what ? `: ${what.charAt(0).toLowerCase()}${what.slice(1)}` : ''}`
}

/**
 * oclif's "Missing 2 required args:" with a list of them and its notes (five lines for `till api`), as one
 * line naming them, and a hint with the command's first example.
 */
function missingArguments(error: OclifError, command: typeof Command, id: string): string | undefined {
  if (!/^Missing \d+ required args?\b/.test(error.message) || !Array.isArray(error.args)) return undefined
  const names = error.args.map((a) => a.name.toUpperCase())
  const usage = `till ${id} ${Object.keys(command.args ?? {})
    .map((n) => n.toUpperCase())
    .join(' ')}`
  const what = names.length === 1 ? `the ${names[0]} argument` : `the ${names.slice(0, -1).join(', ')} and ${names.at(-1)} arguments`
  const example = (command.examples as Example[] | undefined)?.[0]
  const hint = `${example ? `e.g. ${exampleLine(example, id)}; ` : ''}see: till ${id} --help`
  return `Error: ${escapeControls(`missing ${what} (${usage})`)}\nHint: ${escapeControls(hint)}\n`
}

/** The flag of `command` nearest to the one line "Nonexistent flag: --stauts" names (`status`), if one is close. */
function nearFlag(line: string, command: typeof Command): string | undefined {
  const typed = /^Nonexistent flag: --([\w-]+)/.exec(line)?.[1]
  if (!typed) return undefined
  const flags = {...command.baseFlags, ...command.flags} as Record<string, {hidden?: boolean; allowNo?: boolean}>
  const names = Object.entries(flags)
    .filter(([, f]) => !f.hidden)
    .flatMap(([name, f]) => (f.allowNo ? [name, `no-${name}`] : [name]))
  if (command.enableJsonFlag) names.push('json')
  return nearestName(typed, [...names, 'help'])
}

/** The text to write for an oclif parse error, and the exit code; undefined for any other error. */
export function oclifParseError(error: OclifError, command: typeof Command, id: string): {text: string; exit: number} | undefined {
  // A flag value its parser refused ("Parsing --flag ...") is a usage error too.
  const parseError = /^Parsing --/.test(error.message ?? '')
  if (error instanceof TillError || !(parseError || (error.oclif?.exit !== undefined && error.constructor.name !== 'Error'))) return undefined
  const args = missingArguments(error, command, id)
  if (args) return {text: args, exit: ExitCode.usage}
  const lines = error.message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  // "The following error occurred:", one problem per line, "See more help with --help": one line naming them
  if (/^The following errors? occurred:$/.test(lines[0] ?? '')) {
    const flags = command.flags as Record<string, {description?: string}> | undefined
    const problems = lines.slice(1).filter((l) => !/^See more help with/.test(l))
    const text = problems.map((l) => missingFlag(l, flags) ?? l).join('; ')
    return {text: `Error: ${escapeControls(redact(text))} (see: till ${id} --help)\n`, exit: ExitCode.usage}
  }
  // oclif says "Parsing --flag" on one line and the parser's own message on the next: show that one.
  let [first, ...rest] = parseError && lines.length > 1 ? lines.slice(1) : lines
  const flag = /^Parsing (--[\w-]+)/.exec(lines[0] ?? '')?.[1]
  if (parseError && flag && !first!.includes(flag)) first = `${flag}: ${first}`
  // a word that is not a flag may be a token pasted in (an invitation token may begin with '-'): a command
  // that takes one names none, another names a flag-shaped word only
  const tokens = (command as {tokenArgument?: boolean}).tokenArgument === true
  first = first!.replace(/^(Nonexistent flags?): (.*)/, (line, head: string, words: string) =>
    tokens || !words.split(', ').every((w) => /^--?[A-Za-z][\w-]{0,30}(=.*)?$/.test(w)) ? `${head} (not shown)` : line,
  )
  first = redact(first.replace(/^(Nonexistent flags?: --[\w-]+)=.*/, '$1=…').replace(/^(Unexpected arguments?): .*/, '$1 (not shown)'))
  const meant = nearFlag(first, command)
  if (meant) first = `${first}; did you mean --${meant}?`
  let text = `Error: ${escapeControls(first)}\n`
  if (tokens && /^(Nonexistent flags?|Unexpected arguments?) /.test(first))
    text += `Hint: give one token; one that begins with '-' goes after --, e.g. till ${id} -- TOKEN\n`
  else if (rest.length > 0) text += `${escapeControls(redact(rest.join('\n')))}\n`
  return {text, exit: parseError || error.oclif?.exit !== 1 ? ExitCode.usage : ExitCode.error}
}
