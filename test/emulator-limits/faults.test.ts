// Injected faults: --fail-rate answers 500/502/503 before any state change,
// --reset-rate drops the connection mid-response after it; both hit the configured fraction,
// and the same --fault-seed repeats the same sequence.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {EnvHandle, Json} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'
import {cleanup, launch, outcome, pool, type Launched, type Outcome} from './spawn.js'

const NO_LIMITS = ['--rate-limit', 'off', '--ip-rate-limit', 'off']
const N = 1000

const get = (env: EnvHandle) => outcome(env, 'GET', '/products/?limit=1')
const newProduct = (name: string) => ({name, prices: [{amount_type: 'fixed', price_amount: 1500}], metadata: {fault_test: 'yes'}})

function tally(outcomes: Outcome[]): Map<Outcome, number> {
  const counts = new Map<Outcome, number>()
  for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1)
  return counts
}

/** A GET retried through injected faults until it answers 200. */
async function reliably(env: EnvHandle, path: string): Promise<Json> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = await outcome(env, 'GET', path)
    if (r.outcome === 200) return r.json
  }
  throw new Error(`GET ${path} never answered 200`)
}

/** Names of the products created by this file's POSTs that start with `prefix`, as the emulator lists them. */
async function storedNames(env: EnvHandle, prefix: string): Promise<Set<string>> {
  const names = new Set<string>()
  for (let page = 1; ; page++) {
    const body = await reliably(env, `/products/?metadata[fault_test]=yes&limit=100&page=${page}`)
    for (const p of body.items) if (p.name.startsWith(prefix)) names.add(p.name)
    if (page >= body.pagination.max_page) return names
  }
}

afterAll(cleanup)

describe('--fail-rate 0.2', () => {
  let emulator: Launched

  beforeAll(async () => {
    emulator = await launch([...NO_LIMITS, '--fail-rate', '0.2', '--fault-seed', '11'])
  })

  it(`fails 200 ± 50 of ${N} requests with 500, 502 or 503 and answers the rest`, {timeout: scaled(120_000)}, async () => {
    const results = await pool(Array.from({length: N}), 4, () => get(emulator.production))
    const counts = tally(results.map((r) => r.outcome))
    const failed = (counts.get(500) ?? 0) + (counts.get(502) ?? 0) + (counts.get(503) ?? 0)
    expect(failed).toBeGreaterThanOrEqual(150)
    expect(failed).toBeLessThanOrEqual(250)
    for (const status of [500, 502, 503]) expect(counts.get(status) ?? 0, `HTTP ${status}`).toBeGreaterThan(0)
    expect(counts.get(200)).toBe(N - failed)
    expect(counts.get('reset')).toBeUndefined()
    const ok = results.find((r) => r.outcome === 200)!.json as Json
    expect(ok.items).toHaveLength(1)
  })

  it('a failed POST changed nothing: exactly the 201 answers created products', async () => {
    const prefix = 'failrate-probe'
    const names = Array.from({length: 60}, (_, i) => `${prefix} ${i}`)
    const results = await pool(names, 4, (name) => outcome(emulator.production, 'POST', '/products/', newProduct(name)))
    const created = names.filter((_, i) => results[i]!.outcome === 201)
    const failed = names.filter((_, i) => [500, 502, 503].includes(results[i]!.outcome as number))
    expect(created.length + failed.length).toBe(names.length)
    expect(failed.length).toBeGreaterThan(0)
    expect(created.length).toBeGreaterThan(0)
    expect([...(await storedNames(emulator.production, prefix))].sort()).toEqual(created.sort())
  })
})

describe('--reset-rate 0.1', () => {
  let emulator: Launched

  beforeAll(async () => {
    emulator = await launch([...NO_LIMITS, '--reset-rate', '0.1', '--fault-seed', '12'])
  })

  it(`drops about 100 ± 40 of ${N} connections mid-response; the rest complete`, {timeout: scaled(120_000)}, async () => {
    const results = await pool(Array.from({length: N}), 4, () => get(emulator.production))
    const counts = tally(results.map((r) => r.outcome))
    const resets = counts.get('reset') ?? 0
    expect(resets).toBeGreaterThanOrEqual(60)
    expect(resets).toBeLessThanOrEqual(140)
    expect(counts.get(200)).toBe(N - resets)
  })

  it('a dropped POST still made its change: every POST, answered or not, created its product', async () => {
    const prefix = 'resetrate-probe'
    const names = Array.from({length: 60}, (_, i) => `${prefix} ${i}`)
    const results = await pool(names, 4, (name) => outcome(emulator.production, 'POST', '/products/', newProduct(name)))
    const counts = tally(results.map((r) => r.outcome))
    expect(counts.get('reset') ?? 0).toBeGreaterThan(0)
    expect((counts.get('reset') ?? 0) + (counts.get(201) ?? 0)).toBe(names.length)
    expect([...(await storedNames(emulator.production, prefix))].sort()).toEqual([...names].sort())
  })
})

describe('--fault-seed', () => {
  const flags = (seed: number) => [...NO_LIMITS, '--fail-rate', '0.2', '--reset-rate', '0.1', '--fault-seed', String(seed)]
  let runs: Launched[]

  beforeAll(async () => {
    runs = await Promise.all([launch(flags(42)), launch(flags(42)), launch(flags(43))])
  })

  /** 200 requests one after the other, so the draws happen in a known order. */
  async function sequence(env: EnvHandle): Promise<Outcome[]> {
    const seen: Outcome[] = []
    for (let i = 0; i < 200; i++) seen.push((await get(env)).outcome)
    return seen
  }

  it('the same seed gives the same sequence of faults twice; another seed another one', async () => {
    const first = await sequence(runs[0]!.production)
    const second = await sequence(runs[1]!.production)
    const other = await sequence(runs[2]!.production)
    const kinds = tally(first)
    expect(kinds.get('reset') ?? 0).toBeGreaterThan(0)
    expect((kinds.get(500) ?? 0) + (kinds.get(502) ?? 0) + (kinds.get(503) ?? 0)).toBeGreaterThan(0)
    expect(second).toEqual(first)
    expect(other).not.toEqual(first)
  })
})
