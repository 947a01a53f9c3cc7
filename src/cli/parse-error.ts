// oclif's parse errors (an unknown flag, a refused value, a missing required flag, flags that exclude
// each other) as till's one-line messages on stderr, and their exit code (a usage error, 2).
import {ExitCode, TillError} from '../client/till-error.js'
import {redact} from '../client/redact.js'
import {escapeControls} from './settings.js'

type OclifError = Error & {oclif?: {exit?: number}}

/** "Missing required flag html" -> "missing --html: file to write the HTML report to". */
function missingFlag(line: string, flags: Record<string, {description?: string}> | undefined): string | undefined {
  const name = /^Missing required flags? (\S+)$/.exec(line)?.[1]
  if (!name) return undefined
  const what = flags?.[name]?.description?.replace(/\.$/, '')
  return `missing --${name}${what ? `: ${what.charAt(0).toLowerCase()}${what.slice(1)}` : ''}`
}

/** The text to write for an oclif parse error, and the exit code; undefined for any other error. */
export function oclifParseError(
  error: OclifError,
  command: string,
  flags: Record<string, {description?: string}> | undefined,
): {text: string; exit: number} | undefined {
  // A flag value its parser refused ("Parsing --flag ...") is a usage error too.
  const parseError = /^Parsing --/.test(error.message ?? '')
  if (error instanceof TillError || !(parseError || (error.oclif?.exit !== undefined && error.constructor.name !== 'Error'))) return undefined
  const lines = error.message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  // "The following error occurred:", one problem per line, "See more help with --help": one line naming them
  if (/^The following errors? occurred:$/.test(lines[0] ?? '')) {
    const problems = lines.slice(1).filter((l) => !/^See more help with/.test(l))
    const text = problems.map((l) => missingFlag(l, flags) ?? l).join('; ')
    return {text: `Error: ${escapeControls(redact(text))} (see: ${command} --help)\n`, exit: ExitCode.usage}
  }
  // oclif says "Parsing --flag" on one line and the parser's own message on the next: show that one.
  let [first, ...rest] = parseError && lines.length > 1 ? lines.slice(1) : lines
  const flag = /^Parsing (--[\w-]+)/.exec(lines[0] ?? '')?.[1]
  if (parseError && flag && !first!.includes(flag)) first = `${flag}: ${first}`
  // Whatever was typed may be a token: a flag's value and an unexpected argument are never echoed.
  first = redact(first!.replace(/^(Nonexistent flags?: --[\w-]+)=.*/, '$1=…').replace(/^(Unexpected arguments?): .*/, '$1 (not shown)'))
  let text = `Error: ${escapeControls(first)}\n`
  if (rest.length > 0) text += `${escapeControls(redact(rest.join('\n')))}\n`
  return {text, exit: parseError || error.oclif?.exit !== 1 ? ExitCode.usage : ExitCode.error}
}
