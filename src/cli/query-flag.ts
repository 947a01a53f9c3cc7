// `-q/--query` is a list's text search. gh users type `-q '.[].id'` from habit, where gh's `-q` is a jq
// filter: such a value would search names for ".[].id", find nothing and exit 0. A value shaped as a jq
// filter is refused, naming the pipe that does what was meant.
import {usageError} from '../client/till-error.js'

/** A value that reads as a jq filter: `.`, `.[]`, `.name`, `.[0].id`, or one with a pipe into another filter. */
export function looksLikeJqFilter(value: string): boolean {
  const text = value.trim()
  return /^\.(\s*$|\[|[A-Za-z_]\w*(\.|\[|\s*$|\s*\|))/.test(text) || /\|\s*(\.|select\(|map\(|length\b|keys\b)/.test(text)
}

/** Throws a usage error when the command's `query` flag holds a jq filter. */
export function checkQueryFlag(flags: Record<string, unknown>, commandId: string): void {
  const query = flags.query
  if (typeof query !== 'string' || !looksLikeJqFilter(query)) return
  const command = `till ${commandId.replaceAll(':', ' ')}`
  throw usageError(
    `-q/--query is ${command}'s text search, and "${query}" reads as a jq filter (gh's -q)`,
    `pipe the JSON to jq: ${command} --json | jq '${query.replaceAll("'", "'\\''")}'`,
  )
}
