// Files of till's own folders that are not what they seem, in real processes with a deadline: a FIFO
// (mkfifo) or a link to /dev/zero where the compile cache, the config, the shown-ids cache or the
// emulator's tokens are. The caches only cost speed: the command completes. A config that is not a
// regular file is a one-line error, as a folder is. Nothing hangs, nothing grows without end.
import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars, linesOf, runCli, type CliResult} from '../helpers/cli.js'
import {scaled} from '../helpers/machine.js'

const shared = emulatorAndSandbox()
const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, {recursive: true, force: true})
})

const fresh = (name: string): string => {
  const root = mkdtempSync(join(tmpdir(), `till-own-${name}-`))
  roots.push(root)
  return root
}

/** Puts a FIFO, or a link to /dev/zero, at `path` (whatever was there goes). */
function plant(path: string, kind: 'fifo' | 'zero'): void {
  rmSync(path, {force: true, recursive: true})
  if (kind === 'fifo') execFileSync('mkfifo', [path])
  else symlinkSync('/dev/zero', path)
}

const DEADLINE = () => scaled(20_000)

/** Ended by itself (not killed at the deadline). */
function finished(r: CliResult): void {
  expect(r.signal, `killed at the deadline; stderr: ${r.stderr}`).toBeNull()
}

describe.each(['fifo', 'zero'] as const)('a %s where a file of till is', (kind) => {
  it('at the compile cache: the command completes (the cache only costs speed)', async () => {
    const cacheDir = fresh('cache')
    const env = shared.box.env(envVars(shared.emulator.production, {TILL_CACHE_DIR: cacheDir}))
    const args = ['products', 'list', '--limit', '1', '-o', 'json']
    const first = await runCli(args, {env, timeoutMs: DEADLINE()})
    expect(first.code, first.stderr).toBe(0)
    const folder = join(cacheDir, 'compile-cache')
    const names = readdirSync(folder)
    const cache = names.find((n) => n.endsWith('.bin'))
    expect(cache, names.join(', ')).toBeDefined()
    for (const file of [cache!, `${cache}.runs`]) {
      plant(join(folder, file), kind)
      const r = await runCli(args, {env, timeoutMs: DEADLINE()})
      finished(r)
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toHaveLength(1)
      expect(r.stderr).toBe('')
    }
  })

  it('at config.json: profiles list and a command are a one-line error naming the file, exit 1', async () => {
    const configDir = join(fresh('config'), 'config')
    mkdirSync(configDir, {recursive: true, mode: 0o700})
    const file = join(configDir, 'config.json')
    plant(file, kind)
    const what = kind === 'fifo' ? 'a FIFO (named pipe)' : 'a device'
    for (const args of [
      ['profiles', 'list'],
      ['products', 'list', '--limit', '1'],
    ]) {
      const r = await runCli(args, {env: shared.box.env({TILL_CONFIG_DIR: configDir}), timeoutMs: DEADLINE()})
      finished(r)
      expect(r.code, r.stderr).toBe(1)
      expect(r.stdout).toBe('')
      expect(linesOf(r.stderr)).toEqual([
        `Error: the config file ${file} is not valid: it is ${what}, not a file`,
        'Hint: fix it, or move it away to start over with the default "local" profile',
      ])
    }
  })

  it('at the shown-ids cache: a shown prefix is unknown, and the command completes', async () => {
    const configDir = join(fresh('ids'), 'config')
    mkdirSync(configDir, {recursive: true, mode: 0o700})
    plant(join(configDir, 'shown-ids.json'), kind)
    const env = shared.box.env(envVars(shared.emulator.production, {TILL_CONFIG_DIR: configDir, TILL_ENV: 'local'}))
    const r = await runCli(['products', 'get', 'abcd'], {env, timeoutMs: DEADLINE()})
    finished(r)
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/^Error: product id "abcd" is not a whole id, and no id shown earlier/)
  })

  it("at the emulator's tokens of the data folder: the local profile has no token there, and says so", async () => {
    const root = fresh('data')
    const dataDir = join(root, 'data')
    mkdirSync(join(dataDir, 'emulator'), {recursive: true})
    plant(join(dataDir, 'emulator', 'credentials.json'), kind)
    const configDir = join(root, 'config')
    mkdirSync(configDir, {recursive: true, mode: 0o700})
    const config = {active: 'local', profiles: {local: {environment: 'local', base_url: shared.emulator.production.url}}}
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), {mode: 0o600})
    const r = await runCli(['products', 'list', '--limit', '1'], {
      env: shared.box.env({TILL_CONFIG_DIR: configDir, TILL_DATA_DIR: dataDir}),
      timeoutMs: DEADLINE(),
    })
    finished(r)
    expect(r.code, r.stderr).toBe(4)
    expect(r.stderr).toContain('has no token in the default data folder')
  })
})
