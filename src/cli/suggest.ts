// "Did you mean": the known commands nearest to a mistyped one. Pure.
import {distance} from 'fastest-levenshtein'

/**
 * Verbs brought from other command lines (gh's `view`, the Stripe CLI's `retrieve`, `ls`, `rm`) and the
 * verb till uses for them. `show`, `view` and `ls` run theirs (see RUN_VERBS); the others are suggested.
 */
export const VERB_SYNONYMS: Record<string, string> = {
  show: 'get',
  view: 'get',
  retrieve: 'get',
  describe: 'get',
  ls: 'list',
  rm: 'delete',
  remove: 'delete',
  del: 'delete',
  new: 'create',
  add: 'create',
  edit: 'update',
}

/** The verbs that run the command they stand for (`orders show ID` is `orders get ID`, `orders ls` is `orders list`). */
export const RUN_VERBS: ReadonlySet<string> = new Set(['show', 'view', 'ls'])

/** The command a typed verb stands for (`orders show` -> `orders get`), the rest being its arguments, if there is one. */
export function synonymCommand(typed: string, commands: readonly string[]): string | undefined {
  const words = typed.split(' ')
  for (let n = words.length; n > 1; n--) {
    const verb = VERB_SYNONYMS[words[n - 1]!]
    const id = verb && [...words.slice(0, n - 1), verb].join(' ')
    if (id && commands.includes(id)) return id
  }
  return undefined
}

/**
 * The commands nearest to `typed` (words separated by spaces; each command is compared with as many
 * typed words as it has, the rest being its arguments): those at the smallest edit distance, if it is
 * within a quarter of the length compared (at least 2), else those of the topic the first word names.
 */
export function suggestCommands(typed: string, commands: readonly string[], max = 3): string[] {
  // a verb of another command line names till's own first (`orders ls` -> `orders list`), before any near spelling
  const synonym = synonymCommand(typed, commands)
  if (synonym) return [synonym]
  const words = typed.split(' ')
  const scored = commands.map((id) => {
    const head = words.slice(0, id.split(' ').length).join(' ')
    return {id, d: distance(head, id), limit: Math.max(2, Math.floor(head.length / 4))}
  })
  const best = Math.min(...scored.filter(({d, limit}) => d <= limit).map(({d}) => d))
  const near = scored
    .filter(({d}) => d === best)
    .map(({id}) => id)
    .sort()
  if (near.length > 0) return near.slice(0, max)
  return commands.filter((id) => id.startsWith(`${words[0]} `)).slice(0, max)
}

/** The name of `names` nearest to `typed` (a mistyped slug, profile or value), if one is close enough to be meant. */
export function nearestName(typed: string, names: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(typed.length / 4))
  let best: {name: string; d: number} | undefined
  for (const name of names) {
    const d = distance(typed.toLowerCase(), name.toLowerCase())
    if (d <= limit && (!best || d < best.d)) best = {name, d}
  }
  return best?.name
}

/**
 * What to say about words that name no command: the nearest commands or topics (`till prodcts` -> `till
 * products`), as one error line and a hint. `shown` is what was typed, already redacted and escaped.
 */
export function notACommand(
  words: readonly string[],
  shown: string,
  names: {commands: readonly string[]; topics: readonly string[]; bin: string; isTopic(word: string): boolean},
): {suggestions: string[]; message: string; hint: string} {
  // commands first; a topic when no command is near (`till prodcts` alone)
  const typed = words.join(' ')
  const near = suggestCommands(typed, names.commands)
  const suggestions = near.length > 0 ? near : suggestCommands(typed, names.topics)
  const topic = names.isTopic(words[0]!) ? ` ${words[0]}` : ''
  const mean = suggestions.map((s) => `"${names.bin} ${s}"`).join(' or ')
  return {
    suggestions,
    message: `"${shown}" is not a ${names.bin} command${mean ? `; did you mean ${mean}?` : ''}`,
    hint: `see the commands with: ${names.bin}${topic} --help`,
  }
}

/**
 * Commands people type from habit (the Stripe CLI's `login`, `logs`, `config`, `version`; `whoami`): the
 * till command that does it (run in its place), or what to use instead.
 */
export const HABITS: Readonly<Record<string, {run?: string; version?: true; instead?: string}>> = {
  login: {run: 'auth login'},
  logout: {run: 'auth logout'},
  whoami: {run: 'auth status'},
  version: {version: true},
  config: {instead: 'profiles are till\'s configuration: "till profiles list" shows them, "till profiles set NAME ..." changes one'},
  logs: {
    instead:
      'till keeps no request log: --debug traces each request of a command on stderr; "till webhooks deliveries list" shows webhook deliveries, "till events list" usage events',
  },
}
