// Pacing shared across processes: three `till` processes of one profile (one config folder) export at
// once against an emulator allowing 30 requests per 3 s. Each needs 20 requests (60 orders, 3 a page),
// so any two of them running within one window would exceed it without sharing; yet the emulator
// answers none of the 60 requests 429: they space their requests through the shared pace state.
// The control run, with a config folder each, does draw 429s.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {listAll, sleep, startEmulator, type Emulator} from '../helpers/emulator.js'
import {envVars, jsonlIds, linesOf, logFrom, sandbox, spawnCli, type CliResult, type Sandbox} from '../helpers/cli.js'
import {scaled} from '../helpers/machine.js'

const EXPORT = ['orders', 'list', '--all', '--limit', '3', '-o', 'jsonl']

describe('pacing shared between processes (emulator --rate-limit 30/3s, TILL_RATE_LIMIT=30/3s)', () => {
  let emulator: Emulator
  let orderIds: string[]
  const boxes: Sandbox[] = []

  const box = () => {
    const b = sandbox()
    boxes.push(b)
    return b
  }
  /** Three exports at once; `boxes` gives each its config folder. */
  const threeExports = (dirs: Sandbox[]): Promise<CliResult[]> =>
    Promise.all(dirs.map((b) => spawnCli(EXPORT, {env: b.env(envVars(emulator.production, {TILL_RATE_LIMIT: '30/3s'})), timeoutMs: scaled(40_000)}).done))

  beforeAll(async () => {
    emulator = await startEmulator({rateLimit: '30/3s', quiet: false})
    orderIds = (await listAll(emulator.production, '/orders/')).map((o) => o.id)
    expect(orderIds).toHaveLength(60)
    await sleep(3200) // a fresh window on the emulator
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const b of boxes) b.cleanup()
  })

  it(
    'three processes of one profile draw zero 429s and each exports everything',
    async () => {
      const log = await logFrom(emulator)
      const shared = box()
      const started = Date.now()
      const results = await threeExports([shared, shared, shared])
      const elapsed = Date.now() - started
      for (const r of results) {
        expect(r.code, r.stderr).toBe(0)
        // nothing on stderr but the waits of a second or more, each saying why
        for (const line of linesOf(r.stderr))
          expect(line).toMatch(
            /^Waiting \d+s to stay within the rate budget of profile local \(30 requests per 3s\)(; other till processes of profile local sent \d+ of its last 30 requests)?\.$/,
          )
        expect(jsonlIds(r.stdout)).toEqual(orderIds)
      }
      const requests = log().filter((q) => q.path.startsWith('/v1/orders/'))
      expect(requests.filter((q) => q.status === 429)).toEqual([])
      expect(requests.filter((q) => q.status === 200)).toHaveLength(60)
      // 60 requests take two 3 s windows: the processes waited for the second one.
      expect(elapsed).toBeGreaterThanOrEqual(3000)
    },
    scaled(60_000),
  )

  it(
    'a command waiting behind a finished export is told the budget was used by the other till processes of its profile',
    async () => {
      await sleep(3200)
      const shared = box()
      const env = shared.env(envVars(emulator.production, {TILL_RATE_LIMIT: '3/3s'}))
      const exported = await spawnCli(['orders', 'list', '--all', '--limit', '20', '-o', 'jsonl'], {env, timeoutMs: scaled(40_000)}).done
      expect(exported.code, exported.stderr).toBe(0)
      const r = await spawnCli(['products', 'list', '--limit', '1', '-o', 'jsonl'], {env, timeoutMs: scaled(40_000)}).done
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stderr)).toEqual([
        expect.stringMatching(
          /^Waiting \ds to stay within the rate budget of profile local \(3 requests per 3s\); other till processes of profile local sent 3 of its last 3 requests\.$/,
        ),
      ])
    },
    scaled(60_000),
  )

  it(
    'control: with a config folder each, the same three exports do draw 429s',
    async () => {
      await sleep(3200)
      const log = await logFrom(emulator)
      const results = await threeExports([box(), box(), box()])
      for (const r of results) {
        expect(r.code, r.stderr).toBe(0)
        expect(jsonlIds(r.stdout)).toEqual(orderIds)
      }
      expect(log().filter((q) => q.status === 429).length).toBeGreaterThan(0)
    },
    scaled(60_000),
  )
})
