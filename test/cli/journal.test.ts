// The journal of a bulk job (src/cli/journal.ts, src/cli/bulk-run.ts), as a user meets it: a writing
// command fed ids on stdin is killed with SIGKILL at a random point, and the same command with --resume
// acts only on what the stopped run did not finish; run again without --resume and without a terminal it
// fails at once saying how (exit 13), on a terminal it offers to resume. Whatever the kill hit, no order
// gets its invoice twice (the emulator's request log: at most one 202 per order) and no subscription is
// revoked twice, every input ends ok or already done, exit 0, and the finished job's journal is gone.
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, sleep, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {envVars, linesOf, logFrom, runAnswering, runCli, sandbox, settledLogFrom, sh, spawnCli, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

interface Result {
  id: string
  ok: boolean
  status: string
  reason?: string
  error?: {message: string; exit_code: number}
}

const results = (stdout: string) => linesOf(stdout).map((l) => JSON.parse(l) as Result)

/** The journal files of a sandbox (`<data>/journals/*.jsonl`). */
function journals(box: Sandbox): string[] {
  const dir = join(box.dataDir, 'journals')
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : []
}

/** Starts `till <args>` with `input`, and kills it with SIGKILL once `after` results are on its stdout. */
async function killedAfter(args: string[], env: NodeJS.ProcessEnv, input: string, after: number): Promise<CliResult> {
  const run = spawnCli(args, {env, input, timeoutMs: scaled(120_000)})
  const deadline = Date.now() + scaled(90_000)
  while (linesOf(run.stdout()).length < after && run.child.exitCode === null && Date.now() < deadline) await sleep(5)
  run.child.kill('SIGKILL')
  return run.done
}

/** A random whole number in [min, max]. */
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1))

