// Usage-based billing as processes against the emulator: `till events ingest` (exact counts, duplicates on
// a second run, bad lines, injected 5xx and resets, a kill and a resumed run with --checkpoint, CSV),
// `events list|get|names`, `meters create|quantities` checked against values computed here from the same
// events for every aggregation, and customer meters (organization and portal).
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {envVars, expectNoToken, linesOf, runTty, sandbox, spawnCli, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const DAY = 86_400_000
const BASE = Date.UTC(2026, 0, 5) // a Monday

interface Ev {
  name: string
  external_customer_id: string
  timestamp: string
  external_id?: string
  metadata: Record<string, string | number>
}

/** `n` events named `name`, one a minute from BASE, with a sequence number and a few properties. */
function events(name: string, n: number, opts: {externalIds?: boolean; prefix?: string} = {}): Ev[] {
  const out: Ev[] = []
  for (let i = 0; i < n; i++) {
    out.push({
      name,
      external_customer_id: `cust_${i % 7}`,
      timestamp: new Date(BASE + i * 60_000).toISOString(),
      ...(opts.externalIds === false ? {} : {external_id: `${opts.prefix ?? name}-${i}`}),
      metadata: {seq: i, tokens: (i * 37) % 101, model: `m${i % 5}`},
    })
  }
  return out
}

const jsonl = (evs: object[]) => `${evs.map((e) => JSON.stringify(e)).join('\n')}\n`

/** A GET that tries again on the faults the second emulator injects (reads are safe to repeat). */
async function read(env: EnvHandle, path: string): Promise<Json> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await api(env, 'GET', path)
      if (res.status === 200) return res.body
      if (res.status < 500 || attempt >= 30) throw new Error(`GET ${path}: ${res.status}`)
    } catch (error) {
      if (attempt >= 30) throw error
    }
  }
}

/** How many events the service holds with this name (its list's total). */
async function stored(env: EnvHandle, name: string): Promise<number> {
  return (await read(env, `/events/?name=${encodeURIComponent(name)}&limit=1`)).pagination.total_count as number
}

/** Every stored event with this name. */
async function storedEvents(env: EnvHandle, name: string): Promise<Json[]> {
  const out: Json[] = []
  for (let page = 1; ; page++) {
    const body = await read(env, `/events/?name=${encodeURIComponent(name)}&limit=100&page=${page}&sorting=timestamp`)
    out.push(...body.items)
    if (page >= body.pagination.max_page) return out
  }
}

const summaryOf = (stdout: string) =>
  JSON.parse(linesOf(stdout).at(-1)!) as {read: number; inserted: number; duplicates: number; rejected: number; requests: number}

