// `till events ingest FILE` keeps a journal of the settled lines in till's data folder, as every bulk write
// does: a run killed half-way is carried on with --resume (asked on a terminal, exit 13 without
// one), --restart starts over, and a finished run leaves no journal behind.
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {envVars, linesOf, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const BASE = Date.UTC(2026, 2, 2)

/** `n` JSON lines of events named `name`; with external ids unless told otherwise. */
const jsonLines = (name: string, n: number, externalIds = true) =>
  `${Array.from({length: n}, (_, i) =>
    JSON.stringify({
      name,
      external_customer_id: `cust_${i % 5}`,
      timestamp: new Date(BASE + i * 1000).toISOString(),
      ...(externalIds ? {external_id: `${name}-${i}`} : {}),
    }),
  ).join('\n')}\n`

const summaryOf = (stdout: string) => JSON.parse(linesOf(stdout).at(-1)!) as {read: number; inserted: number; duplicates: number}

describe('till events ingest FILE: the journal of a stopped run', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let dir: string
  let vars: NodeJS.ProcessEnv
  let journals: string

  const stored = async (name: string) => (await api(env, 'GET', `/events/?name=${encodeURIComponent(name)}&limit=1`)).body.pagination.total_count as number
  const journalFiles = () => (existsSync(journals) ? readdirSync(journals).filter((f) => f.startsWith('events-ingest-') && f.endsWith('.json')) : [])

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    dir = mkdtempSync(join(tmpdir(), 'till-ingest-journal-'))
    vars = box.env(envVars(env, {TILL_RATE_LIMIT: '100000/min'}))
    journals = join(vars.TILL_DATA_DIR!, 'journals')
  })

  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    rmSync(dir, {recursive: true, force: true})
  })

  it(
    'killed with -9: the same command refuses without a terminal (exit 13), --resume sends only the rest, each event once',
    async () => {
      const file = join(dir, 'killed.jsonl')
      // no external ids: a line sent twice would be stored twice
      writeFileSync(file, jsonLines('journal.kill', 10_000, false))
      const running = spawnCli(['events', 'ingest', file, '--batch-size', '100', '--concurrency', '1'], {env: vars, timeoutMs: scaled(60_000)})
      for (;;) {
        const [journal] = journalFiles()
        if (journal && (JSON.parse(readFileSync(join(journals, journal), 'utf8')) as {through: number}).through >= 2000) break
        if (running.child.exitCode !== null) break
        await new Promise((r) => setTimeout(r, 10))
      }
      running.child.kill('SIGKILL')
      await running.done
      const partial = await stored('journal.kill')
      expect(partial).toBeGreaterThanOrEqual(2000)
      expect(partial).toBeLessThan(10_000)
      expect(journalFiles()).toHaveLength(1)

      const asked = await runInProcess(['events', 'ingest', file], {env: vars})
      expect(asked.code).toBe(13)
      expect(asked.stderr).toMatch(
        /^Error: an earlier run of till events ingest with this file was stopped \(lines 1-\d+ settled; journal .+events-ingest-[0-9a-f]+\.json\)$/m,
      )
      expect(asked.stderr).toContain('Hint: run it again with --resume to send only the lines it did not settle, or with --restart to start over')
      expect(await stored('journal.kill')).toBe(partial)

      // the batch in flight at the kill is unknown (it has no external ids): the user decides, as with a
      // checkpoint. (Killed between two batches, there is none, and nothing is in doubt.)
      const journal = JSON.parse(readFileSync(join(journals, journalFiles()[0]!), 'utf8')) as {through: number; sending: Array<[number, number]>}
      const [inFlight] = journal.sending
      let decision: string[] = []
      if (inFlight === undefined) {
        expect(partial).toBe(journal.through)
      } else {
        const undecided = await runInProcess(['events', 'ingest', file, '--resume'], {env: vars})
        expect(undecided.code).toBe(2)
        expect(undecided.stderr).toContain(`lines ${inFlight[0]}-${inFlight[1]} of this input may already be stored`)
        // what the service holds tells: the lines before the batch, or those and the batch
        const landed = partial > journal.through
        expect(partial).toBe(landed ? inFlight[1] : journal.through)
        decision = [landed ? '--skip-unknown' : '--resend-unknown']
      }
      const resumed = await runInProcess(['events', 'ingest', file, '--resume', ...decision, '--json'], {
        env: vars,
        timeoutMs: scaled(60_000),
      })
      expect(resumed.code, resumed.stderr).toBe(0)
      expect(resumed.stderr).toMatch(/^Resuming: lines 1-\d+ settled by an earlier run; they are skipped\.$/m)
      expect(summaryOf(resumed.stdout).inserted + partial).toBe(10_000)
      expect(await stored('journal.kill')).toBe(10_000)
      // finished: no journal is left, and the same command now starts afresh
      expect(journalFiles()).toEqual([])
    },
    scaled(90_000),
  )

  it('stopped at a bad line: fixed, --resume sends that line alone; --restart sends everything again; a finished run leaves no journal', async () => {
    const file = join(dir, 'fixed.jsonl')
    writeFileSync(file, `${jsonLines('journal.fixed', 300)}{not json\n`)
    const stopped = await runInProcess(['events', 'ingest', file, '--batch-size', '100'], {env: vars})
    expect(stopped.code).toBe(1)
    expect(stopped.stderr).toContain('Stored before the error: lines 1-300 (recorded in ')
    expect(stopped.stderr).toContain('the same command with --resume sends only the rest')
    expect(journalFiles()).toHaveLength(1)
    // the line fixed: the same file, the same journal
    writeFileSync(
      file,
      `${jsonLines('journal.fixed', 300)}${JSON.stringify({name: 'journal.fixed', external_customer_id: 'cust_9', external_id: 'fixed-301'})}\n`,
    )
    const resumed = await runInProcess(['events', 'ingest', file, '--resume', '--json'], {env: vars})
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(summaryOf(resumed.stdout)).toMatchObject({read: 1, inserted: 1})
    expect(await stored('journal.fixed')).toBe(301)
    expect(journalFiles()).toEqual([])

    const other = join(dir, 'restart.jsonl')
    writeFileSync(other, `${jsonLines('journal.restart', 200)}{not json\n`)
    expect((await runInProcess(['events', 'ingest', other, '--batch-size', '100'], {env: vars})).code).toBe(1)
    writeFileSync(other, jsonLines('journal.restart', 200))
    const restarted = await runInProcess(['events', 'ingest', other, '--restart', '--json'], {env: vars})
    expect(restarted.code, restarted.stderr).toBe(0)
    // every line sent again: the service skips the external ids it has seen
    expect(summaryOf(restarted.stdout)).toMatchObject({read: 200, inserted: 0, duplicates: 200})
    expect(await stored('journal.restart')).toBe(200)
    expect(journalFiles()).toEqual([])
  })

  it('--resume with nothing to resume says so and runs; stdin cannot be resumed', async () => {
    const file = join(dir, 'fresh.jsonl')
    writeFileSync(file, jsonLines('journal.fresh', 50))
    const r = await runInProcess(['events', 'ingest', file, '--resume', '--json'], {env: vars})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('No stopped run of this ingest to resume; starting it.')
    expect(summaryOf(r.stdout).inserted).toBe(50)
    const piped = await runInProcess(['events', 'ingest', '-', '--resume'], {env: vars, input: jsonLines('journal.fresh', 1)})
    expect(piped.code).toBe(2)
    expect(piped.stderr).toMatch(/^Error: --resume needs the events in a file: stdin cannot be read again$/m)
  })
})
