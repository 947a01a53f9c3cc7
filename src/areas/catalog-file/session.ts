// The steps the catalog commands share: pull an environment into a file, and plan a file against one.
import {createHash} from 'node:crypto'
import {closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync} from 'node:fs'
import {join} from 'node:path'

import type {ApiClient} from '../../client/client.js'
import {fsError} from '../../client/fs-problem.js'
import {waitForLock, type HeldLock} from '../../client/lockfile.js'
import {settled, trackTemp} from '../../client/temp-files.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import type {Item} from '../../client/resources/common.js'
import {gathered} from '../../cli/output/sink.js'
import {pathText, type Catalog, type LocatedIssue} from './document.js'
import {KINDS, kindOf} from './kinds/index.js'
import {buildPlan, EnvironmentKeys, type Plan} from './plan.js'
import {loadCatalogAsync, readEnvironment} from './read.js'
import {catalogPieces, type Section} from './writer.js'

/**
 * Writes the environment's catalog through `out`, a piece at a time (the environment is read whole first:
 * an error reading it writes nothing). Returns how many objects of each kind it wrote, and what the file
 * cannot express as it is (a checkout link to an archived product, say), to be fixed before applying.
 */
export async function pullCatalog(
  client: ApiClient,
  out: (text: string) => Promise<void> | void,
): Promise<{counts: Record<string, number>; problems: string[]}> {
  const env = await readEnvironment(client)
  const keys = new EnvironmentKeys(env)
  const counts: Record<string, number> = {}
  const problems: string[] = twinLines(keys)
  const sections = new Map<string, Section>()
  for (const kind of KINDS) {
    const written = new Map<string, Item>()
    for (const {item, key} of keys.keyed.get(kind.section) ?? []) {
      if (kind.archived(item)) continue
      const unsupported = kind.unsupported?.(item)
      if (unsupported) problems.push(`${kind.noun} ${key} is left out: it ${unsupported}, which the file cannot express yet (apply keeps it)`)
      else written.set(key, item)
    }
    counts[kind.section] = written.size
    sections.set(kind.section, {keys: [...written.keys()], entry: (key) => kind.toEntry(written.get(key)!, keys)})
  }
  const issues: LocatedIssue[] = []
  for (const chunk of gathered(catalogPieces((kind) => sections.get(kind.section), issues))) await out(chunk)
  for (const i of issues) problems.push(`line ${i.line}: ${pathText(i.path)}: ${i.message} (fix it in the file before applying it)`)
  return {counts, problems}
}

/** "2 meters, 1 custom field, ...": how many objects of each kind. */
export const sectionsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([section, n]) => `${n} ${n === 1 ? (kindOf(section)?.noun ?? section) : section.replaceAll('_', ' ')}`)
    .join(', ')

export interface Planned {
  catalog: Catalog
  plan: Plan
  keys: EnvironmentKeys
}

/** One line per key that more than one object records: which objects, and how to keep one. */
export const twinLines = (keys: EnvironmentKeys): string[] =>
  keys.twins.map(
    (t) =>
      `${t.ids.length} ${t.kind.replaceAll('_', ' ')} record the key "${t.key}" (${t.ids.join(', ')}; two applies at once make such twins): the file's entry stands for ${t.ids[0]}, the others are not in it; archive or delete the extra ones, or give them keys of their own`,
  )

/** The file (checked first, before any request), the environment, and its keys. */
async function readBoth(client: () => Promise<ApiClient>, file: string, debug?: (line: string) => void) {
  const catalog = await loadCatalogAsync(file, debug)
  const env = await readEnvironment(await client())
  return {catalog, env, keys: new EnvironmentKeys(env)}
}

/** Reads the file and the environment, and plans. */
export async function planFile(client: () => Promise<ApiClient>, file: string, prune: boolean, debug?: (line: string) => void): Promise<Planned> {
  const {catalog, env, keys} = await readBoth(client, file, debug)
  return {catalog, plan: buildPlan(catalog, env, {prune, keys}), keys}
}

/** As planFile, for a plan that is only shown: the file's entries are dropped as their steps are made. */
export async function showPlan(
  client: () => Promise<ApiClient>,
  file: string,
  prune: boolean,
  debug?: (line: string) => void,
): Promise<{plan: Plan; twins: string[]}> {
  const {catalog, env, keys} = await readBoth(client, file, debug)
  return {plan: buildPlan(catalog, env, {prune, keys, consume: true}), twins: twinLines(keys)}
}

/**
 * A file written whole or not at all: the text goes to a temporary copy beside it, renamed over it by
 * `commit`; `abandon` removes the copy, and so does the process's exit before either.
 */
export class AtomicFile {
  private fd: number | undefined
  private readonly temp: string

  constructor(readonly file: string) {
    this.temp = `${file}.${process.pid}.part`
  }

  write(text: string): void {
    this.attempt(() => {
      const fd = this.open()
      const bytes = Buffer.from(text)
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at)
    })
  }

  commit(): void {
    this.attempt(() => {
      closeSync(this.open())
      this.fd = undefined
      renameSync(this.temp, this.file)
      settled(this.temp)
    })
  }

  abandon(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
    rmSync(this.temp, {force: true})
    settled(this.temp)
  }

  /** The copy, made at the first use; removed at exit until it is renamed or abandoned (temp-files.ts). */
  private open(): number {
    if (this.fd === undefined) {
      trackTemp(this.temp)
      this.fd = openSync(this.temp, 'w', 0o644)
    }
    return this.fd
  }

  private attempt(step: () => void): void {
    try {
      step()
    } catch (error) {
      this.abandon()
      throw fsError(error, 'write', this.file, ExitCode.usage, 'give --out a path in a folder you can write to')
    }
  }
}

/**
 * The lock of applies to one environment (its URL and token) on this machine: two applies at once would
 * both plan before either created anything, and create every object twice. The second waits for the
 * first (up to `waitMs`), then plans what is left.
 */
export async function lockEnvironment(
  configDir: string,
  target: {baseUrl: string; token?: string; name: string},
  waitMs: number,
  note: (line: string) => void,
): Promise<HeldLock> {
  const folder = join(configDir, 'locks')
  mkdirSync(folder, {recursive: true, mode: 0o700})
  const id = createHash('sha256')
    .update(`${target.baseUrl}\n${target.token ?? ''}`)
    .digest('hex')
    .slice(0, 16)
  const path = join(folder, `catalog-apply-${id}.lock`)
  const lock = await waitForLock(path, waitMs, (pid) =>
    note(`Waiting for another till catalog apply to the same environment${pid === null ? '' : ` (pid ${pid})`} to finish…`),
  )
  if ('release' in lock) return lock
  throw new TillError(
    `another till catalog apply to profile ${target.name}'s environment is still running${lock.heldBy === null ? '' : ` (pid ${lock.heldBy})`}`,
    ExitCode.busy,
    `wait for it to finish and run apply again (two at once would create every object twice); if none is running, delete ${path}`,
  )
}
