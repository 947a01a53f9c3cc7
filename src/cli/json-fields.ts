// gh's field selection: `--json id,status` (or `--json=id,status`) prints JSON with only those fields. oclif's
// `--json` takes no value, so the field list is moved to till's own flag for it, `--columns`, before oclif
// parses the command line. Pure.
import {usageError} from '../client/till-error.js'

/** A comma list of field names, dotted paths allowed (`id,status,customer.email`). */
const FIELD_LIST = /^[A-Za-z_]\w*(\.\w+)*(,[A-Za-z_]\w*(\.\w+)*)*$/

interface FlagShape {
  type?: string
  char?: string
  allowNo?: boolean
}

export interface CommandShape {
  /** The command's flags (its own and the global ones) by name. */
  flags: Record<string, FlagShape>
  /** How many positional arguments it takes. */
  args: number
  /** Whether the command takes more arguments than it declares (oclif's `strict = false`). */
  loose?: boolean
}

/** Whether the flag at `argv[i]` takes the next word as its value. */
function takesValue(arg: string, command: CommandShape): boolean {
  if (arg.includes('=')) return false
  const long = /^--(.+)$/.exec(arg)?.[1]
  const flag = long ? command.flags[long] : Object.values(command.flags).find((f) => arg.length === 2 && f.char === arg[1])
  return flag?.type === 'option'
}

/**
 * `argv` with a field list after `--json` moved to `--columns`. The word after a bare `--json` is a field
 * list when it reads as one and the command has no argument left for it (`till orders get --json id ID`,
 * `till orders list --json id`), or when it has commas; a file name an argument takes stays an argument.
 * Unchanged when `--json` has no fields.
 */
export function jsonFieldsToColumns(argv: readonly string[], command: CommandShape): string[] {
  const words = [...argv]
  const end = words.includes('--') ? words.indexOf('--') : words.length
  let at = -1
  let fields: string | undefined
  const positional: number[] = []
  for (let i = 0; i < end; i++) {
    const arg = words[i]!
    if (arg.startsWith('--json=')) {
      at = i
      fields = arg.slice('--json='.length)
      continue
    }
    if (arg === '--json') {
      at = i
      continue
    }
    if (arg.startsWith('-') && arg !== '-') {
      if (takesValue(arg, command)) i++
      continue
    }
    positional.push(i)
  }
  if (at === -1) return words
  const next = positional.find((i) => i === at + 1)
  if (fields === undefined && next !== undefined) {
    const word = words[next]!
    const spare = !command.loose && positional.length > command.args
    if (FIELD_LIST.test(word) && (spare || word.includes(','))) fields = word
  }
  if (fields === undefined) return words
  if (!FIELD_LIST.test(fields)) throw usageError(`--json takes a comma-separated list of fields, such as id,status (not "${fields.slice(0, 40)}")`)
  if (!('columns' in command.flags)) {
    throw usageError('this command prints its own JSON: --json takes no list of fields here', 'give --json alone, and pick fields with jq')
  }
  if (words.slice(0, end).some((w) => w === '--columns' || w.startsWith('--columns='))) {
    throw usageError('--json FIELDS and --columns both choose the fields', 'give the fields once: --json id,status')
  }
  const rest = words.filter((_, i) => i !== at && !(i === at + 1 && words[at] === '--json'))
  rest.splice(at, 0, '--json', '--columns', fields)
  return rest
}
