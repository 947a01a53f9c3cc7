// A wait of a second or more says why on stderr (the rate budget), a long export
// to a file shows its progress on the terminal, and `events ingest` says its waits on its bar; Ctrl-C during
// an ingest at 80 columns clears the bar before saying it stops, and the last lines say it was interrupted.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, linesOf, runAnswering, runTty, sandbox, sh, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {listAll, startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {renderScreen} from '../helpers/screen.js'
import {scaled} from '../helpers/machine.js'

describe('waits and interrupts', {timeout: scaled(90_000)}, () => {
  let emulator: Emulator
  let box: Sandbox
  // a budget of 2 requests every 2 seconds: the third request of a command waits about 2 s
  const vars = (extra: Record<string, string> = {}) => box.env({...envVars(emulator.production), TILL_ENV: 'local', TILL_RATE_LIMIT: '2/2s', ...extra})

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('a wait for the rate budget says why on stderr, once per wait', async () => {
    const r = await runInProcess(['orders', 'list', '--all', '--limit', '20', '-o', 'jsonl'], {env: vars()})
    expect(r.code, r.stderr).toBe(0)
    const waits = linesOf(r.stderr).filter((l) => l.startsWith('Waiting'))
    expect(waits.length).toBeGreaterThan(0)
    for (const line of waits) expect(line).toMatch(/^Waiting \d+s to stay within the rate budget of profile local \(2 requests per 2s\)\.$/)
    expect(linesOf(r.stdout).length).toBe((await listAll(emulator.production, '/orders/')).length)
  })

  it('a long export to a file shows its progress on the terminal, and what it wrote', async () => {
    const file = join(box.root, 'orders.jsonl')
    const r = await runTty(`${TILL} orders list --all --limit 10 -o jsonl > ${sh(file)}`, {env: vars(), cols: 80})
    expect(r.code, r.stdout).toBe(0)
    const total = (await listAll(emulator.production, '/orders/')).length
    expect(linesOf(readFileSync(file, 'utf8'))).toHaveLength(total)
    // drawn in place while it runs, with the wait and its reason
    expect(stripAnsi(r.stdout)).toMatch(new RegExp(`Writing orders: \\d+ of ${total} \\(waiting \\d+s for the rate budget of profile local`))
    const screen = renderScreen(r.stdout, 80)
    expect(screen.at(-1)).toMatch(new RegExp(`^Wrote ${total} orders in \\d+\\.\\ds\\.$`))
    expect(screen.filter((l) => l.startsWith('Writing orders'))).toEqual([])
  })

  it('Ctrl-C during events ingest at 80 columns clears the bar first, and the last lines say it was interrupted (the bar says its waits)', async () => {
    const file = join(box.root, 'events.jsonl')
    const lines = Array.from({length: 200}, (_, i) =>
      JSON.stringify({name: 'newcomer.call', external_customer_id: 'usr_00001', external_id: `newcomer-${i}`, metadata: {seq: i}}),
    )
    writeFileSync(file, `${lines.join('\n')}\n`)
    const command = `${TILL} events ingest ${sh(file)} --batch-size 10 --concurrency 1`
    const r = await runAnswering(command, vars(), [{when: /waiting \d+s for the rate budget/, send: '\x03'}], 60_000, {cols: 80, rows: 24})
    expect(r.unanswered, r.stdout).toBe(0)
    expect(r.code, r.stdout).toBe(130)
    const screen = renderScreen(r.raw, 80)
    const at = screen.findIndex((l) => l.startsWith('Interrupted: '))
    expect(at, screen.join('\n')).toBeGreaterThanOrEqual(0)
    expect(screen[at]).toBe('Interrupted: sending no more; finishing what is sent (Ctrl-C again to quit)…')
    // nothing of the bar is left on the screen, above or below
    expect(
      screen.filter((l) => /% \||rejected \|/.test(l)),
      screen.join('\n'),
    ).toEqual([])
    const after = screen.slice(at + 1).join('\n')
    expect(after).toMatch(/^Interrupted after reading \d+ lines: \d+ inserted, /m)
    expect(after).not.toMatch(/^Read \d+ lines/m)
    expect(after).toMatch(/^Error: interrupted after line \d+$/m)
  })
})
