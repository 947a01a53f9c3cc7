// Loads the bundled CLI (one CommonJS file, dist/bundle/cli/till.cjs) with a V8 code cache of its own.
// Compiling the bundle costs a one-page command about a third of its start-up; a cache made after a run
// holds every function that run compiled, so the next run of the same kind compiles nearly nothing.
// Node's module.enableCompileCache (which bin/run.js turns on for itself) makes its cache as a module is
// compiled, with the top level only, so a one-page list from it compiles much of its request path again;
// this cache holds the functions a run compiled (figures in bench/README.md).
// bin/run.js loads this file from its own small bundle (boot.cjs): it uses Node's own modules only.
//
// The cache lives in till's cache folder (TILL_CACHE_DIR, else the platform's: ~/.cache/till on Linux), in
// compile-cache/, private to the user (folder 0700, files 0600), and a folder that is not the user's own is
// not used. V8 refuses a cache made by another V8 or for other source, and the file names carry the Node
// version and the bundle's path, size and time, so an upgrade starts a new cache (and removes the old one; a
// cache no run has used for 30 days, another install's, is removed too). NODE_DISABLE_COMPILE_CACHE
// (Node's own switch) turns it off. Any failure to read or write it only costs the speed-up.
import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import Module, {createRequire} from 'node:module'
import {homedir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import {Script} from 'node:vm'

import {MiB, readOwnFile, readOwnText} from '../client/own-file.js'
import {globalsAfterCommand} from './argv.js'
import {isFolderPath} from './settings.js'

/**
 * The runs that share a cache: each holds what its kind of run compiles. A stream (a command reading every
 * page, `--all`, sending a file of events, or holding a catalog) runs with other V8 heap settings
 * (bin/run.js), and V8 refuses a cache made under other settings: it keeps one of its own.
 */
export type CacheKind = 'command' | 'stream' | 'emulator' | 'help'

/**
 * What kind of run a command line is: the emulator (a server, with code no other command runs), help (the
 * root help, or `--help` anywhere), a stream (every page with `--all`, `events ingest`, and the catalog and
 * migrate commands, which hold a whole catalog and have the stream's heap settings) or
 * another command. Were they one cache, a command run after a help run made it would compile its whole request
 * path every time.
 */
export function cacheKind(commandLine: readonly string[]): CacheKind {
  // as main reads it: global flags given before the command count as given after it
  const argv = globalsAfterCommand(commandLine)
  const first = argv[0]
  if (first === 'emulator' && !argv.includes('--help') && !argv.includes('-h')) return 'emulator'
  if (first === undefined || first.startsWith('-') || first === 'help') return 'help'
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return 'help'
  const words = commandWords(commandLine)
  const large =
    argv.includes('--all') ||
    argv.includes('-a') ||
    manyPages(argv) ||
    (words[0] === 'events' && words[1] === 'ingest') ||
    words[0] === 'catalog' ||
    words[0] === 'migrate'
  return large ? 'stream' : 'command'
}

/** Pages from this many items on are a stream as `--all` is: a long list peaks lower with a stream's heap settings. */
const STREAM_LIMIT = 1000

/** Whether `--limit` (`-L`) asks for more items than a few pages hold. */
function manyPages(argv: readonly string[]): boolean {
  for (const [i, arg] of argv.entries()) {
    const joined = /^(?:--limit=|-L=?)(\d+)$/.exec(arg)
    const value = joined ? joined[1] : arg === '--limit' || arg === '-L' ? argv[i + 1] : undefined
    if (value !== undefined && Number(value) > STREAM_LIMIT) return true
  }
  return false
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The words of `commandLine` that can name a command (global flags before it read as main reads them): at
 * most four, each a lowercase letter then letters, digits and hyphens (`oauth2-clients`), up to the first
 * other argument, so that a flag, an id or a value never counts.
 */
export function commandWords(commandLine: readonly string[]): string[] {
  const words: string[] = []
  for (const arg of globalsAfterCommand(commandLine)) {
    if (words.length === 4 || !/^[a-z][a-z0-9-]{0,39}$/.test(arg) || UUID.test(arg)) break
    words.push(arg)
  }
  return words
}

/**
 * What a run of `commandLine` is, for its kind's cache: the command it names, its words joined by dots. A
 * cache records the runs whose code it holds, and a run that is not among them adds its own (see
 * requireWithCache). With `manifests` (the build's folder of one manifest per command, `<id>.json`), the
 * label is the longest run of the words that names a command, so that an argument (`profiles use staging`)
 * is not taken for a word of it, and a line that names none (a typo) has no label and adds nothing; without
 * it, the words as they are.
 */
export function runLabel(commandLine: readonly string[], manifests?: string): string | undefined {
  const words = commandWords(commandLine)
  if (manifests === undefined) return words.length > 0 ? words.join('.') : undefined
  for (let n = words.length; n > 0; n--) {
    const id = words.slice(0, n).join('.')
    if (existsSync(join(manifests, `${id}.json`))) return id
  }
  return undefined
}

/** oclif's cache folder for till (its `config.cacheDir`), where the compile cache goes, in compile-cache/. */
export function cacheFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = homedir()): string | undefined {
  const own = env.TILL_CACHE_DIR?.trim()
  // one the settings check refuses (main then says so) gets no folder made for it
  if (own) return isFolderPath(own) ? join(own, 'compile-cache') : undefined
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'till', 'compile-cache')
  const base = env.XDG_CACHE_HOME || (platform === 'win32' && env.LOCALAPPDATA) || join(home, '.cache')
  return join(base, 'till', 'compile-cache')
}

