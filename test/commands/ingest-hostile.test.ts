// `till events ingest` given careless or hostile input: a bad record in a large CSV or JSON lines file
// costs that record only (named, and a documented exit code), input piped without `-` is read as events
// (never taken as the file name), two runs cannot share one checkpoint, a failed run names the lines
// already stored, and a file name that is not UTF-8 is named as such.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {envVars, linesOf, runCli, runShell, sandbox, sh, spawnCli, TILL, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const BASE = Date.UTC(2026, 1, 2)

/** `n` JSON lines of events named `name`, each with an external id. */
function jsonLines(name: string, n: number): string[] {
  return Array.from({length: n}, (_, i) =>
    JSON.stringify({name, external_customer_id: `cust_${i % 5}`, timestamp: new Date(BASE + i * 1000).toISOString(), external_id: `${name}-${i}`}),
  )
}

/** `n` CSV rows of events named `name` (header first). */
function csvLines(name: string, n: number): string[] {
  return ['name,external_customer_id,external_id,metadata.tokens', ...Array.from({length: n}, (_, i) => `${name},cust_${i % 5},${name}-${i},${i}`)]
}

const summaryOf = (stdout: string) => JSON.parse(linesOf(stdout).at(-1)!) as {read: number; inserted: number; rejected: number}