describe('a bulk job killed with SIGKILL is resumed with --resume', () => {
  let dataDir: string
  let emulator: Emulator | undefined
  let box: Sandbox
  let ids: string[]

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'till-cli-journal-'))
    box = sandbox()
    // 200 paid orders an invoice can be made for (billing name and address, none yet), read without faults
    const healthy = await startEmulator({dataDir, orders: 1200})
    const orders = await listAll(healthy.production, '/orders/', 'status=paid')
    await healthy.stop()
    ids = orders
      .filter((o: Json) => o.billing_name && o.billing_address && !o.is_invoice_generated)
      .slice(0, 200)
      .map((o: Json) => o.id as string)
    expect(ids).toHaveLength(200)
    emulator = await startEmulator({dataDir, failRate: 0.05, resetRate: 0.02, invoiceDelay: '0s', quiet: false})
  }, scaled(120_000))
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    rmSync(dataDir, {recursive: true, force: true})
  })

  it(
    '200 orders into `orders invoice generate -` under 5% errors and 2% resets: killed, refused without --resume, resumed: each invoice once, exit 0',
    async () => {
      const env = box.env(envVars(emulator!.production))
      const input = `${ids.join('\n')}\n`
      const args = ['orders', 'invoice', 'generate', '-', '--envelope', '-o', 'jsonl']
      const log = await logFrom(emulator!)

      const killed = await killedAfter(args, env, input, between(10, 160))
      expect(killed.signal, killed.stderr).toBe('SIGKILL')
      const before = results(killed.stdout)
      expect(before.length).toBeGreaterThanOrEqual(10)
      expect(before.length).toBeLessThan(200)
      expect(journals(box)).toHaveLength(1)

      // the same command again, without --resume and without a terminal: it says how, and sends nothing
      const later = await logFrom(emulator!) // once the killed run's last requests are logged
      const refused = await runCli(args, {env, input})
      expect(refused.code, refused.stderr).toBe(13)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toMatch(/^Error: an earlier run of till orders invoice generate with this input was stopped \(\d+ of 200 ids done/)
      expect(refused.stderr).toContain('Hint: run it again with --resume to act only on the ids it did not finish, or with --restart to start over\n')
      expect(refused.stderr).not.toContain('at ') // no stack trace
      await sleep(300)
      expect(later()).toEqual([])

      const resumed = await runCli([...args, '--resume'], {env, input, timeoutMs: scaled(180_000)})
      expect(resumed.code, resumed.stderr).toBe(0)
      const after = results(resumed.stdout)
      expect(after.map((r) => r.id)).toEqual(ids)
      for (const r of after) expect(['ok', 'already done'], `${r.id}: ${JSON.stringify(r)}`).toContain(r.status)
      // what the stopped run printed was done: skipped now
      for (const r of before.filter((x) => x.ok)) expect(after.find((x) => x.id === r.id)?.status).toBe('already done')
      const done = after.filter((r) => r.status === 'already done').length
      expect(resumed.stderr).toMatch(/^Resuming: \d+ of 200 ids were done by an earlier run of this job; they are skipped\.$/m)
      expect(resumed.stderr).toContain(`200 ids: ${200 - done} ok, ${done} already done, 0 failed.\n`)
      expect(journals(box)).toEqual([])
      expect(readdirSync(join(box.dataDir, 'journals'))).toEqual([]) // nor its lock

      // the request log: every order's invoice asked for, none made twice (at most one 202 per order),
      // and the faults did happen
      await sleep(300)
      const posts = log().filter((q) => q.method === 'POST' && /^\/v1\/orders\/[^/]+\/invoice$/.test(q.path))
      const byOrder = new Map<string, number[]>()
      for (const q of posts) byOrder.set(q.path.split('/')[3]!, [...(byOrder.get(q.path.split('/')[3]!) ?? []), q.status])
      expect([...byOrder.keys()].sort()).toEqual([...ids].sort())
      for (const [id, statuses] of byOrder) expect(statuses.filter((s) => s === 202).length, `order ${id}: ${statuses.join(', ')}`).toBeLessThanOrEqual(1)
      expect(posts.some((q) => q.status === 0 || q.status >= 500)).toBe(true)

      // counted without faults: every order has its invoice
      await emulator!.stop()
      emulator = undefined
      const healthy = await startEmulator({dataDir})
      try {
        for (const id of ids) expect((await api(healthy.production, 'GET', `/orders/${id}`)).body.is_invoice_generated, id).toBe(true)
      } finally {
        await healthy.stop()
      }
    },
    scaled(400_000),
  )
})

