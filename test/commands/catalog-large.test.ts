// `till catalog plan` of a large file, at a small scale (the benchmark's case 10 has 60,000 products): every
// product is planned, and SIGTERM stops the plan while the file is being read (a large file is read an entry
// at a time, letting the signal in between, so the command acts on it at once), in a real process.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {sleep, startEmulator, type Emulator} from '../helpers/emulator.js'
import {eventually, scaled} from '../helpers/machine.js'

/** A catalog file of `count` products of one price each (about 95 bytes a product). */
function productsFile(count: number): string {
  const lines = ['version: 1', 'products:']
  for (let i = 0; i < count; i++)
    lines.push(`  bulk-${i}:`, `    name: Bulk product ${i}`, '    prices:', '      - {type: fixed, amount: "9.00", currency: usd}')
  return `${lines.join('\n')}\n`
}

/** Resolves once `check` holds (`eventually`, its time scaled to the machine). */
const until = async (check: () => boolean, ms: number, what: string): Promise<void> => {
  await eventually(what, check, ms)
}

describe('catalog plan of a large file', {timeout: scaled(600_000)}, () => {
  const COUNT = 3000
  let emulator: Emulator
  let box: Sandbox
  let file: string

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
    file = join(box.root, 'large.yaml')
    writeFileSync(file, productsFile(COUNT))
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('plans every product, and ends soon after SIGTERM while it reads the file, well before the reading would have', async () => {
    const env = box.env(envVars(emulator.production))
    // a whole run, with the times at which reading the file started and ended (the first request follows it)
    const marks: Record<string, number> = {}
    const whole = spawnCli(['catalog', 'plan', file, '--debug'], {env, timeoutMs: scaled(500_000)})
    whole.child.stderr?.on('data', () => {
      const text = whole.stderr()
      if (marks.read === undefined && text.includes('an entry at a time, in turns')) marks.read = Date.now()
      if (marks.read !== undefined && marks.requested === undefined && /\[debug\] → GET/.test(text)) marks.requested = Date.now()
    })
    const done = await whole.done
    expect(done.code, done.stderr.slice(-2000)).toBe(10)
    expect(done.stdout).toContain(`${COUNT} to create`)
    expect(done.stdout).toContain(`\n+ product bulk-${COUNT - 1}\n`)
    expect(done.stderr).toContain('[debug] reading the catalog file (')
    const reading = marks.requested! - marks.read!

    const stopped = spawnCli(['catalog', 'plan', file, '--debug'], {env, timeoutMs: scaled(500_000)})
    await until(() => stopped.stderr().includes('an entry at a time, in turns'), 120_000, 'the reading to start')
    const signalled = Date.now()
    stopped.child.kill('SIGTERM')
    const r = await stopped.done
    const after = Date.now() - signalled
    expect(r.code, r.stderr.slice(-2000)).toBe(130)
    expect(r.stderr).toContain('\nInterrupted.\n')
    expect(r.stderr).not.toMatch(/\[debug\] → GET/)
    // a reading on the command's thread would hold the signal until the whole file is read
    expect(after, `ended ${after} ms after the signal; reading the file takes ${reading} ms`).toBeLessThan(reading / 2)
  })

  it('a reader that lags behind still gets the whole plan: the exit (10, pending) waits until stdout is written', async () => {
    // The plan is about 280 KB, more than a pipe holds: while the reader holds back, the rest waits in the
    // command's stream, which process.exit would drop (as it did: the last product was missing under load).
    const running = spawnCli(['catalog', 'plan', file], {env: box.env(envVars(emulator.production)), timeoutMs: scaled(500_000)})
    const out = running.child.stdout!
    out.pause()
    await until(() => out.readableLength > 0, 300_000, 'the plan to be written')
    // hold back until the command has ended, or has plainly been waiting on its reader
    const deadline = Date.now() + scaled(3000)
    while (running.child.exitCode === null && Date.now() < deadline) await sleep(50)
    out.resume()
    const r = await running.done
    expect(r.code, r.stderr.slice(-2000)).toBe(10)
    expect(r.stdout.split('\n').filter((l) => l.startsWith('+ product bulk-'))).toHaveLength(COUNT)
    expect(r.stdout).toContain(`\n+ product bulk-${COUNT - 1}\n`)
  })
})