describe('till events and meters', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let dir: string
  let vars: NodeJS.ProcessEnv

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    dir = mkdtempSync(join(tmpdir(), 'till-usage-'))
    // a budget this file's requests never reach, so pacing does not slow the test down
    vars = box.env(envVars(env, {TILL_RATE_LIMIT: '100000/min'}))
  })

  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    if (dir) rmSync(dir, {recursive: true, force: true})
  })

  it(
    'ingests 20,000 events from a file (200,000 are in the benchmark) with exact counts, and the same file again as duplicates only',
    async () => {
      const file = join(dir, 'big.jsonl')
      writeFileSync(file, jsonl(events('big.call', 20_000)))
      const first = await runInProcess(['events', 'ingest', file, '--json'], {env: vars, timeoutMs: scaled(120_000)})
      expect(first.stderr).toMatch(/Read 20000 lines: 20000 inserted, 0 duplicates, 0 rejected; 20 requests/)
      expect(first.code).toBe(0)
      expect(summaryOf(first.stdout)).toEqual({read: 20_000, inserted: 20_000, duplicates: 0, rejected: 0, requests: 20})
      expect(await stored(env, 'big.call')).toBe(20_000)
      expectNoToken(first.stdout + first.stderr, env.token)

      const again = await runInProcess(['events', 'ingest', file, '--json', '--batch-size', '5000'], {env: vars, timeoutMs: scaled(120_000)})
      expect(again.code).toBe(0)
      expect(summaryOf(again.stdout)).toEqual({read: 20_000, inserted: 0, duplicates: 20_000, rejected: 0, requests: 4})
      expect(await stored(env, 'big.call')).toBe(20_000)
    },
    scaled(180_000),
  )

  it('stops at the first bad line (named with its number) and sends nothing after it; --skip-invalid skips bad lines', async () => {
    const good = events('mixed.call', 12)
    const lines = good.map((e) => JSON.stringify(e))
    lines.splice(4, 0, '{"name": "mixed.call", "external_customer_id": "c"') // line 5: not JSON
    lines.splice(8, 0, JSON.stringify({name: 'mixed.call', metadata: {}})) // line 9: no customer
    lines.splice(10, 0, JSON.stringify({name: 'mixed.call', external_customer_id: 'c', timestamp: 'yesterday'})) // line 11
    const file = join(dir, 'mixed.jsonl')
    writeFileSync(file, `${lines.join('\n')}\n`)

    const strict = await runInProcess(['events', 'ingest', file, '--batch-size', '2'], {env: vars})
    expect(strict.code).toBe(1)
    expect(strict.stderr).toMatch(/^Error: line 5: not JSON/m)
    expect(strict.stderr).toMatch(/--skip-invalid/)
    expect(strict.stderr).not.toMatch(/\n\s+at /)
    expect(strict.stdout).toBe('')
    // the four events before line 5 went; nothing after it did
    expect((await storedEvents(env, 'mixed.call')).map((e) => e.metadata.seq)).toEqual([0, 1, 2, 3])

    // the same file again: the stopped run's journal is carried on, from line 5
    const lenient = await runInProcess(['events', 'ingest', file, '--skip-invalid', '--resume', '--json'], {env: vars})
    expect(lenient.code).toBe(11)
    expect(lenient.stderr).toMatch(/^Error: 3 lines were rejected \(lines 5, 9, 11\); everything else was sent$/m)
    expect(lenient.stderr).toMatch(/Skipped line 5: not JSON/)
    expect(lenient.stderr).toMatch(/Skipped line 9: no customer/)
    expect(lenient.stderr).toMatch(/Skipped line 11: bad timestamp "yesterday"/)
    expect(summaryOf(lenient.stdout)).toEqual({read: 11, inserted: 8, duplicates: 0, rejected: 3, requests: 1})
    expect((await storedEvents(env, 'mixed.call')).map((e) => e.metadata.seq)).toEqual([...Array(12).keys()])
  })

  it('skips the events the service refuses with --skip-invalid, naming their lines, and stops without it', async () => {
    const evs: object[] = events('refused.call', 6)
    evs.splice(2, 0, {name: 'refused.call', customer_id: '00000000-0000-4000-8000-000000000000'}) // line 3: unknown customer
    const file = join(dir, 'refused.jsonl')
    writeFileSync(file, jsonl(evs))
    const strict = await runInProcess(['events', 'ingest', file], {env: vars})
    expect(strict.code).toBe(1)
    expect(strict.stderr).toMatch(/^Error: line 3: refused by the service: customer_id: Customer not found/m)
    expect(await stored(env, 'refused.call')).toBe(0)
    const lenient = await runInProcess(['events', 'ingest', file, '--skip-invalid', '--json'], {env: vars})
    expect(lenient.code).toBe(11)
    expect(lenient.stderr).toMatch(/Skipped line 3: customer_id: Customer not found/)
    expect(summaryOf(lenient.stdout)).toMatchObject({read: 7, inserted: 6, rejected: 1})
    expect(await stored(env, 'refused.call')).toBe(6)
  })

  it('reads CSV with metadata columns, filling the name and customer from flags', async () => {
    const file = join(dir, 'usage.csv')
    writeFileSync(
      file,
      'timestamp,external_id,metadata.tokens,metadata.model,metadata.cached\n2026-01-02T00:00:00Z,csv-1,12,"gpt, large",true\n2026-01-02T00:01:00Z,csv-2,7.5,small,false\n',
    )
    const res = await runInProcess(['events', 'ingest', file, '--name', 'csv.call', '--external-customer', 'user_csv', '--json'], {env: vars})
    expect(res.code).toBe(0)
    expect(summaryOf(res.stdout)).toMatchObject({read: 2, inserted: 2})
    const got = await storedEvents(env, 'csv.call')
    expect(got.map((e) => [e.external_customer_id, e.metadata])).toEqual([
      ['user_csv', {tokens: 12, model: 'gpt, large', cached: true}],
      ['user_csv', {tokens: 7.5, model: 'small', cached: false}],
    ])
  })

  it('refuses to wait for a terminal on stdin and names a missing file', async () => {
    const missing = await runInProcess(['events', 'ingest', join(dir, 'nope.jsonl')], {env: vars})
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^Error: cannot read .*nope\.jsonl: no such file or folder$/m)
    const tty = await runTty(`${TILL} events ingest`, {env: vars})
    expect(tty.code).toBe(2)
    expect(tty.stdout).toMatch(/no input: give a FILE of events or pipe them into stdin/)
  })

  it('reads events from a pipeline on stdin', async () => {
    const res = await runInProcess(['events', 'ingest', '-', '--json'], {env: vars, input: jsonl(events('stdin.call', 250))})
    expect(res.code).toBe(0)
    expect(summaryOf(res.stdout)).toEqual({read: 250, inserted: 250, duplicates: 0, rejected: 0, requests: 1})
  })

  it('lists, shows and names events with their filters', async () => {
    const list = await runInProcess(['events', 'list', '--name', 'stdin.call', '--external-customer', 'cust_3', '--all', '--json'], {env: vars})
    expect(list.code).toBe(0)
    const items = JSON.parse(list.stdout) as Json[]
    expect(items.length).toBe(events('stdin.call', 250).filter((e) => e.external_customer_id === 'cust_3').length)
    expect(items.every((e) => e.name === 'stdin.call' && e.external_customer_id === 'cust_3' && e.source === 'user')).toBe(true)
    // newest first by default
    expect(items.map((e) => e.timestamp)).toEqual([...items.map((e) => e.timestamp)].sort().reverse())

    const filtered = await runInProcess(
      [
        'events',
        'list',
        '--name',
        'stdin.call',
        '--filter',
        '{"conjunction":"and","clauses":[{"property":"tokens","operator":"gte","value":100}]}',
        '--all',
        '--json',
      ],
      {env: vars},
    )
    const expected = events('stdin.call', 250).filter((e) => (e.metadata.tokens as number) >= 100).length
    expect((JSON.parse(filtered.stdout) as Json[]).length).toBe(expected)

    const one = await runInProcess(['events', 'get', items[0].id, '--json'], {env: vars})
    expect(JSON.parse(one.stdout)).toEqual(items[0])
    const missing = await runInProcess(['events', 'get', crypto.randomUUID()], {env: vars})
    expect(missing.code).toBe(3)

    const names = await runInProcess(['events', 'names', '--query', 'stdin', '--json'], {env: vars})
    expect(JSON.parse(names.stdout)).toEqual([expect.objectContaining({name: 'stdin.call', source: 'user', occurrences: 250})])
  })

  it(
    'computes meter quantities for every aggregation exactly as from the events themselves',
    async () => {
      // 600 events over 5 days (one every 12 minutes), tokens and a user id in the metadata
      const evs: Ev[] = []
      for (let i = 0; i < 600; i++) {
        evs.push({
          name: 'meter.call',
          external_customer_id: `mc_${i % 4}`,
          timestamp: new Date(BASE + i * 12 * 60_000).toISOString(),
          external_id: `meter-${i}`,
          metadata: {tokens: (i * 7919) % 1000, user: `u${(i * 31) % 17}`, tier: i % 3 === 0 ? 'pro' : 'free'},
        })
      }
      const file = join(dir, 'meter.jsonl')
      writeFileSync(file, jsonl(evs))
      expect((await runInProcess(['events', 'ingest', file], {env: vars})).code).toBe(0)

      const start = new Date(BASE).toISOString()
      const end = new Date(BASE + 5 * DAY - 1).toISOString()
      const pro = evs.filter((e) => e.metadata.tier === 'pro')
      const perDay = (agg: (xs: Ev[]) => number) =>
        [0, 1, 2, 3, 4].map((d) => agg(pro.filter((e) => Date.parse(e.timestamp) >= BASE + d * DAY && Date.parse(e.timestamp) < BASE + (d + 1) * DAY)))
      const tokens = (xs: Ev[]) => xs.map((e) => e.metadata.tokens as number)
      const cases: Array<[string, (xs: Ev[]) => number]> = [
        ['count', (xs) => xs.length],
        ['sum:tokens', (xs) => tokens(xs).reduce((a, b) => a + b, 0)],
        ['max:tokens', (xs) => Math.max(...tokens(xs))],
        ['min:tokens', (xs) => Math.min(...tokens(xs))],
        ['avg:tokens', (xs) => tokens(xs).reduce((a, b) => a + b, 0) / xs.length],
        ['unique:user', (xs) => new Set(xs.map((e) => e.metadata.user)).size],
      ]
      for (const [aggregation, compute] of cases) {
        const created = await runInProcess(
          [
            'meters',
            'create',
            '--name',
            `Meter ${aggregation}`,
            '--where',
            'name=meter.call',
            '--where',
            'tier eq pro',
            '--aggregation',
            aggregation,
            '--json',
          ],
          {env: vars},
        )
        expect(created.code, created.stderr).toBe(0)
        const meter = JSON.parse(created.stdout) as Json
        const q = await runInProcess(['meters', 'quantities', meter.id, '--start', start, '--end', end, '--interval', 'day', '--json'], {env: vars})
        expect(q.code, q.stderr).toBe(0)
        const body = JSON.parse(q.stdout) as Json
        expect(
          body.quantities.map((p: Json) => p.timestamp),
          aggregation,
        ).toEqual([0, 1, 2, 3, 4].map((d) => new Date(BASE + d * DAY).toISOString().replace('.000Z', 'Z')))
        const got = body.quantities.map((p: Json) => p.quantity)
        const want = perDay(compute)
        got.forEach((v: number, i: number) => expect(v, `${aggregation} day ${i}`).toBeCloseTo(want[i]!, 9))
        expect(body.total, `${aggregation} total`).toBeCloseTo(compute(pro), 9)
      }

      // one customer's quantities, by external id, piped as TSV
      const list = await runInProcess(['meters', 'list', '--query', 'Meter sum', '--json'], {env: vars})
      const sumMeter = (JSON.parse(list.stdout) as Json[])[0]
      const tsv = await runInProcess(
        ['meters', 'quantities', sumMeter.id, '--start', start, '--end', end, '--interval', 'week', '--external-customer', 'mc_0'],
        {
          env: vars,
        },
      )
      expect(tsv.code).toBe(0)
      const weekly = pro.filter((e) => e.external_customer_id === 'mc_0').reduce((a, e) => a + (e.metadata.tokens as number), 0)
      expect(linesOf(tsv.stdout)).toEqual([`${new Date(BASE).toISOString().replace('.000Z', 'Z')}\t${weekly}`])
      expect(tsv.stderr).toMatch(new RegExp(`Total: ${weekly}`))
    },
    scaled(60_000),
  )

  it('draws the quantities as a chart with the table under it on a terminal', async () => {
    const list = await runInProcess(['meters', 'list', '--query', 'Meter count', '--json'], {env: vars})
    const meter = (JSON.parse(list.stdout) as Json[])[0]
    const res = await runTty(`${TILL} meters quantities ${meter.id} --start 2026-01-05T00:00:00Z --end 2026-01-09T23:59:59Z --interval day`, {env: vars})
    expect(res.code).toBe(0)
    expect(res.stdout).toMatch(/Meter count per day/)
    expect(res.stdout).toMatch(/[┼┤]/)
    expect(res.stdout).toMatch(/2026-01-05 +2026-01-09/)
    expect(stripAnsi(res.stdout)).toMatch(/PERIOD\s+QUANTITY\n2026-01-05T00:00:00Z\s+40\n/)
  })

  it("shows customers' meters: consumed units per customer, and the same to the customer in the portal", async () => {
    const customer = await api(env, 'POST', '/customers/', {body: {email: 'meter-user@example.com', external_id: 'mc_1'}})
    expect(customer.status).toBe(201)
    const list = await runInProcess(['customer-meters', 'list', '--external-customer', 'mc_1', '--all', '--json'], {env: vars})
    expect(list.code, list.stderr).toBe(0)
    const rows = JSON.parse(list.stdout) as Json[]
    const sumRow = rows.find((r) => r.meter.name === 'Meter sum:tokens')
    const expected = Array.from({length: 600}, (_, i) => i)
      .filter((i) => i % 4 === 1 && i % 3 === 0)
      .reduce((a, i) => a + ((i * 7919) % 1000), 0)
    expect(sumRow).toMatchObject({customer_id: customer.body.id, consumed_units: expected, credited_units: 0, balance: -expected})
    const one = await runInProcess(['customer-meters', 'get', sumRow.id, '--json'], {env: vars})
    expect(JSON.parse(one.stdout)).toEqual(sumRow)

    const state = await api(env, 'GET', `/customers/${customer.body.id}/state`)
    expect(state.body.active_meters).toContainEqual(expect.objectContaining({meter_id: sumRow.meter_id, consumed_units: expected}))

    const portal = await runInProcess(['portal', 'meters', 'list', '--as-customer', 'mc_1', '--json'], {env: vars})
    expect(portal.code, portal.stderr).toBe(0)
    const mine = (JSON.parse(portal.stdout) as Json[]).find((r) => r.id === sumRow.id)
    expect(mine).toMatchObject({consumed_units: expected, meter: {id: sumRow.meter_id, name: 'Meter sum:tokens'}})
    expect(mine.customer).toBeUndefined()
  })

  it('sells usage: a metered price and a meter_credit benefit that credits units (system events) when granted', async () => {
    const meter = JSON.parse(
      (await runInProcess(['meters', 'create', '--name', 'Credited calls', '--where', 'name=credit.call', '--aggregation', 'count', '--json'], {env: vars}))
        .stdout,
    ) as Json
    const benefitRun = await runInProcess(
      ['benefits', 'create', '--type', 'meter_credit', '--description', '100 calls', '--meter', meter.id, '--units', '100', '--json'],
      {env: vars},
    )
    expect(benefitRun.code, benefitRun.stderr).toBe(0)
    const benefit = JSON.parse(benefitRun.stdout) as Json
    expect(benefit.properties).toEqual({units: 100, rollover: false, meter_id: meter.id})
    const missing = await runInProcess(['benefits', 'create', '--type', 'meter_credit', '--description', 'no meter', '--units', '5'], {env: vars})
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/needs --meter and --units/)

    const productRun = await runInProcess(
      [
        'products',
        'create',
        '--name',
        'Usage plan',
        '--interval',
        'month',
        '--free',
        '--metered',
        `${meter.id}:0.005:100.00`,
        '--benefit',
        benefit.id,
        '--json',
      ],
      {env: vars},
    )
    expect(productRun.code, productRun.stderr).toBe(0)
    const product = JSON.parse(productRun.stdout) as Json
    expect(product.prices[1]).toMatchObject({
      amount_type: 'metered_unit',
      unit_amount: '0.5',
      cap_amount: 10000,
      meter_id: meter.id,
      meter: {id: meter.id, name: 'Credited calls'},
    })
    // one unit everywhere (major, as --price): the list row and the detail show the unit price and the meter,
    // not "free" and a bare id
    const row = await runInProcess(['products', 'list', '-o', 'table', '--columns', 'id,price', '--limit', '100'], {env: vars})
    expect(row.stdout).toMatch(new RegExp(`^${product.id} +\\$0\\.005/unit of Credited calls \\(cap \\$100\\.00\\)$`, 'm'))
    const detail = await runInProcess(['products', 'get', product.id, '-o', 'table'], {env: vars})
    expect(detail.stdout).toContain('$0.005/unit of Credited calls (cap $100.00)')
    const oneTime = await runInProcess(['products', 'create', '--name', 'Once', '--price', '5', '--metered', `${meter.id}:1`], {env: vars})
    expect(oneTime.code).toBe(2)
    expect(oneTime.stderr).toMatch(/--metered needs --interval/)

    const customer = (await api(env, 'POST', '/customers/', {body: {email: 'credit-user@example.com', external_id: 'credit_user'}})).body
    expect((await api(env, 'POST', '/subscriptions/', {body: {product_id: product.id, customer_id: customer.id}})).status).toBe(201)
    await runInProcess(['events', 'ingest', '-', '--name', 'credit.call', '--external-customer', 'credit_user'], {env: vars, input: '{}\n{}\n{}\n'})

    const system = await runInProcess(['events', 'list', '--customer', customer.id, '--source', 'system', '--sort', 'timestamp', '--json'], {env: vars})
    const systemEvents = JSON.parse(system.stdout) as Json[]
    // a subscription with a metered price starts its meter afresh, then its benefits are granted
    expect(systemEvents.map((e) => e.name)).toEqual(['meter.reset', 'benefit.granted', 'meter.credited'])
    expect(systemEvents[0].metadata).toEqual({meter_id: meter.id})
    expect(systemEvents[2].metadata).toEqual({meter_id: meter.id, units: 100, rollover: false})
    const meters = await runInProcess(['customer-meters', 'list', '--customer', customer.id, '--meter', meter.id, '--json'], {env: vars})
    expect(JSON.parse(meters.stdout)).toEqual([expect.objectContaining({consumed_units: 3, credited_units: 100, balance: 97})])
  })

  it('archives a meter after confirmation only (--yes without a terminal)', async () => {
    const list = await runInProcess(['meters', 'list', '--query', 'Meter min', '--json'], {env: vars})
    const meter = (JSON.parse(list.stdout) as Json[])[0]
    const refused = await runInProcess(['meters', 'archive', meter.id], {env: vars})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/--yes/)
    const archived = await runInProcess(['meters', 'archive', meter.id, '--yes', '--json'], {env: vars})
    expect(JSON.parse(archived.stdout).archived_at).not.toBeNull()
    const active = await runInProcess(['meters', 'list', '--no-archived', '--all', '--json'], {env: vars})
    expect((JSON.parse(active.stdout) as Json[]).some((m) => m.id === meter.id)).toBe(false)
  })

  it(
    'resumes after a kill with --checkpoint and ends with the exact count',
    async () => {
      const file = join(dir, 'resume.jsonl')
      const checkpoint = join(dir, 'resume.ckpt')
      writeFileSync(file, jsonl(events('resume.call', 30_000)))
      const running = spawnCli(['events', 'ingest', file, '--checkpoint', checkpoint, '--batch-size', '100', '--concurrency', '2'], {
        env: vars,
        timeoutMs: scaled(60_000),
      })
      // kill it once part of the input is acknowledged
      for (;;) {
        if (existsSync(checkpoint) && (JSON.parse(readFileSync(checkpoint, 'utf8')) as {through: number}).through >= 3000) break
        if (running.child.exitCode !== null) break
        await new Promise((r) => setTimeout(r, 20))
      }
      running.child.kill('SIGKILL')
      await running.done
      const partial = await stored(env, 'resume.call')
      expect(partial).toBeLessThan(30_000)
      const rerun = await runInProcess(['events', 'ingest', file, '--checkpoint', checkpoint, '--json'], {env: vars, timeoutMs: scaled(60_000)})
      expect(rerun.code, rerun.stderr).toBe(0)
      const summary = summaryOf(rerun.stdout)
      expect(summary.read).toBeLessThan(30_000)
      expect(summary.inserted + partial).toBe(30_000)
      expect(await stored(env, 'resume.call')).toBe(30_000)
    },
    scaled(90_000),
  )

  it(
    'stops on Ctrl-C after the requests in flight, and a re-run with the checkpoint completes events without external ids exactly',
    async () => {
      const file = join(dir, 'interrupt.jsonl')
      const checkpoint = join(dir, 'interrupt.ckpt')
      writeFileSync(file, jsonl(events('interrupt.call', 30_000, {externalIds: false})))
      const running = spawnCli(['events', 'ingest', file, '--checkpoint', checkpoint, '--batch-size', '100'], {env: vars, timeoutMs: scaled(60_000)})
      for (;;) {
        if (existsSync(checkpoint) && (JSON.parse(readFileSync(checkpoint, 'utf8')) as {through: number}).through >= 2000) break
        if (running.child.exitCode !== null) break
        await new Promise((r) => setTimeout(r, 20))
      }
      running.child.kill('SIGINT')
      const stopped = await running.done
      expect(stopped.code).toBe(130)
      expect(stopped.stderr).toMatch(/run the same command again to continue/)
      const rerun = await runInProcess(['events', 'ingest', file, '--checkpoint', checkpoint], {env: vars, timeoutMs: scaled(60_000)})
      expect(rerun.code, rerun.stderr).toBe(0)
      const seqs = (await storedEvents(env, 'interrupt.call')).map((e) => e.metadata.seq as number)
      expect(seqs.length).toBe(30_000)
      expect(new Set(seqs).size).toBe(30_000)
    },
    scaled(90_000),
  )
})

