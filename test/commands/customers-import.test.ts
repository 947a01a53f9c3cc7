// `till customers import`: customers from JSON lines, created, updated with what differs, or left as they
// are; a second run of the same file creates nothing. Then the bench's load case at a small size (the
// benchmark has the full one): four till processes at once, sharing one profile's rate budget, each
// importing 40 customers into one emulator at a tight limit with 5% of requests answered 5xx and 2% of
// connections cut after the change: every customer exactly once, every process exit 0, and no more 429s
// than one per window of the limit.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, linesOf, logFrom, runCli, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {api, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {lossyProxy} from '../helpers/lossy-proxy.js'
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

  it('refuses before any request a line that is not UTF-8, of a wrong type or size, or an e-mail given twice; takes a byte order mark', async () => {
    allowRefusals()
    const env = box.env(envVars(emulator.production))
    const first = `${JSON.stringify({email: `first-${stamp}@example.com`, external_id: `first_${stamp}`})}\n`
    const latin = `{"email": "jose-${stamp}@example.com", "name": "Jos`
    const cases: Array<[Buffer, string]> = [
      // "José" in Latin-1: é is the one byte 0xE9
      [
        Buffer.concat([Buffer.from(`${first}${latin}`), Buffer.from([0xe9]), Buffer.from('"}\n')]),
        `line 2 is not UTF-8 text: byte ${latin.length + 1} is 0xE9`,
      ],
      [Buffer.from(`${first}${JSON.stringify({email: `n-${stamp}@example.com`, name: 123})}\n`), 'line 2: "name" must be a string or null, not a number'],
      [
        Buffer.from(`${first}${JSON.stringify({email: `m-${stamp}@example.com`, metadata: ['a']})}\n`),
        'line 2: "metadata" must be an object of keys and values, not an array',
      ],
      [
        Buffer.from(`${first}${JSON.stringify({email: `m-${stamp}@example.com`, metadata: {tier: {x: 1}}})}\n`),
        'line 2: "metadata"."tier" must be a string of 1 to 500 characters, a number or a boolean, not an object',
      ],
      [
        Buffer.from(`${first}${JSON.stringify({email: `a-${stamp}@example.com`, billing_address: 'Berlin'})}\n`),
        'line 2: "billing_address" must be an object or null, not a string',
      ],
      [
        Buffer.from(`${first}${JSON.stringify({email: `FIRST-${stamp}@example.com`, external_id: `other_${stamp}`})}\n`),
        `line 2: the same customer (e-mail first-${stamp}@example.com) as line 1`,
      ],
    ]
    for (const [input, message] of cases) {
      const r = await runInProcess(['customers', 'import', '-'], {env, input: input as unknown as string})
      expect(r.stderr.split('\n')[0], message).toBe(`Error: stdin ${message}`)
      expect(r.code, message).toBe(2)
    }
    expect((await allCustomers(emulator.production)).some((c) => c.external_id === `first_${stamp}`)).toBe(false)
    // a byte order mark before line 1 (a file saved by a spreadsheet) is not part of it
    const bom = await runInProcess(['customers', 'import', '-', '-o', 'jsonl'], {env, input: `\ufeff${first}`})
    expect(bom.code, bom.stderr).toBe(0)
    expect(linesOf(bom.stdout).map((l) => JSON.parse(l).result.action)).toEqual(['created'])
  })

  it('a metadata key "__proto__" is a key like any other: imported once, then unchanged', async () => {
    const env = box.env(envVars(emulator.production))
    const line = `${JSON.stringify({email: `proto-${stamp}@example.com`, external_id: `proto_${stamp}`}).slice(0, -1)}, "metadata": {"__proto__": "x", "tier": "pro"}}\n`
    const actions: string[] = []
    for (let i = 0; i < 2; i++) {
      const r = await runInProcess(['customers', 'import', '-', '-o', 'jsonl'], {env, input: line})
      expect(r.code, r.stderr).toBe(0)
      actions.push(JSON.parse(r.stdout).result.action)
    }
    expect(actions).toEqual(['created', 'unchanged'])
    const held = (await allCustomers(emulator.production)).find((c) => c.external_id === `proto_${stamp}`)!
    expect(Object.entries(held.metadata)).toEqual([
      ['__proto__', 'x'],
      ['tier', 'pro'],
    ])
  })

  it('run as a process twice, a customer with a metadata key "__proto__" is created, then found unchanged: exit 0', async () => {
    const env = box.env(envVars(emulator.production))
    const file = join(dir, 'proto.jsonl')
    writeFileSync(file, `{"email": "proto-proc-${stamp}@example.com", "name": "Proto", "metadata": {"tier": "pro", "__proto__": "x"}}\n`)
    const actions: string[] = []
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['customers', 'import', file, '-o', 'jsonl'], {env})
      expect(r.code, r.stderr).toBe(0)
      actions.push(JSON.parse(r.stdout).result.action)
    }
    expect(actions).toEqual(['created', 'unchanged'])
  })

  it('an address field the service ignores is refused before any request, naming it: it would differ on every run', async () => {
    const env = box.env(envVars(emulator.production))
    for (const odd of ['__proto__', 'street']) {
      const line = `{"email": "addr-${stamp}@example.com", "billing_address": {"country": "DE", "${odd}": "Hauptstr. 1"}}\n`
      const r = await runCli(['customers', 'import', '-', '-o', 'jsonl'], {env, input: line})
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`stdin line 1: "billing_address" has no field "${odd}": its fields are line1, line2, postal_code, city, state, country`)
    }
    expect((await allCustomers(emulator.production)).some((c) => c.email === `addr-${stamp}@example.com`)).toBe(false)
  })

  it('a customer another import made between the lookup and the creation is found, not a failure: exit 0, once', async () => {
    // what two imports of one file at once do: each looks a customer up, finds none, and creates it; the
    // proxy makes the other's creation happen right after this import's lookup
    const rows = Array.from({length: 3}, (_, i) => ({email: `twin-${stamp}-${i}@example.com`, external_id: `twin_${stamp}_${i}`, name: `Twin ${i}`}))
    const proxy = await lossyProxy(
      new URL(emulator.production.url),
      () => false,
      async (method, path, status) => {
        const row = rows.find((r) => path === `/v1/customers/external/${r.external_id}`)
        if (method === 'GET' && row && status === 404) {
          const made = await api(emulator.production, 'POST', '/customers/', {body: row})
          expect(made.status, made.text).toBe(201)
        }
      },
    )
    try {
      allowRefusals()
      const env = box.env(envVars(emulator.production, {TILL_API_URL: proxy.url}))
      const r = await runInProcess(['customers', 'import', '-', '-o', 'jsonl'], {env, input: jsonl(rows)})
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stdout).map((l) => JSON.parse(l).result.action)).toEqual(['unchanged', 'unchanged', 'unchanged'])
      expect(r.stderr).toContain('3 customers: 0 created, 0 updated, 3 unchanged, 0 failed.')
    } finally {
      proxy.server.close()
    }
    const held = (await allCustomers(emulator.production)).filter((c) => String(c.external_id).startsWith(`twin_${stamp}_`))
    expect(held).toHaveLength(3)
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
          timeoutMs: scaled(150_000),
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
