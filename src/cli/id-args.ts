// Checks of a command's arguments before any request: `-` only where the command reads ids from stdin,
// no blank id of any kind (a blank one turns `GET /x/{id}` into another route), and no jq filter taken
// for a text search.
import {usageError} from '../client/till-error.js'
import {checkQueryFlag} from './query-flag.js'

/** The checks every command's parsed arguments and flags go through (`-` is checked apart, with the id's description). */
export function checkArguments(args: Record<string, unknown>, flags: Record<string, unknown>, commandId: string): void {
  checkBlankIds(args)
  checkQueryFlag(flags, commandId)
}

/** Throws a usage error for `-` given to a command whose id argument does not read stdin. */
export function checkStdinDash(id: unknown, description: string, noun: string, commandId: string): void {
  if (id !== '-' || /\bstdin\b/.test(description)) return
  const command = `till ${commandId.replaceAll(':', ' ')}`
  throw usageError(`"${command}" takes one ${noun}, not - (ids from stdin)`, `run it once per id, e.g.: ... | xargs -n1 ${command}`)
}

/** Throws a usage error for a blank id-like argument other than `id` (a client id, a key id, a key). */
export function checkBlankIds(args: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(args)) {
    if (name === 'id' || !/(^|-)(id|key)$|Id$/.test(name) || typeof value !== 'string' || value.trim() !== '') continue
    const what = name
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replaceAll('-', ' ')
      .toLowerCase()
    throw usageError(`the ${what} is empty`, `give the ${what}; see --help`)
  }
}