/** Whether `dir` is a real folder (not a link) that only this user can write: otherwise its files are not trusted. */
function isPrivateFolder(dir: string): boolean {
  const stat = lstatSync(dir)
  if (!stat.isDirectory()) return false
  if (process.platform === 'win32') return true
  return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0
}

export interface CachedLoad {
  exports: Record<string, unknown>
  /** The cache file used or to be written, undefined when there is none (turned off, or no usable folder). */
  cacheFile?: string
  /** Whether the run started from a cache V8 accepted. */
  fromCache: boolean
}

/**
 * Runs the CommonJS file `file` (ASCII only, as the build writes it) as Node's require would, registered
 * in require's cache so that a later require of it gets these exports, compiled from the cache of `kind`
 * when there is one. Without one (or when V8 refused it), the cache is written as the process exits.
 * When `node` (node:module) lacks a part of its loader this uses, or source maps are on, the file is loaded
 * with Node's own require instead, without a cache of ours.
 *
 * A cache holds the functions of the runs that made it, which it lists beside itself (`<cache>.runs`): a run
 * of another command (`label`, see runLabel) writes it again at exit, with its own functions added, once,
 * until the cache is three quarters of the script's size. Without that, the first command after an install
 * decided the cache of every later one: after `profiles add`, each `products list` would compile its
 * whole request path again.
 */
export function requireWithCache(file: string | URL, kind: CacheKind, env: NodeJS.ProcessEnv = process.env, label?: string, node: object = Module): CachedLoad {
  const path = realpathSync(file)
  const loader = loaderInternals(node)
  // Node's own require reads the file's source map when source maps are on (a run with --debug); a Script does not
  if (loader === undefined || process.sourceMapsEnabled) return {exports: createRequire(path)(path), fromCache: false}
  const existing = loader._cache[path]
  if (existing) return {exports: existing.exports as Record<string, unknown>, fromCache: false}

  const cacheFile = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFileFor(path, kind, env)
  let cachedData: Buffer | undefined
  if (cacheFile) {
    try {
      cachedData = readOwnFile(cacheFile, CACHE_MAX_BYTES)
    } catch {
      // none yet, or something that is not a cache (a FIFO, a link to a device): only the speed-up is lost
    }
  }
  const source = wrappedSource(path, loader.wrapper)
  const script = new Script(source, {filename: path, cachedData})
  const fromCache = cachedData !== undefined && !script.cachedDataRejected
  if (fromCache) keepFresh(cacheFile!)
  // a cache grows only so far: one that held every command's functions (larger than the script) would
  // cost each run more to read than it saves
  const grows = cachedData !== undefined && cachedData.length < GROWTH_LIMIT * source.length
  const mod = new Module(path)
  mod.filename = path
  mod.paths = loader._nodeModulePaths(dirname(path))
  loader._cache[path] = mod
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  try {
    wrapper.call(mod.exports, mod.exports, createRequire(path), mod, path, dirname(path))
  } catch (error) {
    delete loader._cache[path]
    throw error
  }
  mod.loaded = true
  // made at exit, so that it holds the functions this run compiled, not only the top level
  if (cacheFile) {
    const runs = fromCache ? readRuns(cacheFile) : []
    if (!fromCache || (label !== undefined && !runs.includes(label) && grows)) {
      const made = label === undefined ? runs : [...runs, label]
      process.once('exit', () => writeCache(cacheFile, cachePrefix(path, kind), script, made))
    }
  }
  return {exports: mod.exports as Record<string, unknown>, cacheFile, fromCache}
}

/**
 * What a load with a cache uses of Node's CommonJS loader, which node:module has but does not document: its
 * cache of modules (so that a later require gets these exports), the folders a module's requires search,
 * and the text require wraps a file's source in.
 */
interface LoaderInternals {
  _cache: Record<string, Module>
  _nodeModulePaths(dir: string): string[]
  wrapper: readonly [string, string]
}

