// `till help products` is read as `till products --help`. Global flags given before the command (`till -p sandbox subscriptions list`, as gh allows) are moved
// after it, where oclif parses them. Only the global flags move; anything else before the command is
// left for oclif to refuse as it always has.

/** Global flags that take a value, by every spelling. */
const WITH_VALUE = new Set(['-p', '--profile', '--max-wait'])
/** Global flags that take none. */
const SWITCHES = new Set(['--debug', '--no-input', '--color', '--no-color'])

/** The length of the global flag at `argv[i]` (1 or 2 words), or 0 when it is not one. */
function globalAt(argv: readonly string[], i: number): number {
  const arg = argv[i]!
  if (SWITCHES.has(arg)) return 1
  if (WITH_VALUE.has(arg)) return i + 1 < argv.length ? 2 : 0
  if (/^--(profile|max-wait)=/.test(arg)) return 1
  if (/^-p[^-]/.test(arg)) return 1
  return 0
}

/** The profile a command line names with `-p NAME`, `-pNAME`, `--profile NAME` or `--profile=NAME` (before `--`). */
export function profileArg(argv: readonly string[]): string | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === '--') break
    if (arg === '-p' || arg === '--profile') return argv[i + 1]
    const joined = /^(?:--profile=|-p=?)(.+)$/.exec(arg)
    if (joined) return joined[1]
  }
  return undefined
}

/**
 * `argv` (without node and the script) with the leading global flags moved after the command words.
 * Unchanged when no global flag comes first, or when no command word follows the globals.
 */
export function globalsAfterCommand(argv: readonly string[]): string[] {
  // `till help [COMMAND...]` is `till [COMMAND...] --help` (there is no help command).
  if (argv[0] === 'help') return [...argv.slice(1).filter((a) => !a.startsWith('-')), '--help']
  const globals: string[] = []
  let i = 0
  for (let n = globalAt(argv, i); i < argv.length && n > 0; n = i < argv.length ? globalAt(argv, i) : 0) {
    globals.push(...argv.slice(i, i + n))
    i += n
  }
  if (globals.length === 0 || i >= argv.length || argv[i]!.startsWith('-')) return [...argv]
  const rest = argv.slice(i)
  // The command is the leading words that are not flags; the globals go right after them, so an
  // argument such as `--` or a value read by the command keeps its place.
  let words = 0
  while (words < rest.length && !rest[words]!.startsWith('-')) words++
  return [...rest.slice(0, words), ...globals, ...rest.slice(words)]
}

/**
 * `argv` with an opaque token that begins with '-' (a base64url token: one in 64 does) moved after `--`,
 * where oclif reads it as the argument it is rather than as an unknown flag (`-O5Ee…`) or a short flag with
 * its value (`-oX7…` as `-o X7…`). A token is told from a flag by its length (20 characters or more) and by
 * not being one of `flags` (long names, without dashes). Every such word moves, in its order (a second
 * one is then an unexpected argument, never echoed as a flag). Unchanged when `--` is given already.
 */
export function tokenAfterDashes(argv: readonly string[], flags: ReadonlySet<string>): string[] {
  if (argv.includes('--')) return [...argv]
  const isToken = (arg: string) => arg.length >= 20 && arg.startsWith('-') && !arg.includes('=') && !flags.has(arg.replace(/^--(no-)?/, ''))
  const tokens = argv.filter(isToken)
  return tokens.length === 0 ? [...argv] : [...argv.filter((arg) => !isToken(arg)), '--', ...tokens]
}
