// Ids from stdin under a tight rate limit and injected faults: the emulator allows 40 requests per 2 s,
// answers 10% of requests with a 5xx before any change and cuts 10% of connections after the change
// (--fault-seed 7; which request gets which draw moves with the timing of the 429s, and at 5% the 60 refunds
// went without a cut connection once in a few dozen runs, leaving the marker path untried); the client is told the same budget (TILL_RATE_LIMIT=40/2s). 200 paid orders are piped
// into `orders invoice generate -`: every id is reported exactly once, in input order; a POST whose answer
// was lost (a 5xx, a cut connection) is sent again, as invoice generation is idempotent, and none is
// reported failed for a fault (the emulator logs every request: `[production] POST /v1/... 202 1.2ms`).
// Then `refunds create --order -` refunds 60 orders in full under the same faults: a lost answer is
// settled by looking for the refund till marked, so each order is refunded exactly once and none fails.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {envVars, expectNoToken, linesOf, logFrom, runShell, sandbox, settledLogFrom, sh, TILL, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

/** `jq -r .id` in node: the id of each JSON line. */
const NODE_JQ_ID = `${JSON.stringify(process.execPath)} -e ${sh("require('readline').createInterface({input: process.stdin}).on('line', (l) => console.log(JSON.parse(l).id))")}`
const FAULTS = {orders: 400, rateLimit: '40/2s', failRate: 0.1, resetRate: 0.1, faultSeed: 7, invoiceDelay: '0s', quiet: false}

interface Result {
  id: string
  ok: boolean
  status?: string
  result?: Json
  error?: {message: string; exit_code: number}
}

/** Every item of a list endpoint, each page asked again when the emulator injects a fault (or a 429). */
async function listAll(env: EnvHandle, path: string, query = ''): Promise<Json[]> {
  const page = async (n: number): Promise<Json> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await api(env, 'GET', `${path}?${query ? `${query}&` : ''}limit=100&page=${n}`)
        if (res.status === 200) return res.body
        if ((res.status < 500 && res.status !== 429) || attempt >= 30) throw new Error(`GET ${path} page ${n}: ${res.status} ${res.text}`)
      } catch (error) {
        if (attempt >= 30) throw error
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const items: Json[] = []
  for (let n = 1; ; n++) {
    const body = await page(n)
    items.push(...body.items)
    if (n >= body.pagination.max_page) return items
  }
}

