// The bundle as bin/run.js runs it: one ASCII file (read as latin1), every command reached
// through its stub, oclif's DEBUG logging kept, and a compile cache per kind of run in TILL_CACHE_DIR
// that the next run uses as is.
import {execFileSync} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'
import {emulatorAndSandbox, envVars, runCli, sandbox} from '../helpers/cli.js'

const BUNDLE = join(ROOT, 'dist', 'bundle', 'cli', 'till.cjs')

// one emulator and one sandbox for the file's runs
const shared = emulatorAndSandbox()

describe('the bundle', () => {
  it('is ASCII only, so that reading it as latin1 gives its text', () => {
    const bytes = readFileSync(BUNDLE)
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1)
  })

  it("gives every command of the manifest, the autocomplete plugin's included, through its stub", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, {relativePath: string[]; isESM: boolean}>
    }
    const entries = Object.entries(manifest.commands)
    expect(entries.map(([id]) => id)).toEqual(expect.arrayContaining(['products:list', 'autocomplete', 'autocomplete:fish', 'emulator:start']))
    // one process requires every stub (each command's module and what it loads, the external ones too)
    const script = `const ids = []
for (const [id, c] of Object.entries(require('./oclif.manifest.json').commands)) {
  const m = require('./' + c.relativePath.join('/'))
  const cls = m.default ?? Object.values(m).find((v) => typeof v === 'function' && 'run' in v)
  if (typeof cls?.run !== 'function' || c.isESM) throw new Error(id + ': no command class, or not CommonJS')
  ids.push(id)
}
console.log(ids.length)`
    const out = execFileSync(process.execPath, ['-e', script], {cwd: ROOT, encoding: 'utf8'})
    expect(Number(out)).toBe(entries.length)
  })
})

describe('an internal error under --debug', () => {
  it("has a stack trace that names till's source files and lines (the bundle's source map)", async () => {
    const env = shared.box.env({...envVars(shared.emulator.production), TILL_TEST_FAULT: 'internal'})
    for (const debug of [
      {args: ['--debug'], env: {}},
      {args: [], env: {TILL_DEBUG: '1'}},
    ]) {
      const r = await runCli(['products', 'list', ...debug.args], {env: {...env, ...debug.env}})
      expect(r.code).toBe(1)
      const frame = /\n\s+at [^\n]*src\/cli\/base-command\.ts:\d+:\d+\)?\n/
      expect(r.stderr).toMatch(/TypeError: Cannot read properties/)
      expect(r.stderr).toMatch(frame)
      expect(r.stderr).not.toContain('till.cjs:')
    }
  })
})

