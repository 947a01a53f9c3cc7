// `till customers import`: customers from JSON lines, created, updated with what differs, or left as they
// are; a second run of the same file creates nothing. Then the load case of issue 33 at a small size (the
// benchmark has the full one): four till processes at once, sharing one profile's rate budget, each
// importing 40 customers into one emulator at a tight limit with 5% of requests answered 5xx and 2% of
// connections cut after the change: every customer exactly once, every process exit 0, and no more 429s
// than one per window of the limit.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, linesOf, logFrom, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`

/** Every customer of the environment, read without faults. */
async function allCustomers(env: EnvHandle): Promise<Json[]> {
  const out: Json[] = []
  for (let page = 1; ; page++) {
    const res = await fetch(`${env.url}/customers/?limit=100&page=${page}`, {headers: {authorization: `Bearer ${env.token}`}})
    const body = (await res.json()) as Json
    out.push(...body.items)
    if (page >= body.pagination.max_page) return out
  }
}

describe('customers import', () => {
  let emulator: Emulator
  let box: Sandbox
  let dir: string
  const stamp = Date.now()

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
    dir = mkdtempSync(join(tmpdir(), 'till-import-'))
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    rmSync(dir, {recursive: true, force: true})
  })

  it('creates, then finds everything unchanged, then updates exactly what changed', async () => {
    const env = box.env(envVars(emulator.production))
    const rows = Array.from({length: 5}, (_, i) => ({email: `imp-${stamp}-${i}@example.com`, name: `Imported ${i}`, external_id: `imp_${stamp}_${i}`}))
    const file = join(dir, 'customers.jsonl')
    writeFileSync(file, jsonl(rows))
    const first = await runInProcess(['customers', 'import', file, '-o', 'jsonl'], {env})
    expect(first.code, first.stderr).toBe(0)
    expect(linesOf(first.stdout).map((l) => JSON.parse(l).result.action)).toEqual(Array(5).fill('created'))
    expect(first.stderr).toContain('5 customers: 5 created, 0 updated, 0 unchanged, 0 failed.')

    const again = await runInProcess(['customers', 'import', file, '-o', 'jsonl'], {env})
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('5 customers: 0 created, 0 updated, 5 unchanged, 0 failed.')

    rows[2]!.name = 'Renamed at the source'
    writeFileSync(file, jsonl(rows))
    const changed = await runInProcess(['customers', 'import', '-', '-o', 'jsonl'], {env, input: jsonl(rows)})
    expect(changed.code, changed.stderr).toBe(0)
    const results = linesOf(changed.stdout).map((l) => JSON.parse(l))
    expect(results.map((r) => r.result.action)).toEqual(['unchanged', 'unchanged', 'updated', 'unchanged', 'unchanged'])
    expect(results[2]).toMatchObject({line: 3, ok: true, result: {external_id: `imp_${stamp}_2`}})
    const held = (await allCustomers(emulator.production)).filter((c) => String(c.external_id).startsWith(`imp_${stamp}_`))
    expect(held).toHaveLength(5)
    expect(held.find((c) => c.external_id === `imp_${stamp}_2`)?.name).toBe('Renamed at the source')
  })

  it('checks every line before the first request: a bad line is exit 2 naming it, nothing created', async () => {
    allowRefusals()
    const env = box.env(envVars(emulator.production))
    const bad = `${JSON.stringify({email: `ok-${stamp}@example.com`})}\n${JSON.stringify({email: 'not-an-email'})}\n`
    const r = await runInProcess(['customers', 'import', '-'], {env, input: bad})
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('Error: stdin line 2: "email" must be an e-mail address\n')
    const typo = await runInProcess(['customers', 'import', '-'], {env, input: `${JSON.stringify({email: `t-${stamp}@example.com`, nmae: 'x'})}\n`})
    expect(typo.code).toBe(2)
    expect(typo.stderr).toMatch(/^Error: stdin line 1: unknown field "nmae"\nHint: the fields are: email, name, external_id/)
    expect((await allCustomers(emulator.production)).some((c) => c.email === `ok-${stamp}@example.com`)).toBe(false)
  })
})

describe('customers import under load: four processes, one budget, faults', () => {
  let faulty: Emulator
  let box: Sandbox
  let data: string
  const WINDOW_MS = 2000

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'till-import-load-'))
    faulty = await startEmulator({dataDir: data, rateLimit: '60/2s', failRate: 0.05, resetRate: 0.02, faultSeed: 5, quiet: false})
    box = sandbox()
  })
  afterAll(async () => {
    await faulty?.stop()
    box?.cleanup()
    rmSync(data, {recursive: true, force: true})
  })

  it(
    'every customer exactly once, every process exit 0, at most one 429 per window',
    async () => {
      const stamp = Date.now()
      const log = await logFrom(faulty)
      const started = Date.now()
      // one config folder: the processes share the profile's pace file, as runs of one user do
      const env = box.env(envVars(faulty.production, {TILL_RATE_LIMIT: '60/2s'}))
      const runs = Array.from({length: 4}, (_, p) =>
        spawnCli(['customers', 'import', '-', '-o', 'jsonl'], {
          env,
          input: jsonl(Array.from({length: 40}, (_, i) => ({email: `load-${stamp}-${p}-${i}@example.com`, external_id: `load_${stamp}_${p}_${i}`}))),
          timeoutMs: 150_000,
        }),
      )
      const results = await Promise.all(runs.map((r) => r.done))
      for (const r of results) {
        expect(r.code, r.stderr).toBe(0)
        expect(r.stderr).toContain('40 customers: 40 created, 0 updated, 0 unchanged, 0 failed.')
      }
      const elapsed = Date.now() - started
      const requests = log()
      // the faults happened to the creations, and were settled
      const posts = requests.filter((q) => q.method === 'POST' && q.path === '/v1/customers/')
      expect(posts.some((q) => q.status === 0 || q.status >= 500)).toBe(true)
      const tooMany = requests.filter((q) => q.status === 429).length
      expect(tooMany).toBeLessThanOrEqual(Math.ceil(elapsed / WINDOW_MS))
      await faulty.stop()
      const healthy = await startEmulator({dataDir: data})
      try {
        const mine = (await allCustomers(healthy.production)).filter((c) => String(c.external_id).startsWith(`load_${stamp}_`))
        expect(mine).toHaveLength(160)
        expect(new Set(mine.map((c) => c.external_id)).size).toBe(160)
      } finally {
        await healthy.stop()
      }
    },
    scaled(180_000),
  )
})