describe('till events ingest under injected 5xx and connection resets', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let dir: string
  let vars: NodeJS.ProcessEnv

  beforeAll(async () => {
    emulator = await startEmulator({failRate: 0.08, resetRate: 0.08, faultSeed: 7})
    env = emulator.production
    box = sandbox()
    dir = mkdtempSync(join(tmpdir(), 'till-usage-faults-'))
    vars = box.env(envVars(env, {TILL_RATE_LIMIT: '100000/min'}))
  })

  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    if (dir) rmSync(dir, {recursive: true, force: true})
  })

  it(
    'with an external_id on every event: none inserted twice, none lost',
    async () => {
      const file = join(dir, 'faults.jsonl')
      writeFileSync(file, jsonl(events('faults.call', 10_000)))
      const res = await runInProcess(['events', 'ingest', file, '--batch-size', '100', '--json'], {env: vars, timeoutMs: scaled(90_000)})
      expect(res.code, res.stderr).toBe(0)
      const summary = summaryOf(res.stdout)
      // a reset after the write makes the replay count duplicates; every event is accounted for once
      expect(summary.inserted + summary.duplicates).toBeGreaterThanOrEqual(10_000)
      expect(summary.requests).toBe(100)
      const seqs = (await storedEvents(env, 'faults.call')).map((e) => e.metadata.seq as number)
      expect(seqs.length).toBe(10_000)
      expect(new Set(seqs).size).toBe(10_000)
    },
    scaled(120_000),
  )

  it(
    'without external ids: never re-sent, the lines of unknown fate named, and the re-run refuses to guess',
    async () => {
      const file = join(dir, 'unsafe.jsonl')
      const checkpoint = join(dir, 'unsafe.ckpt')
      writeFileSync(file, jsonl(events('unsafe.call', 10_000, {externalIds: false})))
      const res = await runInProcess(['events', 'ingest', file, '--batch-size', '100', '--concurrency', '1', '--checkpoint', checkpoint], {
        env: vars,
        timeoutMs: scaled(90_000),
      })
      expect(res.code).not.toBe(0)
      const m = /^Error: lines (\d+)-(\d+): unknown whether these events were stored/m.exec(res.stderr)
      expect(m, res.stderr).not.toBeNull()
      const seqs = (await storedEvents(env, 'unsafe.call')).map((e) => e.metadata.seq as number)
      expect(new Set(seqs).size).toBe(seqs.length)
      const again = await runInProcess(['events', 'ingest', file, '--checkpoint', checkpoint], {env: vars})
      expect(again.code).toBe(2)
      expect(again.stderr).toMatch(new RegExp(`lines ${m![1]}-${m![2]} of this input may already be stored`))
      expect(again.stderr).toMatch(/--resend-unknown.*--skip-unknown/)
    },
    scaled(120_000),
  )
})