describe('till events ingest with careless input', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let dir: string
  let vars: NodeJS.ProcessEnv

  const stored = async (name: string) => (await api(env, 'GET', `/events/?name=${encodeURIComponent(name)}&limit=1`)).body.pagination.total_count as number

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    dir = mkdtempSync(join(tmpdir(), 'till-ingest-hostile-'))
    vars = box.env(envVars(env, {TILL_RATE_LIMIT: '100000/min'}))
  })

  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    if (dir) rmSync(dir, {recursive: true, force: true})
  })

  it('a short CSV row among 3,000 is rejected by its line number; the 2,999 others are stored (exit 11)', async () => {
    const lines = csvLines('short.row', 3000)
    lines[1500] = 'short.row,cust_1' // line 1501: two cells of four
    const file = join(dir, 'short.csv')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const res = await runInProcess(['events', 'ingest', file, '--skip-invalid', '--json'], {env: vars})
    expect(res.stderr).toContain('Skipped line 1501: 2 cells where the header has 4\n')
    expect(res.stderr).toMatch(/^Error: 1 line was rejected \(line 1501\); everything else was sent$/m)
    expect(res.code).toBe(11)
    expect(summaryOf(res.stdout)).toMatchObject({read: 3000, inserted: 2999, rejected: 1})
    expect(await stored('short.row')).toBe(2999)
  })

  it('a quote never closed costs its own line only: the lines after it are read as records again', async () => {
    const lines = csvLines('open.quote', 3000)
    lines[700] = 'open.quote,cust_1,"open.quote-699,5' // line 701: the quote opens a cell that never ends
    const file = join(dir, 'quote.csv')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const res = await runInProcess(['events', 'ingest', file, '--skip-invalid', '--json'], {env: vars})
    expect(res.stderr).toContain('Skipped line 701: a quoted cell is never closed')
    expect(res.code).toBe(11)
    expect(summaryOf(res.stdout)).toMatchObject({read: 3000, inserted: 2999, rejected: 1})
    expect(await stored('open.quote')).toBe(2999)
    // a cell in quotes may still hold commas, doubled quotes and line breaks
    const quoted = join(dir, 'quoted.csv')
    writeFileSync(quoted, 'name,external_customer_id,metadata.note\nquoted.cell,c1,"a, ""b""\nc"\nquoted.cell,c2,plain\n')
    const ok = await runInProcess(['events', 'ingest', quoted, '--json'], {env: vars})
    expect(ok.code, ok.stderr).toBe(0)
    const notes = (await api(env, 'GET', '/events/?name=quoted.cell&sorting=timestamp')).body.items.map((e: {metadata: {note: string}}) => e.metadata.note)
    expect(notes.sort()).toEqual(['a, "b"\nc', 'plain'])
  })

  it('a cut-off JSON line among 3,000 is rejected by its line number; the others are stored (exit 11)', async () => {
    const lines = jsonLines('cut.line', 3000)
    lines[1999] = lines[1999]!.slice(0, 30)
    const file = join(dir, 'cut.jsonl')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const res = await runInProcess(['events', 'ingest', file, '--skip-invalid', '--json'], {env: vars})
    expect(res.stderr).toMatch(/Skipped line 2000: not JSON/)
    expect(res.stderr).toMatch(/^Error: 1 line was rejected \(line 2000\); everything else was sent$/m)
    expect(res.code).toBe(11)
    expect(summaryOf(res.stdout)).toMatchObject({read: 3000, inserted: 2999, rejected: 1})
    expect(await stored('cut.line')).toBe(2999)
  })

  it('a bad CSV header stops the run even with --skip-invalid', async () => {
    const file = join(dir, 'header.csv')
    writeFileSync(file, 'name,"external_customer_id\nx,c1\n')
    const res = await runInProcess(['events', 'ingest', file, '--skip-invalid'], {env: vars})
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/^Error: line 1: bad CSV header \(a quoted cell is never closed/m)
  })

  it('a run stopped by a bad line names the lines it stored before it', async () => {
    const lines = jsonLines('stopped.run', 10)
    lines[6] = '{"name": "stopped.run"'
    const file = join(dir, 'stopped.jsonl')
    writeFileSync(file, `${lines.join('\n')}\n`)
    const res = await runInProcess(['events', 'ingest', file, '--batch-size', '2'], {env: vars})
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(
      /^Stored before the error: lines 1-6 \(recorded in .+events-ingest-[0-9a-f]+\.json: the same command with --resume sends only the rest\)\.$/m,
    )
    // from stdin nothing can be carried on without a checkpoint: the message says so
    const piped = await runInProcess(['events', 'ingest', '-', '--batch-size', '2'], {env: vars, input: `${lines.join('\n')}\n`})
    expect(piped.code).toBe(1)
    expect(piped.stderr).toMatch(/^Stored before the error: lines 1-6; a re-run of the whole input would send them again/m)
    expect(res.stderr).toMatch(/^Error: line 7: not JSON/m)
    expect(await stored('stopped.run')).toBe(6)
  })

  it('events piped in without `-` are read as events, not taken as the file name (and never echoed)', async () => {
    const file = join(dir, 'piped.jsonl')
    writeFileSync(file, `${jsonLines('piped.in', 300).join('\n')}\n`)
    const res = await runShell(`cat ${sh(file)} | ${TILL} events ingest --json`, {env: vars})
    expect(res.stderr).not.toContain('piped.in-1')
    expect(res.code, res.stderr).toBe(0)
    expect(summaryOf(res.stdout)).toMatchObject({read: 300, inserted: 300})
    expect(await stored('piped.in')).toBe(300)
  })

  it('an argument is never read from piped stdin: `printf order.paid | till trigger` triggers nothing', async () => {
    const res = await runCli(['trigger'], {env: vars, input: 'order.paid\n'})
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/^Error: name the event to trigger/m)
    expect(res.stdout).toBe('')
  })

  it(
    'a second run with a checkpoint in use is refused (exit 12, naming the file and the pid); the first stores each line once',
    async () => {
      const file = join(dir, 'cron.jsonl')
      const checkpoint = join(dir, 'cc.state')
      const n = 20_000
      writeFileSync(file, `${jsonLines('cron.run', n).join('\n')}\n`)
      // without external ids the service could not drop a second copy: a run that sent them twice would show
      writeFileSync(file, `${readFileSync(file, 'utf8').replaceAll(/,"external_id":"[^"]*"/g, '')}`)
      const args = ['events', 'ingest', file, '--checkpoint', checkpoint, '--batch-size', '100', '--concurrency', '1']
      const first = spawnCli(args, {env: box.env(envVars(env, {TILL_RATE_LIMIT: '600/min'})), timeoutMs: scaled(120_000)})
      // once the first run has taken the checkpoint (and sent something)
      for (let i = 0; i < 500 && !first.stderr().includes('Read') && first.child.exitCode === null; i++) {
        if ((await stored('cron.run')) > 0) break
        await new Promise((r) => setTimeout(r, 20))
      }
      const second = await runCli(args, {env: vars})
      expect(second.stderr).toBe(
        `Error: --checkpoint ${checkpoint} is in use by another till events ingest (pid ${first.child.pid})\nHint: wait for that run to end (two runs with one checkpoint would send the same lines twice); if none is running, delete ${checkpoint}.lock\n`,
      )
      expect(second.code).toBe(12)
      first.child.kill('SIGINT')
      expect((await first.done).code).toBe(130)
      // the lock went with the first run: the same command carries on from the checkpoint
      const rest = await runInProcess(args.slice(0, -4), {env: vars, timeoutMs: scaled(60_000)})
      expect(rest.code, rest.stderr).toBe(0)
      expect(await stored('cron.run')).toBe(n)
    },
    scaled(120_000),
  )

  it('a file name that is not UTF-8 is named as such, not as a missing file', async () => {
    const name = Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from('.jsonl')])
    writeFileSync(name, `${jsonLines('latin1.name', 1)[0]}\n`)
    const res = await runShell(`${TILL} events ingest "$(printf '%s/caf\\351.jsonl' ${sh(dir)})"`, {env: vars})
    expect(res.code).toBe(2)
    expect(res.stderr).toMatch(/^Error: cannot read .*caf\ufffd\.jsonl: the name has bytes that are not UTF-8/m)
    expect(res.stderr).toMatch(/^Hint: rename the file to a UTF-8 name first/m)
  })

  it('a pasted blob where a file name belongs is not echoed whole', async () => {
    const blob = jsonLines('pasted', 50).join('\n')
    const res = await runInProcess(['events', 'ingest', blob], {env: vars})
    expect(res.code).toBe(2)
    expect(res.stderr.length).toBeLessThan(400)
    expect(res.stderr).toMatch(/^Error: cannot read \{"name":"pasted",.*… \(a name of \d+ characters\): the name is too long$/m)
  })
})