describe('smaller jobs: a terminal offers to resume; failures keep the journal', () => {
  let emulator: Emulator
  let box: Sandbox
  let production: EnvHandle

  beforeAll(async () => {
    // each answer 150 ms late, so that a job of a dozen ids is still running when it is killed
    emulator = await startEmulator({latency: '150ms', quiet: false})
    production = emulator.production
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    '`subscriptions revoke - --yes` killed, then resumed by answering the question on a terminal: each revoked once, exit 0',
    async () => {
      const env = box.env(envVars(production))
      const active = (await listAll(production, '/subscriptions/', 'active=true')).filter((s: Json) => s.status === 'active').slice(0, 12)
      expect(active).toHaveLength(12)
      const subscriptionIds = active.map((s: Json) => s.id as string)
      const input = `${subscriptionIds.join('\n')}\n`
      const args = ['subscriptions', 'revoke', '-', '--yes', '--envelope', '-o', 'jsonl']
      const log = await logFrom(emulator)

      const killed = await killedAfter(args, env, input, between(1, 8))
      expect(killed.signal, killed.stderr).toBe('SIGKILL')
      expect(journals(box)).toHaveLength(1)

      // the same pipeline on a terminal: ids still come from a pipe, the question goes to the terminal
      const idsFile = join(box.root, 'subscriptions.txt')
      await import('node:fs').then((fs) => fs.writeFileSync(idsFile, input))
      const line = `${TILL} ${args.join(' ')} < ${sh(idsFile)} > ${sh(join(box.root, 'out.jsonl'))}`
      const asked = await runAnswering(line, env, [{when: /Resume it, acting only on the ids it did not finish\?/, send: '\r'}], scaled(60_000))
      expect(asked.unanswered, asked.stdout).toBe(0)
      expect(asked.code, asked.stdout).toBe(0)
      expect(asked.stdout).toMatch(/An earlier run of this job was stopped \(\d+ of 12 ids done/)
      expect(asked.stdout).toMatch(/12 ids: \d+ ok, \d+ already done, 0 failed\./)
      const after = results(readFileSync(join(box.root, 'out.jsonl'), 'utf8'))
      expect(after.map((r) => r.id)).toEqual(subscriptionIds)
      for (const r of after) expect(['ok', 'already done'], JSON.stringify(r)).toContain(r.status)
      expect(journals(box)).toEqual([])

      // each subscription revoked once: one PATCH answered 200 each (a second one is refused as already canceled)
      await sleep(300)
      const patches = log().filter((q) => q.method === 'PATCH' && q.path.startsWith('/v1/subscriptions/'))
      for (const id of subscriptionIds)
        expect(
          patches.filter((q) => q.path === `/v1/subscriptions/${id}` && q.status === 200),
          id,
        ).toHaveLength(1)
      for (const id of subscriptionIds) expect((await api(production, 'GET', `/subscriptions/${id}`)).body.status, id).toBe('canceled')
    },
    scaled(120_000),
  )

  it(
    '`customers update -`: a failed id keeps the journal; --resume acts on it alone; --restart on every id; a finished job leaves none',
    async () => {
      const env = box.env(envVars(production))
      const customers = (await listAll(production, '/customers/')).slice(0, 5).map((c: Json) => c.id as string)
      const missing = unknownId()
      const input = `${[...customers.slice(0, 2), missing, ...customers.slice(2)].join('\n')}\n`
      const args = ['customers', 'update', '-', '--name', 'Journal Test', '--envelope', '-o', 'jsonl']

      const first = await runCli(args, {env, input})
      expect(first.code, first.stderr).toBe(1)
      expect(results(first.stdout).map((r) => r.status)).toEqual(['ok', 'ok', 'failed', 'ok', 'ok', 'ok'])
      expect(first.stderr).toContain('6 ids: 5 ok, 1 failed.\n')
      expect(first.stderr).toMatch(/Run the same command with --resume to act again only on the 1 ids not done \(journal .+\.jsonl\)\./)
      expect(journals(box)).toHaveLength(1)

      // --resume: only the failed id is sent again
      let log = await logFrom(emulator)
      const resumed = await runCli([...args, '--resume'], {env, input})
      expect(resumed.code, resumed.stderr).toBe(1)
      expect(results(resumed.stdout).map((r) => r.status)).toEqual(['already done', 'already done', 'failed', 'already done', 'already done', 'already done'])
      expect(resumed.stderr).toContain('6 ids: 0 ok, 5 already done, 1 failed.\n')
      await sleep(300)
      expect(
        log()
          .filter((q) => q.method === 'PATCH')
          .map((q) => q.path),
      ).toEqual([`/v1/customers/${missing}`])

      // other output flags make the same job; other flags (the name) make another one
      const other = await runCli(['customers', 'update', '-', '--name', 'Someone Else', '--envelope', '-o', 'jsonl'], {env, input: `${customers[0]}\n`})
      expect(other.code, other.stderr).toBe(0)
      const quiet = await runCli(['customers', 'update', '-', '--name', 'Journal Test', '-o', 'json'], {env, input})
      expect(quiet.code, quiet.stdout).toBe(13)

      // --restart: every id again; once every id is done the journal goes
      log = await logFrom(emulator)
      const restarted = await runCli([...args, '--restart'], {env, input: `${customers.join('\n')}\n`})
      expect(restarted.code, restarted.stderr).toBe(0)
      expect(journals(box)).toHaveLength(1) // the other input's job is still there
      const again = await runCli([...args, '--restart'], {env, input})
      expect(again.code, again.stderr).toBe(1)
      await sleep(300)
      expect(log().filter((q) => q.method === 'PATCH')).toHaveLength(customers.length + customers.length + 1)

      // answering no on a terminal sends nothing
      const idsFile = join(box.root, 'customers.txt')
      await import('node:fs').then((fs) => fs.writeFileSync(idsFile, input))
      log = await logFrom(emulator)
      const declined = await runAnswering(`${TILL} ${args.map(sh).join(' ')} < ${sh(idsFile)}`, env, [{when: /Resume it/, send: 'n\r'}], scaled(30_000))
      expect(declined.code, declined.stdout).toBe(1)
      // a no is not an error: said as every declined confirmation is
      expect(declined.stdout).toContain('Cancelled; nothing was sent.')
      expect(declined.stdout).not.toContain('Error:')
      expect(declined.stdout).toContain('Hint: run it again with --restart to start over, or with --resume to carry on')
      await sleep(300)
      expect(log().filter((q) => q.method === 'PATCH')).toEqual([])
    },
    scaled(120_000),
  )
})

describe('unknown outcomes are never a blind second send', () => {
  let emulator: Emulator
  let box: Sandbox

  beforeAll(async () => {
    // every request answered 5xx before any change: a redelivery (which nothing can settle) is unknown
    emulator = await startEmulator({failRate: 1, quiet: false})
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('`webhooks redeliver -`: each unknown (exit 7, the command that shows the truth), the journal kept; --resume sends nothing and says unknown again', async () => {
    const env = box.env(envVars(emulator.production))
    const events = [unknownId(), unknownId()]
    const input = `${events.join('\n')}\n`
    let log = await settledLogFrom(emulator)
    const first = await runInProcess(['webhooks', 'redeliver', '-'], {env, input})
    expect(first.code, first.stderr).toBe(7)
    expect(first.stdout).toBe('')
    for (const id of events)
      expect(first.stderr).toMatch(
        new RegExp(
          `^Outcome unknown: ${id}: the answer to POST \\S+ was lost \\(HTTP 50\\d\\): .*; see whether it was done with: till webhooks deliveries list \\(exit 7\\)$`,
          'm',
        ),
      )
    expect(first.stderr).toContain('2 ids: 0 ok, 2 unknown, 0 failed.\n')
    expect(first.stderr).toContain('Error: the outcome of 2 of 2 is unknown')
    expect((await log()).filter((q) => q.method === 'POST')).toHaveLength(2)
    expect(journals(box)).toHaveLength(1)

    log = await settledLogFrom(emulator)
    const resumed = await runInProcess(['webhooks', 'redeliver', '-', '--resume', '--envelope', '-o', 'jsonl'], {env, input})
    expect(resumed.code, resumed.stderr).toBe(7)
    expect(results(resumed.stdout).map((r) => [r.id, r.status])).toEqual(events.map((id) => [id, 'unknown']))
    expect(resumed.stdout).toContain('an earlier run of this job stopped before its answer was recorded')
    expect(await log()).toEqual([])
    expect(journals(box)).toHaveLength(1)
  })

  it('--resume and --restart with one id (not -) are refused before anything is sent', async () => {
    const env = box.env(envVars(emulator.production))
    const log = await settledLogFrom(emulator)
    for (const flag of ['--resume', '--restart']) {
      const r = await runInProcess(['webhooks', 'redeliver', unknownId(), flag], {env})
      expect(r.code).toBe(2)
      expect(r.stderr).toBe(`Error: ${flag} applies to ids read from stdin (-): one id is not a job to resume\nHint: drop it, or give - and pipe the ids in\n`)
    }
    expect(await log()).toEqual([])
  })
})
