// A fresh config folder and no server: the default `local` profile runs the emulator inside the command,
// on $TILL_DATA_DIR/emulator. Meaningless (and skipped) when something already answers on 127.0.0.1:4010,
// such as a developer's `till emulator start`.
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {expectNoToken, linesOf, portAnswers, runCli, runTty, sandbox, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {startEmulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const busy = await portAnswers(4010)
if (busy) console.warn('test/cli/embedded.test.ts: skipped, something answers on 127.0.0.1:4010 (stop your emulator to run it)')

describe.skipIf(busy)('the local profile with nothing on 127.0.0.1:4010 (embedded emulator)', {timeout: scaled(90_000)}, () => {
  let box: Sandbox
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('`till products list` on a fresh config works: exit 0, 10 rows, one line on stderr saying the emulator runs in-process', async () => {
    const r = await runCli(['products', 'list'], {env: box.env()})
    expect(r.code, r.stderr).toBe(0)
    expect(linesOf(r.stderr)).toEqual([expect.stringMatching(/^Nothing answers at http:\/\/127\.0\.0\.1:4010\/v1; using an emulator run inside this command/)])
    const rows = linesOf(r.stdout).map((l) => l.split('\t'))
    expect(rows).toHaveLength(10)
    for (const cells of rows) expect(cells[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(rows.map((c) => c[0])).size).toBe(10)
    // Its data went to $TILL_DATA_DIR/emulator, and no config file was needed or written.
    const emulatorDir = join(box.dataDir, 'emulator')
    expect(existsSync(join(emulatorDir, 'credentials.json'))).toBe(true)
    expect(existsSync(join(box.configDir, 'config.json'))).toBe(false)
  })

  it('serves production alone, and keeps the sandbox credentials that `till emulator start` wrote on the same folder', async () => {
    const emulatorDir = join(box.dataDir, 'emulator')
    const credentials = () => JSON.parse(readFileSync(join(emulatorDir, 'credentials.json'), 'utf8')) as Record<string, {token: string}>
    const first = await runInProcess(['products', 'list', '--limit', '1', '--debug'], {env: box.env()})
    expect(first.code, first.stderr).toBe(0)
    expect(Object.keys(credentials())).toEqual(['production'])
    expect(existsSync(join(emulatorDir, 'sandbox.json'))).toBe(false)
    // a whole emulator on the folder writes both; a command's own keeps the sandbox's as it was
    const whole = await startEmulator({dataDir: emulatorDir})
    const both = credentials()
    await whole.stop()
    expect(Object.keys(both).sort()).toEqual(['production', 'sandbox'])
    const again = await runInProcess(['products', 'list', '--limit', '1'], {env: box.env()})
    expect(again.code, again.stderr).toBe(0)
    expect(credentials()).toEqual(both)
  })

  it('keeps the seeded state it generated beside the store, for the next start, and makes it again when it is not its own', async () => {
    const seedFile = join(box.dataDir, 'emulator', 'production.json.seed')
    const first = await runCli(['products', 'list', '-o', 'json'], {env: box.env()})
    expect(first.code, first.stderr).toBe(0)
    // the store holds the manifest only (nothing written yet); the state it seeds is beside it, private
    expect(JSON.parse(readFileSync(join(box.dataDir, 'emulator', 'production.json'), 'utf8'))).toMatchObject({kind: 'seed'})
    expect(statSync(seedFile).mode & 0o777).toBe(0o600)
    const [key, state] = readFileSync(seedFile, 'utf8').split('\n')
    expect(JSON.parse(key!)).toMatchObject({build: expect.stringContaining('emulator.cjs'), manifest: {kind: 'seed', environment: 'production'}})
    expect(JSON.parse(state!)).toMatchObject({environment: 'production', organization: {name: 'Acme Software'}})
    const {mtimeMs} = statSync(seedFile)
    // read back: the same answers, and the file is not written again
    const second = await runCli(['products', 'list', '-o', 'json'], {env: box.env()})
    expect(second.stdout).toBe(first.stdout)
    expect(statSync(seedFile).mtimeMs).toBe(mtimeMs)
    // one made for another manifest (or another build), or a damaged one, is made again
    for (const stale of [`${key!.replace('"production"', '"elsewhere"')}\n${state}`, 'not a seed']) {
      writeFileSync(seedFile, stale)
      const again = await runCli(['products', 'list', '-o', 'json'], {env: box.env()})
      expect(again.stdout).toBe(first.stdout)
      expect(readFileSync(seedFile, 'utf8')).toBe(`${key}\n${state}`)
    }
  })

  it('keeps its data between commands: a product created with `till api` is listed next time', async () => {
    const name = `Embedded ${Date.now()}`
    const created = await runCli(['api', 'POST', '/products/', '-f', `name=${name}`, '-F', 'prices=[{"amount_type":"fixed","price_amount":500}]'], {
      env: box.env(),
    })
    expect(created.code, created.stderr).toBe(0)
    const id = JSON.parse(created.stdout).id as string
    const listed = await runCli(['products', 'list', '--limit', '1', '-o', 'jsonl', '--debug'], {env: box.env()})
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stderr).toMatch(/^\[debug\] embedded emulator at http:\/\/127\.0\.0\.1:\d+\/v1$/m)
    expect(JSON.parse(listed.stdout)).toMatchObject({id, name})
    const token = JSON.parse(readFileSync(join(box.dataDir, 'emulator', 'credentials.json'), 'utf8')).production.token as string
    expectNoToken(created.stdout + created.stderr + listed.stdout + listed.stderr, token)
  })

  it('on a terminal it says so on stderr, then prints the table', async () => {
    const r = await runTty(`${TILL} products list --limit 3`, {env: box.env()})
    expect(r.code, r.stdout).toBe(0)
    const lines = linesOf(stripAnsi(r.stdout))
    expect(lines[0]).toBe(
      `Nothing answers at http://127.0.0.1:4010/v1; using an emulator run inside this command (data: ${join(box.dataDir, 'emulator')}). Start one with: till emulator start`,
    )
    expect(lines[1]!.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'TYPE', 'PRICE', 'ARCHIVED', 'CREATED'])
    expect(lines).toHaveLength(6)
    expect(lines[5]).toMatch(/^Showing 3 of \d+ products; /)
  })

  it('says it runs an emulator inside the command once a minute per data folder, remembered in the cache folder', async () => {
    const cacheDir = join(box.root, 'cache')
    const env = box.env({TILL_CACHE_DIR: cacheDir})
    const said = (r: {stderr: string}) => r.stderr.includes('using an emulator run inside this command')
    const first = await runInProcess(['products', 'list', '--limit', '1'], {env})
    expect(first.code, first.stderr).toBe(0)
    expect(said(first)).toBe(true)
    const file = join(cacheDir, 'embedded-emulator-note.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = await runInProcess(['products', 'list', '--limit', '1'], {env})
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toBe('')
    // a minute later it is said again
    const folder = join(box.dataDir, 'emulator')
    writeFileSync(file, JSON.stringify({[folder]: Date.now() - 61_000}))
    expect(said(await runInProcess(['products', 'list', '--limit', '1'], {env}))).toBe(true)
    // another data folder is told of its own
    const other = await runInProcess(['products', 'list', '--limit', '1'], {env: box.env({TILL_CACHE_DIR: cacheDir, TILL_DATA_DIR: join(box.root, 'd2')})})
    expect(said(other)).toBe(true)
    // a FIFO where the file is: never opened, the note said, the FIFO replaced by the file
    rmSync(file)
    execFileSync('mkfifo', [file])
    const fifo = await runCli(['products', 'list', '--limit', '1'], {env, timeoutMs: 20_000})
    expect(fifo.signal).toBeNull()
    expect(said(fifo)).toBe(true)
    expect(statSync(file).isFile()).toBe(true)
  })

  it('a URL printed on the emulator run inside the command is said to stop answering with it, with the way to keep it', async () => {
    const orders = await runInProcess(['orders', 'list', '--limit', '1', '-o', 'jsonl'], {env: box.env()})
    expect(orders.code, orders.stderr).toBe(0)
    expect(orders.stderr).not.toContain('stop answering')
    const receipt = await runInProcess(['orders', 'receipt', JSON.parse(orders.stdout).id], {env: box.env()})
    expect(receipt.code, receipt.stderr).toBe(0)
    const origin = /^(http:\/\/127\.0\.0\.1:\d+)\/files\/receipts\//.exec(receipt.stdout)?.[1]
    expect(origin, receipt.stdout).toBeDefined()
    expect(receipt.stderr).toContain(`Note: the URLs printed above are on ${origin}, the emulator run inside this command, and stop answering as it ends.`)
    expect(receipt.stderr).toContain('start one in another terminal (till emulator start) and run the command again')
    // piped as JSON too
    const products = await runInProcess(['products', 'list', '-o', 'jsonl'], {env: box.env()})
    const product = linesOf(products.stdout)
      .map((l) => JSON.parse(l))
      .find((p) => !p.is_archived)
    const checkout = await runInProcess(['checkouts', 'create', '--product', product.id, '--json'], {env: box.env()})
    expect(checkout.code, checkout.stderr).toBe(0)
    expect(JSON.parse(checkout.stdout).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//)
    expect(checkout.stderr).toContain('stop answering as it ends')
  })

  it('listen and trigger refuse to run an emulator of their own (its events would reach no one), naming the command that starts one', async () => {
    for (const argv of [['trigger', 'customer.created'], ['trigger', 'customer.created', '--through-api'], ['listen']]) {
      const r = await runInProcess(argv, {env: box.env()})
      expect(r.code, r.stderr).toBe(6)
      expect(r.stderr).toContain(
        `Error: nothing answers at http://127.0.0.1:4010/v1: till ${argv.filter((a) => a !== 'customer.created').join(' ')} needs a running emulator`,
      )
      expect(r.stderr).toContain('till emulator start')
      expect(r.stderr).not.toContain('emits')
      expect(r.stderr).not.toContain('using an emulator run inside this command')
      expect(r.stdout).toBe('')
    }
    // The stream's secret does not depend on a running emulator.
    const secret = await runInProcess(['listen', '--print-secret'], {env: box.env()})
    expect(secret.code, secret.stderr).toBe(0)
    expect(secret.stdout).toMatch(/^[0-9a-f]{32}\n$/)
  })
})
