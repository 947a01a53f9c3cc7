// The compile cache: which runs share one, where it lives, and (in real Node processes, through the
// built dist/cli/compile-cache.js that bin/run.js imports) that a second run starts from it, that a
// cache V8 refuses or a folder that is not private only costs the speed-up, and that it can be turned off.
import {spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {cacheFolder, cacheKind, runLabel} from './compile-cache.js'

describe('runLabel', () => {
  it("names a run by its command's words, global flags before the command read as main reads them", () => {
    expect(runLabel(['products', 'list', '--limit', '3'])).toBe('products.list')
    expect(runLabel(['--debug', 'emulator', 'start'])).toBe('emulator.start')
    // an id or a value is not part of it: every `get` of another id is the same run
    expect(runLabel(['-p', 'sandbox', 'orders', 'invoice', 'get', '6f1c7a8e-2b1d-4c3e-9f4a-1b2c3d4e5f60'])).toBe('orders.invoice.get')
    expect(runLabel(['api', 'GET', '/v1/products/'])).toBe('api')
    expect(runLabel(['trigger', 'order.paid'])).toBe('trigger')
    expect(runLabel(['oauth2-clients', 'list'])).toBe('oauth2-clients.list')
    expect(runLabel(['products', 'get', 'c92ebe19-d285-4252-a630-1f246dbec372'])).toBe('products.get')
    expect(runLabel(['a', 'b', 'c', 'd', 'e'])).toBe('a.b.c.d')
    expect(runLabel([])).toBeUndefined()
    expect(runLabel(['--version'])).toBeUndefined()
    expect(runLabel(['Products', 'list'])).toBeUndefined()
    expect(runLabel(['x'.repeat(41)])).toBeUndefined()
  })

  it("with the build's manifests, names the command itself: an argument is no word of it, a typo has none", () => {
    const manifests = mkdtempSync(join(tmpdir(), 'till-manifests-'))
    for (const id of ['profiles.use', 'products.list', 'config.set']) writeFileSync(join(manifests, `${id}.json`), '{}')
    expect(runLabel(['profiles', 'use', 'staging'], manifests)).toBe('profiles.use')
    expect(runLabel(['-p', 'work', 'profiles', 'use', 'production'], manifests)).toBe('profiles.use')
    expect(runLabel(['config', 'set', 'color', 'never'], manifests)).toBe('config.set')
    expect(runLabel(['products', 'list', '--limit', '3'], manifests)).toBe('products.list')
    expect(runLabel(['prodcts', 'list'], manifests)).toBeUndefined()
    expect(runLabel(['products'], manifests)).toBeUndefined()
    rmSync(manifests, {recursive: true})
  })
})

describe('cacheKind', () => {
  it('tells the emulator, help and commands apart', () => {
    expect(cacheKind(['emulator', 'start', '--port', '0'])).toBe('emulator')
    expect(cacheKind(['products', 'list', '--limit', '3'])).toBe('command')
    expect(cacheKind(['prodcts', 'list'])).toBe('command')
    expect(cacheKind([])).toBe('help')
    expect(cacheKind(['--help'])).toBe('help')
    expect(cacheKind(['help', 'products'])).toBe('help')
    expect(cacheKind(['products', 'list', '--help'])).toBe('help')
    expect(cacheKind(['orders', '-h'])).toBe('help')
    expect(cacheKind(['emulator', 'start', '--help'])).toBe('help')
    // reading every page: other heap settings (bin/run.js), so a cache of its own
    expect(cacheKind(['orders', 'list', '--all', '-o', 'jsonl'])).toBe('stream')
    expect(cacheKind(['-p', 'sandbox', 'events', 'ingest', 'usage.jsonl'])).toBe('stream')
    expect(cacheKind(['events', 'list'])).toBe('command')
    // more than a few pages, as --all reads them
    expect(cacheKind(['orders', 'list', '--limit', '50000', '-o', 'jsonl'])).toBe('stream')
    expect(cacheKind(['orders', 'list', '--limit=2000'])).toBe('stream')
    expect(cacheKind(['orders', 'list', '-L5000'])).toBe('stream')
    expect(cacheKind(['orders', 'list', '-a'])).toBe('stream')
    expect(cacheKind(['orders', 'list', '--limit', '1000'])).toBe('command')
    // holding a whole catalog: the same heap settings
    expect(cacheKind(['catalog', 'plan', 'catalog.yaml'])).toBe('stream')
    expect(cacheKind(['-p', 'sandbox', 'migrate', 'stripe', '--out', 'move'])).toBe('stream')
    expect(cacheKind(['orders', 'list', '--all', '--help'])).toBe('help')
  })

  it('reads global flags before the command as main does', () => {
    expect(cacheKind(['-p', 'sandbox', 'products', 'list'])).toBe('command')
    expect(cacheKind(['--debug', 'emulator', 'start'])).toBe('emulator')
    expect(cacheKind(['--profile=prod', 'orders', '--help'])).toBe('help')
    expect(cacheKind(['--debug'])).toBe('help')
  })
})

describe('cacheFolder', () => {
  it("is oclif's cache folder for till, in compile-cache/", () => {
    expect(cacheFolder({}, 'linux', '/home/ann')).toBe('/home/ann/.cache/till/compile-cache')
    expect(cacheFolder({XDG_CACHE_HOME: '/xdg'}, 'linux', '/home/ann')).toBe('/xdg/till/compile-cache')
    expect(cacheFolder({TILL_CACHE_DIR: '/c/till', XDG_CACHE_HOME: '/xdg'}, 'linux', '/home/ann')).toBe('/c/till/compile-cache')
    expect(cacheFolder({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Caches/till/compile-cache')
  })

  it('takes an empty TILL_CACHE_DIR or XDG_CACHE_HOME as unset', () => {
    expect(cacheFolder({TILL_CACHE_DIR: '', XDG_CACHE_HOME: ''}, 'linux', '/home/ann')).toBe('/home/ann/.cache/till/compile-cache')
    expect(cacheFolder({TILL_CACHE_DIR: '  '}, 'linux', '/home/ann')).toBe('/home/ann/.cache/till/compile-cache')
  })

  it('is none for a TILL_CACHE_DIR with a control character, which the settings check refuses', () => {
    expect(cacheFolder({TILL_CACHE_DIR: 'a\u0007b'}, 'linux', '/home/ann')).toBeUndefined()
  })
})

/** The parts of Node's CommonJS loader that requireWithCache uses. */
const PARTS = ['_cache', '_nodeModulePaths', 'wrapper']

describe('requireWithCache, in real processes', () => {
  const built = new URL('../../dist/cli/compile-cache.js', import.meta.url).href
  let root: string
  let file: string
  let cache: string

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'till-compile-cache-'))
    file = join(root, 'lib.cjs')
    cache = join(root, 'cache')
    writeFileSync(file, 'const twice = (n) => n * 2\nexports.answer = twice(21)\nexports.same = () => require(__filename) === module.exports\n')
  })
  afterAll(() => rmSync(root, {recursive: true, force: true}))

  /** Loads the file as bin/run.js loads the bundle (as the run `label`, which calls that export when there is one), and prints what came of it as JSON. */
  const load = (env: Record<string, string> = {}, path = file, label?: string, without?: string) => {
    // node:module as another Node's might be: without one of the loader's parts requireWithCache uses
    const node = without ? `Object.fromEntries(${JSON.stringify(PARTS)}.filter((k) => k !== ${JSON.stringify(without)}).map((k) => [k, Module[k]]))` : 'Module'
    const script = `import Module from 'node:module'
import {requireWithCache} from ${JSON.stringify(built)}
const loaded = requireWithCache(${JSON.stringify(path)}, 'command', process.env, ${JSON.stringify(label)}, ${node})
const {exports, cacheFile, fromCache} = loaded
exports[${JSON.stringify(label)}]?.()
console.log(JSON.stringify({answer: exports.answer, same: exports.same(), cacheFile: cacheFile ?? null, fromCache}))`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: {PATH: process.env.PATH, HOME: root, TILL_CACHE_DIR: cache, ...env},
      encoding: 'utf8',
    })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    return JSON.parse(r.stdout) as {answer: number; same: boolean; cacheFile: string | null; fromCache: boolean}
  }
  const caches = () => readdirSync(join(cache, 'compile-cache')).filter((name) => name.endsWith('.bin'))

  it('runs the file as require would, and writes a private cache the next run starts from', () => {
    const first = load()
    expect(first).toMatchObject({answer: 42, same: true, fromCache: false})
    expect(first.cacheFile).toMatch(new RegExp(`compile-cache/lib\\.cjs-[0-9a-f]{8}-command-${process.version}-${process.arch}-\\d+-\\d+\\.bin$`))
    expect(statSync(first.cacheFile!).mode & 0o777).toBe(0o600)
    expect(statSync(join(cache, 'compile-cache')).mode & 0o777).toBe(0o700)

    const second = load()
    expect(second).toMatchObject({answer: 42, same: true, fromCache: true, cacheFile: first.cacheFile})
  })

  it('replaces a cache V8 refuses, and the cache of an older build of the file', () => {
    const {cacheFile} = load()
    writeFileSync(cacheFile!, 'not a code cache')
    expect(load()).toMatchObject({answer: 42, fromCache: false})
    expect(load()).toMatchObject({answer: 42, fromCache: true})

    writeFileSync(file, 'exports.answer = 43\nexports.same = () => true\n')
    const rebuilt = load()
    expect(rebuilt).toMatchObject({answer: 43, fromCache: false})
    expect(rebuilt.cacheFile).not.toBe(cacheFile)
    expect(caches()).toEqual([rebuilt.cacheFile!.split('/').pop()])
  })

  it("grows once with each other run's functions, until it is three quarters of the file's size", () => {
    // a file much longer than its code (as the bundle is, with the many commands a run does not call)
    const long = join(root, 'long', 'lib.cjs')
    mkdirSync(join(root, 'long'))
    const body = (name: string) => `exports.${name} = () => { let s = 0; for (let i = 0; i < 10; i++) s += [i, i * 2, String(i)].length; return s }\n`
    writeFileSync(long, `${'// padding\n'.repeat(2000)}exports.answer = 1\nexports.same = () => true\n${body('first')}${body('second')}`)
    const own = {TILL_CACHE_DIR: join(root, 'cache-growth')}
    const first = load(own, long, 'first')
    const runs = `${first.cacheFile}.runs`
    expect(readFileSync(runs, 'utf8')).toBe('first\n')
    const size = statSync(first.cacheFile!).size
    expect(load(own, long, 'first')).toMatchObject({fromCache: true})
    expect(statSync(first.cacheFile!).size).toBe(size)
    expect(load(own, long, 'second')).toMatchObject({fromCache: true})
    expect(statSync(first.cacheFile!).size).toBeGreaterThan(size)
    expect(readFileSync(runs, 'utf8')).toBe('first\nsecond\n')
    // a run without a label adds nothing
    const {mtimeMs} = statSync(first.cacheFile!)
    expect(load(own, long)).toMatchObject({fromCache: true})
    expect(statSync(first.cacheFile!).mtimeMs).toBe(mtimeMs)

    // a file barely longer than its code: its first cache is past the limit, and another run adds nothing
    const short = join(root, 'short', 'lib.cjs')
    mkdirSync(join(root, 'short'))
    writeFileSync(short, `exports.answer = 1\nexports.same = () => true\n${body('first')}${body('second')}`)
    const made = load(own, short, 'first')
    expect(statSync(made.cacheFile!).size).toBeGreaterThan(0.75 * statSync(short).size)
    expect(load(own, short, 'second')).toMatchObject({fromCache: true})
    expect(readFileSync(`${made.cacheFile}.runs`, 'utf8')).toBe('first\n')
  })

  it('keeps a cache for each copy of the file (two installs of till)', () => {
    const copy = join(root, 'copy', 'lib.cjs')
    mkdirSync(join(root, 'copy'))
    writeFileSync(copy, 'exports.answer = 44\nexports.same = () => true\n')
    const mine = load()
    const theirs = load({}, copy)
    expect(theirs).toMatchObject({answer: 44, fromCache: false})
    expect(theirs.cacheFile).not.toBe(mine.cacheFile)
    expect(load()).toMatchObject({answer: 43, fromCache: true})
    expect(load({}, copy)).toMatchObject({answer: 44, fromCache: true})
    expect(caches()).toHaveLength(2)
  })

  it('removes, as it writes, any other cache no run has used for 30 days, and keeps one in use fresh', () => {
    const own = {TILL_CACHE_DIR: join(root, 'cache-stale')}
    const used = load(own)
    const dir = join(root, 'cache-stale', 'compile-cache')
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)
    // another install's caches, one left 40 days ago (with its list), one used last week, and a list without its cache
    writeFileSync(join(dir, 'till.cjs-0badcafe-command-v0-x-1-1.bin'), 'old')
    writeFileSync(join(dir, 'till.cjs-0badcafe-command-v0-x-1-1.bin.runs'), 'products.list\n')
    utimesSync(join(dir, 'till.cjs-0badcafe-command-v0-x-1-1.bin'), daysAgo(40), daysAgo(40))
    writeFileSync(join(dir, 'till.cjs-5eedf00d-command-v0-x-1-1.bin'), 'recent')
    utimesSync(join(dir, 'till.cjs-5eedf00d-command-v0-x-1-1.bin'), daysAgo(7), daysAgo(7))
    writeFileSync(join(dir, 'till.cjs-0ddba11s-help-v0-x-1-1.bin.runs'), 'help\n')
    // what a writer that died left: removed a day on, not while another may be writing it
    writeFileSync(join(dir, 'till.cjs-0badcafe-command-v0-x-1-1.bin.123.tmp'), 'half')
    utimesSync(join(dir, 'till.cjs-0badcafe-command-v0-x-1-1.bin.123.tmp'), daysAgo(2), daysAgo(2))
    writeFileSync(join(dir, 'till.cjs-5eedf00d-command-v0-x-1-1.bin.456.tmp'), 'half')
    // this cache, used 40 days after it was made: the run marks it in use, and a write elsewhere keeps it
    utimesSync(used.cacheFile!, daysAgo(40), daysAgo(40))
    expect(load(own)).toMatchObject({fromCache: true})
    expect(Date.now() - statSync(used.cacheFile!).mtimeMs).toBeLessThan(60_000)

    const other = join(root, 'other', 'lib.cjs')
    mkdirSync(join(root, 'other'))
    writeFileSync(other, 'exports.answer = 45\nexports.same = () => true\n')
    const written = load(own, other)
    expect(readdirSync(dir).sort()).toEqual(
      [used.cacheFile!, `${used.cacheFile}.runs`, written.cacheFile!, `${written.cacheFile}.runs`]
        .map((f) => f.split('/').pop())
        .concat('till.cjs-5eedf00d-command-v0-x-1-1.bin', 'till.cjs-5eedf00d-command-v0-x-1-1.bin.456.tmp')
        .sort(),
    )
  })

  it.each(PARTS)("loads the file with Node's own require when node:module has no %s", (name) => {
    const plain = join(root, `plain-without${name}.cjs`)
    writeFileSync(plain, 'exports.answer = 6 * 7\nexports.same = () => require(__filename) === module.exports\n')
    expect(load({}, plain, undefined, name)).toEqual({answer: 42, same: true, cacheFile: null, fromCache: false})
    expect(caches().filter((cache) => cache.startsWith('plain-'))).toEqual([])
  })

  it('is off with NODE_DISABLE_COMPILE_CACHE, and unused in a folder others can write or where a file is', () => {
    rmSync(cache, {recursive: true, force: true})
    expect(load({NODE_DISABLE_COMPILE_CACHE: '1'})).toMatchObject({cacheFile: null, fromCache: false})
    expect(() => readdirSync(cache)).toThrow()

    mkdirSync(join(cache, 'compile-cache'), {recursive: true})
    chmodSync(join(cache, 'compile-cache'), 0o777)
    expect(load()).toMatchObject({answer: 43, cacheFile: null})
    expect(caches()).toEqual([])

    rmSync(cache, {recursive: true, force: true})
    writeFileSync(cache, 'a file where the folder would be')
    expect(load()).toMatchObject({answer: 43, cacheFile: null, fromCache: false})
    rmSync(cache)
  })
})
