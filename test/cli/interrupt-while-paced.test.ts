// Ctrl-C during a paced bulk job: the first one drops the requests that wait for the rate budget and
// finishes only those already sent, so the job stops at once; what it dropped is left for --resume, which
// sends each line once. On a pseudo-terminal, against one emulator, with a budget of 2 requests per 10 s.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars, runAnswering, sh, TILL} from '../helpers/cli.js'
import {listAll} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('Ctrl-C while a bulk job waits for the rate budget', {timeout: scaled(90_000)}, () => {
  const shared = emulatorAndSandbox()
  const vars = (extra: Record<string, string> = {}) => shared.box.env({...envVars(shared.emulator.production), TILL_ENV: 'local', ...extra})

  it('events ingest sends nothing after the first Ctrl-C but what was on the wire; --resume sends the rest, each line once', async () => {
    const file = join(shared.box.root, 'paced.jsonl')
    const lines = Array.from({length: 100}, (_, i) =>
      JSON.stringify({name: 'paced.call', external_customer_id: 'usr_00001', external_id: `paced-${i}`, metadata: {seq: i}}),
    )
    writeFileSync(file, `${lines.join('\n')}\n`)
    // one request at a time, two per 10 s: the third batch waits about 10 s for the budget
    const command = `${TILL} events ingest ${sh(file)} --batch-size 10 --concurrency 1`
    const r = await runAnswering(command, vars({TILL_RATE_LIMIT: '2/10s'}), [{when: /waiting \d+s for the rate budget/, send: '\x03'}], scaled(60_000), {
      cols: 120,
      rows: 40,
    })
    expect(r.unanswered, r.stdout).toBe(0)
    expect(r.code, r.stdout).toBe(130)
    // the two batches sent before the wait are all that was stored: the waiting one was dropped, not sent after the wait
    expect(r.stdout).toMatch(/^Interrupted after reading \d+ lines: 20 inserted, /m)
    const stored = async () => (await listAll(shared.emulator.production, '/events/', 'name=paced.call')).length
    expect(await stored()).toBe(20)

    const resumed = await runInProcess(['events', 'ingest', file, '--resume', '--batch-size', '100'], {env: vars()})
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toMatch(/80 inserted/)
    const events = await listAll(shared.emulator.production, '/events/', 'name=paced.call')
    expect(events).toHaveLength(100)
    expect(new Set(events.map((e) => e.metadata.seq)).size).toBe(100)
  })
})