describe('the compile cache', () => {
  it('is written by the first run of a kind, into TILL_CACHE_DIR, and used unchanged by the next', async () => {
    const cacheDir = join(shared.box.root, 'cache')
    const env = shared.box.env({...envVars(shared.emulator.production), TILL_CACHE_DIR: cacheDir})
    const first = await runCli(['products', 'list', '--limit', '3', '-o', 'json'], {env})
    expect(first.code, first.stderr).toBe(0)
    const folder = join(cacheDir, 'compile-cache')
    const [cache, runs] = readdirSync(folder).sort()
    expect(cache).toMatch(/^till\.cjs-[0-9a-f]{8}-command-v[\d.]+-\w+-\d+-\d+\.bin$/)
    expect(runs).toBe(`${cache}.runs`)
    for (const name of [cache!, runs!]) expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(folder, runs!), 'utf8')).toBe('products.list\n')
    const {mtimeMs} = statSync(join(folder, cache!))

    const second = await runCli(['products', 'list', '--limit', '3', '-o', 'json'], {env})
    expect(second.code, second.stderr).toBe(0)
    expect(second.stdout).toBe(first.stdout)
    expect(statSync(join(folder, cache!)).mtimeMs).toBe(mtimeMs) // V8 took it: not written again

    const help = await runCli(['products', '--help'], {env})
    expect(help.code).toBe(0)
    expect(
      readdirSync(folder)
        .filter((name) => name.endsWith('.bin'))
        .sort(),
    ).toEqual([cache, cache!.replace('-command-', '-help-')].sort())
  })

  it('holds the code of every command that ran: another command adds its own, once, and is not compiled again', async () => {
    const cacheDir = join(shared.box.root, 'cache-grows')
    const env = shared.box.env({...envVars(shared.emulator.production), TILL_CACHE_DIR: cacheDir})
    const folder = join(cacheDir, 'compile-cache')
    // the first command of an install made the cache alone; a list after it compiled its request path every time
    expect((await runCli(['profiles', 'list'], {env})).code).toBe(0)
    const cache = readdirSync(folder).find((name) => name.endsWith('.bin'))!
    const before = statSync(join(folder, cache)).size
    expect((await runCli(['products', 'list', '--limit', '1'], {env})).code).toBe(0)
    expect(readFileSync(join(folder, `${cache}.runs`), 'utf8')).toBe('profiles.list\nproducts.list\n')
    const grown = statSync(join(folder, cache))
    expect(grown.size).toBeGreaterThan(before * 1.2)
    // known runs, with their flags or global flags before the command, leave it as it is
    for (const args of [
      ['products', 'list', '--limit', '2'],
      ['-p', 'local', 'profiles', 'list'],
    ]) {
      expect((await runCli(args, {env})).code).toBe(0)
      expect(statSync(join(folder, cache)).mtimeMs).toBe(grown.mtimeMs)
    }
    expect(readdirSync(folder).sort()).toEqual([cache, `${cache}.runs`])
  })

  it("keeps oclif's DEBUG logging, which the bundle loads only when DEBUG is set", async () => {
    const env = shared.box.env({...envVars(shared.emulator.production)})
    const quiet = await runCli(['products', 'list', '--limit', '1'], {env})
    expect(quiet.code, quiet.stderr).toBe(0)
    expect(quiet.stderr).toBe('')
    const logged = await runCli(['products', 'list', '--limit', '1'], {env: {...env, DEBUG: 'oclif:*'}})
    expect(logged.code, logged.stderr).toBe(0)
    expect(logged.stdout).toBe(quiet.stdout)
    expect(logged.stderr).toMatch(/ oclif:main process\.argv: /)
    expect(logged.stderr).not.toContain(shared.emulator.production.token)
  })

  it("a one-page list loads neither Node's modules it does not use nor the completion hook", async () => {
    // Node's own modules loaded by the run, reported by a preload at exit
    const preload = join(shared.box.root, 'loaded.cjs')
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeSync(2, '\\nloaded: ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'))`,
    )
    const env = shared.box.env({...envVars(shared.emulator.production), DEBUG: 'oclif:*', NODE_OPTIONS: `--require ${preload}`})
    const list = await runCli(['products', 'list', '--limit', '1'], {env})
    expect(list.code, list.stderr).toBe(0)
    const loaded = /\nloaded: (.*)\n/.exec(list.stderr)?.[1]?.split(' ') ?? []
    expect(loaded).toEqual(expect.arrayContaining(['net', 'vm'])) // (the report works)
    // fs/promises and fs streams (with the file watchers), the recursive remover, http (undici's parser is its
    // own) and child_process: each loaded on first use, by the runs that use it
    for (const unused of ['fs/promises', 'internal/fs/streams', 'internal/fs/rimraf', 'http', 'child_process']) expect(loaded, unused).not.toContain(unused)
    // the completion hook acts after `till autocomplete` only, and is loaded for it alone
    expect(list.stderr).not.toContain('hooks:postrun start')
    const completion = await runCli(['autocomplete', 'script', 'bash'], {env})
    expect(completion.code, completion.stderr).toBe(0)
    expect(completion.stderr).toContain('hooks:postrun start')
  })

  it('is not written with NODE_DISABLE_COMPILE_CACHE, and an invalid TILL_CACHE_DIR is a usage error', async () => {
    const cacheDir = join(shared.box.root, 'no-cache')
    const off = await runCli(['products', 'list', '--limit', '1'], {
      env: shared.box.env({...envVars(shared.emulator.production), TILL_CACHE_DIR: cacheDir, NODE_DISABLE_COMPILE_CACHE: '1'}),
    })
    expect(off.code, off.stderr).toBe(0)
    expect(() => readdirSync(cacheDir)).toThrow()

    const bad = await runCli(['products', 'list'], {env: shared.box.env({...envVars(shared.emulator.production), TILL_CACHE_DIR: 'a\u0007b'})})
    expect(bad.code).toBe(2)
    expect(existsSync(join(ROOT, 'a\u0007b'))).toBe(false) // no cache folder made for it first
    expect(bad.stderr).toBe(
      'Error: TILL_CACHE_DIR must be a folder path (not a file, no control characters), not "a\\u0007b"\nHint: fix or unset TILL_CACHE_DIR\n',
    )
  })
})

describe('NODE_ENV of a developer shell or a test runner', () => {
  it('changes nothing: oclif looks for no TypeScript source (it did under development and test, 2.6 times the CPU)', async () => {
    const box = sandbox()
    try {
      for (const nodeEnv of ['development', 'test']) {
        const r = await runCli(['profiles', 'list', '--columns', 'name'], {env: box.env({NODE_ENV: nodeEnv, DEBUG: 'oclif:config:ts-path'})})
        expect(r.code, r.stderr).toBe(0)
        expect(r.stdout).toContain('local')
        expect(r.stderr).toContain('Skipping typescript path lookup')
        expect(r.stderr).toContain('because enableAutoTranspile is explicitly set to false')
        expect(r.stderr).not.toMatch(/tsconfig|ts-node|source file/i)
      }
    } finally {
      box.cleanup()
    }
  })
})

describe('the run manifest', () => {
  const whole = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, Record<string, unknown>>}
  const run = JSON.parse(readFileSync(join(ROOT, 'dist', 'bundle', 'run-manifest.json'), 'utf8')) as typeof whole

  it('has every command of the manifest, without the texts only help and completion read, at a third of its size', () => {
    expect(Object.keys(run.commands)).toEqual(Object.keys(whole.commands))
    // (a flag may be named description: its entry is an object, not a text)
    const texts = JSON.stringify(run.commands).match(/"(description|usage|helpGroup)":"|"examples":\[/g) ?? []
    expect(texts).toEqual([])
    // what a run needs is kept: each command's flags by name, with their types
    expect(Object.keys(run.commands['products:list']!.flags as object)).toEqual(Object.keys(whole.commands['products:list']!.flags as object))
    expect(statSync(join(ROOT, 'dist', 'bundle', 'run-manifest.json')).size).toBeLessThan(statSync(join(ROOT, 'oclif.manifest.json')).size / 2)
  })

  it('has one file per command beside it, with that command alone, for the run of a command named in full', () => {
    const dir = join(ROOT, 'dist', 'bundle', 'run-manifests')
    expect(readdirSync(dir).sort()).toEqual(
      Object.keys(run.commands)
        .map((id) => `${id.replaceAll(':', '.')}.json`)
        .sort(),
    )
    const one = JSON.parse(readFileSync(join(dir, 'products.list.json'), 'utf8')) as typeof run & {version: string}
    expect(one).toEqual({...run, commands: {'products:list': run.commands['products:list']}})
  })

  it('has, for the help of each command with none below it, that command with all its texts', () => {
    const dir = join(ROOT, 'dist', 'bundle', 'help-manifests')
    const ids = Object.keys(whole.commands)
    const leaves = ids.filter((id) => !ids.some((other) => other.startsWith(`${id}:`)))
    expect(leaves.length).toBeLessThan(ids.length) // (some commands have others below them)
    expect(readdirSync(dir).sort()).toEqual(leaves.map((id) => `${id.replaceAll(':', '.')}.json`).sort())
    const one = JSON.parse(readFileSync(join(dir, 'products.list.json'), 'utf8')) as typeof whole
    expect(one.commands).toEqual({'products:list': whole.commands['products:list']})
  })

  it("a command's run reads it; help reads the whole manifest or its command's, with every description", async () => {
    const {runInProcess} = await import('../helpers/in-process.js')
    const box = sandbox()
    const chosen = (path: string) => (globalThis as {__tillManifest?: (p: string) => string}).__tillManifest?.(path)
    const wholeFile = join(ROOT, 'oclif.manifest.json')
    try {
      // a command named in full reads its own manifest; an unknown one (here a typo) all commands'
      expect((await runInProcess(['-p', 'local', 'profiles', 'list', '--columns', 'name'], {env: box.env()})).code).toBe(0)
      expect(chosen(wholeFile)).toBe(join(ROOT, 'dist', 'bundle', 'run-manifests', 'profiles.list.json'))
      expect((await runInProcess(['orders', 'invoice', 'get', '--help-me'], {env: box.env()})).code).toBe(2)
      expect(chosen(wholeFile)).toBe(join(ROOT, 'dist', 'bundle', 'run-manifests', 'orders.invoice.get.json'))
      // the help of one command reads that command with its texts; a topic's help, every command's
      const help = await runInProcess(['products', 'list', '--help'], {env: box.env()})
      expect(chosen(wholeFile)).toBe(join(ROOT, 'dist', 'bundle', 'help-manifests', 'products.list.json'))
      expect(help.stdout).toContain('Items per page')
      const topic = await runInProcess(['products', '--help'], {env: box.env()})
      expect(chosen(wholeFile)).toBe(wholeFile)
      expect(topic.stdout).toContain('products list')
      const typo = await runInProcess(['prodcts', 'list'], {env: box.env()})
      expect(chosen(wholeFile)).toBe(join(ROOT, 'dist', 'bundle', 'run-manifest.json'))
      expect(typo.stderr).toContain('did you mean "till products list"')
    } finally {
      box.cleanup()
    }
  })
})