/** How many times each value occurs. */
const tally = (values: string[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>())

describe('ids from stdin under a tight rate limit and injected faults', () => {
  let emulator: Emulator
  let box: Sandbox
  const env = () => box.env(envVars(emulator.production, {TILL_ENV: 'local', TILL_RATE_LIMIT: '40/2s'}))

  beforeAll(async () => {
    emulator = await startEmulator(FAULTS)
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    '200 paid orders piped into `orders invoice generate -`: each reported once, none failed for a fault, no invoice twice',
    async () => {
      const idsFile = join(box.root, 'ids.txt')
      const log = await logFrom(emulator)
      const line = `${TILL} orders list --status paid --all --max-items 200 -o jsonl | ${NODE_JQ_ID} | tee ${sh(idsFile)} | ${TILL} orders invoice generate - --envelope -o jsonl`
      const r = await runShell(line, {env: env(), timeoutMs: scaled(180_000)})
      expectNoToken(r.stdout + r.stderr, emulator.production.token)

      const ids = linesOf(readFileSync(idsFile, 'utf8'))
      expect(ids).toHaveLength(200)
      expect(new Set(ids).size).toBe(200)

      // One result per input id, in input order.
      const results = linesOf(r.stdout).map((l) => JSON.parse(l) as Result)
      expect(results.map((x) => x.id)).toEqual(ids)
      const failed = results.filter((x) => !x.ok)
      // orders the seed gave an invoice are already done (the service answers them 202 too, doing nothing)
      const done = results.filter((x) => x.status === 'already done')
      expect(done.length).toBeGreaterThan(0)
      expect(r.stderr).toContain(`200 ids: ${200 - failed.length - done.length} ok, ${done.length} already done, ${failed.length} failed.`)
      // Only orders the service refuses fail (no billing details): never one whose answer was lost.
      for (const x of failed) expect(x.error?.message, x.id).toMatch(/has no billing name or address/)
      expect(r.code).toBe(failed.length > 0 ? 1 : 0)

      // The request log: a POST is sent again only after a fault (a 5xx or a cut connection, logged as 0)
      // answered the one before it, and no order gets two invoices (a second 202).
      const posts = log().filter((q) => q.method === 'POST' && /^\/v1\/orders\/[^/]+\/invoice$/.test(q.path))
      const byOrder = new Map<string, number[]>()
      for (const q of posts.filter((p) => p.status !== 429)) byOrder.set(q.path.split('/')[3]!, [...(byOrder.get(q.path.split('/')[3]!) ?? []), q.status])
      const alreadyDone = new Set(done.map((x) => x.id))
      expect([...byOrder.keys()].sort()).toEqual(ids.filter((id) => !alreadyDone.has(id)).sort())
      for (const [id, statuses] of byOrder) {
        for (const status of statuses.slice(0, -1)) expect(status === 0 || status >= 500, `order ${id}: ${statuses.join(', ')}`).toBe(true)
        expect(statuses.filter((s) => s === 202).length, `order ${id}: ${statuses.join(', ')}`).toBeLessThanOrEqual(1)
      }
      // The faults did happen, to these POSTs: some 5xx and some cut connections; their orders were sent
      // again and are ok (or refused for their billing details, as above).
      const faulted = [...byOrder].filter(([, statuses]) => statuses.some((s) => s === 0 || s >= 500))
      expect(posts.some((q) => q.status >= 500)).toBe(true)
      expect(posts.some((q) => q.status === 0)).toBe(true)
      expect(faulted.filter(([id]) => results.find((x) => x.id === id)?.ok).length).toBeGreaterThan(0)

      // Every id reported ok has its invoice (it is ready at once with --invoice-delay 0s).
      const orders = new Map((await listAll(emulator.production, '/orders/', 'status=paid')).map((o) => [o.id, o]))
      for (const x of results.filter((y) => y.ok)) expect(orders.get(x.id)?.is_invoice_generated, x.id).toBe(true)
    },
    scaled(240_000),
  )

  it(
    '60 orders piped into `refunds create --order -`: each refunded at most once, each reported once',
    async () => {
      const before = await listAll(emulator.production, '/orders/', 'status=paid')
      const chosen = before.filter((o) => o.refundable_amount > 0).slice(0, 60)
      expect(chosen).toHaveLength(60)
      const refundsBefore = new Set((await listAll(emulator.production, '/refunds/')).map((x) => x.id))
      const idsFile = join(box.root, 'refund-ids.txt')
      // Each id twice: the repeat must never become a second refund.
      const input = [...chosen.map((o) => o.id), ...chosen.slice(0, 5).map((o) => o.id)].join('\n')
      writeFileSync(idsFile, `${input}\n`)
      const log = await settledLogFrom(emulator)
      const r = await runInProcess(['refunds', 'create', '--order', '-', '--reason', 'service_disruption', '--yes', '--envelope', '-o', 'jsonl'], {
        env: env(),
        input: readFileSync(idsFile, 'utf8'),
      })

      const results = linesOf(r.stdout).map((l) => JSON.parse(l) as Result)
      expect(results.map((x) => x.id)).toEqual(input.split('\n'))
      for (const x of results.slice(60)) {
        expect(x.ok).toBe(false)
        expect(x.error?.message).toContain('already given earlier in the input')
      }
      // Only the repeats fail: a refund whose answer was lost is found by its marker, or sent again when
      // the service had not made it (a 5xx before any change).
      const failed = results.filter((x) => !x.ok)
      expect(failed.map((x) => x.error?.message)).toEqual(Array(5).fill(expect.stringContaining('already given earlier in the input')))
      expect(r.stderr).toContain('65 ids: 60 ok, 5 failed.')
      expect(r.code).toBe(1)

      const created = (await listAll(emulator.production, '/refunds/')).filter((x) => !refundsBefore.has(x.id))
      const perOrder = tally(created.map((x) => x.order_id))
      expect([...perOrder.keys()].sort()).toEqual(chosen.map((o) => o.id).sort())
      for (const [order, count] of perOrder) expect(count, `refunds of order ${order}`).toBe(1)
      for (const x of results.slice(0, 60)) {
        const order = chosen.find((o) => o.id === x.id)
        expect(x.result).toMatchObject({order_id: x.id, amount: order.refundable_amount})
      }
      // The faults did happen to these POSTs; a POST is sent again only after one whose answer was lost.
      const posts = (await log()).filter((q) => q.method === 'POST' && q.path === '/v1/refunds/' && q.status !== 429)
      expect(posts.some((q) => q.status === 0 || q.status >= 500)).toBe(true)
      // a refund whose answer was cut after it was made (logged as 0) is found by its marker, not made again
      expect(posts.filter((q) => q.status === 201).length).toBeLessThanOrEqual(created.length)
      expect(posts.some((q) => q.status === 0)).toBe(true)
    },
    scaled(240_000),
  )
})
