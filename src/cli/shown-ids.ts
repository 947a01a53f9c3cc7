// Ids a table showed cut to fit the terminal (`65bf564a…`) are remembered, per profile, in a small file of
// the config folder (mode 0600), so that the shown prefix works where an id is expected: it resolves to
// the one remembered id it starts, said on stderr; an ambiguous or unknown prefix is a usage error.
// An argument that is no UUID and no prefix, where the command has a flag for external ids, is named as
// one (`customers get usr_00001` -> `--external-id usr_00001`).
import {mkdirSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {checkUuid, printable} from '../client/ids.js'
import {MiB, readOwnText} from '../client/own-file.js'
import {usageError} from '../client/till-error.js'
import {idFlag, listCommand, resourceNamed} from './id-flags.js'

const FILE = 'shown-ids.json'
/** Ids kept per profile (the newest), and profiles kept (the last used). */
const PER_PROFILE = 1000
const PROFILES = 8

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
/** A cut id as a table shows it, with or without its ellipsis: 4 or more hex digits, maybe dashes. */
const PREFIX = /^[0-9a-f]{4}[0-9a-f-]*$/i

type Remembered = Record<string, string[]>

/**
 * The remembered ids by profile key. The file is data from disk, hostile until checked: only arrays are
 * kept, and of them only whole UUIDs (a string such as `abcd/../../x` or `abcd?x=1` is never taken for an id).
 */
function read(dir: string): Remembered {
  let data: unknown
  try {
    // at most 8 profiles of 1000 ids (under 300 KB)
    data = JSON.parse(readOwnText(join(dir, FILE), MiB))
  } catch {
    return {}
  }
  const remembered: Remembered = Object.create(null) as Remembered
  if (!data || typeof data !== 'object' || Array.isArray(data)) return remembered
  for (const [key, ids] of Object.entries(data)) {
    if (Array.isArray(ids)) remembered[key] = ids.filter((id): id is string => typeof id === 'string' && UUID.test(id))
  }
  return remembered
}

/** Remembers `ids` (shown cut) for `profile` (its name and URL); never fails a command. */
export function rememberShownIds(dir: string, profile: string, ids: string[]): void {
  try {
    const data = read(dir)
    const kept = [...new Set([...ids.filter((id) => UUID.test(id)), ...(data[profile] ?? [])])].slice(0, PER_PROFILE)
    const others = Object.entries(data)
      .filter(([key]) => key !== profile)
      .slice(0, PROFILES - 1)
    mkdirSync(dir, {recursive: true, mode: 0o700})
    const temporary = join(dir, `${FILE}.${process.pid}.tmp`)
    writeFileSync(temporary, JSON.stringify(Object.fromEntries([[profile, kept], ...others])), {mode: 0o600})
    renameSync(temporary, join(dir, FILE))
  } catch {
    // a cache: a read-only config folder only means prefixes are not remembered
  }
}

export interface IdContext {
  /** The config folder, and the profile's key (its name and URL). */
  dir: string
  profile: () => {key: string; name: string}
  /** The flag that takes an external id instead (`--external-id`), with the command that has it. */
  external?: {flag: string; command: string}
  /** The command that lists the ids of what is named (`till orders list`), for the hint. */
  list?: string
  note: (line: string) => void
}

/**
 * The UUID `value` stands for: itself, or the one remembered id a shown prefix starts. Throws a usage
 * error (exit 2) for an ambiguous or unknown prefix, and for an external id given where a UUID belongs.
 */
export function resolveId(value: string, what: string, ctx: IdContext): string {
  const id = value.trim()
  if (id === '' || UUID.test(id)) return checkUuid(id, what)
  const prefix = id.replace(/…$/, '').toLowerCase()
  if (PREFIX.test(prefix) && !/^[0-9]+$/.test(prefix)) {
    const {key, name} = ctx.profile()
    const remembered = read(ctx.dir)[key]
    const matches = (remembered ?? []).filter((x) => x.toLowerCase().startsWith(prefix))
    if (matches.length === 1) {
      ctx.note(`${what} ${prefix}… is ${matches[0]} (an id shown earlier in profile ${name}).`)
      return matches[0]!
    }
    if (matches.length > 1)
      throw usageError(
        `${what} "${prefix}" is ambiguous: ${matches.length} ids shown earlier start with it (${matches.slice(0, 3).join(', ')}${matches.length > 3 ? ', …' : ''})`,
        'give more of its characters, or the whole id',
      )
    const where = `${ctx.list ? `${ctx.list} --columns id` : 'a list with --columns id'} shows ids whole (as -o jsonl and --json do)`
    throw usageError(
      `${what} "${printable(prefix)}" is not a whole id, and no id shown earlier in profile ${name} starts with it`,
      `give the whole id: ${where}${ctx.external ? `; for your own id: ${ctx.external.flag} ${prefix}` : ''}`,
    )
  }
  // a word such as usr_00001 or ada@example.com, not a path or control bytes
  if (ctx.external && /^[\w.@:+-]{1,128}$/.test(id))
    throw usageError(
      `${what} "${printable(id)}" is not a UUID; it looks like your own (external) id`,
      `give it with ${ctx.external.flag}: ${ctx.external.command} ${ctx.external.flag} ${printable(id)}`,
    )
  return checkUuid(id, what)
}

/**
 * Resolves in place a command's `id` argument (not `-`) and every flag that takes a resource's id (`idFlag`):
 * each a UUID, or a shown prefix of one. A flag with a sibling for external ids (`--customer` beside
 * `--external-customer`) names it for a value that looks like one.
 */
export function resolveIds(
  args: Record<string, unknown>,
  flags: Record<string, unknown>,
  how: {defs: Record<string, unknown>; command: string; noun: string; context: (external?: IdContext['external']) => IdContext},
): void {
  const {defs, command} = how
  if (typeof args.id === 'string' && args.id !== '-') {
    const external = 'external-id' in defs ? {flag: '--external-id', command} : undefined
    const list = listCommand(resourceNamed(how.noun.replace(/ id$/, '').replaceAll(' ', '-')))
    args.id = resolveId(args.id, how.noun, {...how.context(external), list})
  }
  for (const name of Object.keys(defs)) {
    const value = flags[name]
    // a flag with a value (`--remove-discount` alone is a switch)
    const takes = (defs[name] as {type?: string} | undefined)?.type === 'option' ? idFlag(name) : undefined
    if (!takes || value === undefined) continue
    const sibling = [`external-${name}`, name.replace(/^(as-.+)-id$/, '$1')].find((s) => s !== name && s in defs)
    const context = {...how.context(sibling ? {flag: `--${sibling}`, command} : undefined), list: takes.list}
    // `-` reads ids from stdin, and an empty value clears a field: neither is an id to resolve
    const resolve = (v: string) => (v === '-' || v === '' ? v : resolveId(v, takes.what, context))
    flags[name] = Array.isArray(value) ? value.map((v) => resolve(String(v))) : resolve(String(value))
  }
}