/** The loader's internals in `node`, or undefined when one is missing or of another shape (another Node's loader). */
function loaderInternals(node: object): LoaderInternals | undefined {
  const loader = node as Partial<LoaderInternals>
  const wrapper = loader.wrapper as unknown
  const wraps = Array.isArray(wrapper) && wrapper.length === 2 && wrapper.every((part) => typeof part === 'string')
  const cache = typeof loader._cache === 'object' && loader._cache !== null
  return wraps && cache && typeof loader._nodeModulePaths === 'function' ? (loader as LoaderInternals) : undefined
}

/**
 * The file's text inside require's function wrapper, read once into a buffer that has room for the wrapper
 * and decoded as latin1 (the cheapest decoding, and the same text as UTF-8 for an ASCII file). Wrapping a
 * text read first made a second copy of the whole bundle, kept until a full garbage collection, which a
 * short run never has: as much again of its peak memory.
 */
function wrappedSource(path: string, [head, tail]: readonly [string, string]): string {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    const buffer = Buffer.allocUnsafe(head.length + size + tail.length)
    buffer.write(head, 0, 'latin1')
    let read = 0
    while (read < size) {
      const n = readSync(fd, buffer, head.length + read, size - read, read)
      if (n === 0) break
      read += n
    }
    const end = head.length + read
    buffer.write(tail, end, 'latin1')
    return buffer.toString('latin1', 0, end + tail.length)
  } finally {
    closeSync(fd)
  }
}

/** The cache file for this file, kind and Node, in a private folder made if needed; undefined when none is usable. */
function cacheFileFor(path: string, kind: CacheKind, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const dir = cacheFolder(env)
    if (dir === undefined) return undefined
    mkdirSync(dir, {recursive: true, mode: 0o700})
    if (!isPrivateFolder(dir)) return undefined
    const {size, mtimeMs} = statSync(path)
    return join(dir, `${cachePrefix(path, kind)}${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}.bin`)
  } catch {
    return undefined
  }
}

/** A short hash of the file's path (FNV-1a), so that two installs of till keep a cache each. */
function pathHash(path: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0
  return hash.toString(16).padStart(8, '0')
}

const cachePrefix = (path: string, kind: CacheKind): string => `${basename(path)}-${pathHash(path)}-${kind}-`

/**
 * A cache holds what runs compiled of a bundle of about 2 MB: one past this is not a cache. Read only
 * from a regular file (own-file.ts): a FIFO there hung every command, a link to /dev/zero grew the process
 * without end.
 */
const CACHE_MAX_BYTES = 64 * MiB

/** A cache that is this share of its script's size takes no more runs' functions. */
const GROWTH_LIMIT = 0.75

/** The runs whose functions the cache holds (none when the list is missing). */
function readRuns(cacheFile: string): string[] {
  try {
    return readOwnText(`${cacheFile}.runs`, MiB).split('\n').filter(Boolean)
  } catch {
    return []
  }
}

/** A cache left unused this long (another install's, or an old build of a moved one) is removed. */
const STALE_MS = 30 * 86_400_000
const DAY_MS = 86_400_000

/** Marks a cache in use (its time), at most once a day, so that no writer takes it for stale. */
function keepFresh(cacheFile: string): void {
  try {
    if (Date.now() - statSync(cacheFile).mtimeMs > DAY_MS) utimesSync(cacheFile, new Date(), new Date())
  } catch {
    // only costs the cache, should another writer remove it in a month
  }
}

/**
 * Writes the cache and the list of its runs, each whole (a reader never sees half of one), and removes this
 * kind's caches of other builds, and any cache no run has used for 30 days (another install's, which no
 * build of its own will replace). A list that is lost or older than its cache only costs a rewrite.
 */
function writeCache(cacheFile: string, prefix: string, script: Script, runs: readonly string[]): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, script.createCachedData(), {mode: 0o600})
    renameSync(temporary, cacheFile)
    writeFileSync(temporary, runs.map((run) => `${run}\n`).join(''), {mode: 0o600})
    renameSync(temporary, `${cacheFile}.runs`)
    const dir = dirname(cacheFile)
    const own = [basename(cacheFile), `${basename(cacheFile)}.runs`]
    const names = readdirSync(dir)
    /** How long ago the file was written or used (0 when another process removed it meanwhile). */
    const age = (name: string) => {
      try {
        return Date.now() - statSync(join(dir, name)).mtimeMs
      } catch {
        return 0
      }
    }
    for (const name of names) {
      // a list whose cache is gone, and what a writer that died left half-written
      if (name.endsWith('.bin.runs') && !names.includes(name.slice(0, -'.runs'.length))) rmSync(join(dir, name), {force: true})
      if (name.endsWith('.tmp') && age(name) > DAY_MS) rmSync(join(dir, name), {force: true})
      if (!name.endsWith('.bin') || own.includes(name)) continue
      if (name.startsWith(prefix) || age(name) > STALE_MS) {
        rmSync(join(dir, name), {force: true})
        rmSync(join(dir, `${name}.runs`), {force: true})
      }
    }
  } catch {
    rmSync(temporary, {force: true})
  }
}
