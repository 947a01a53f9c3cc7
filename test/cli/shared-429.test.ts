// What a 429 taught is shared: with no rate limit configured, till paces at the
// documented 500/min, so an emulator allowing 4 requests per 8 s refuses it. Once one process of a
// profile is told to wait, another process of the same profile (one config folder) waits out the same
// deadline without sending anything; a process with a config folder of its own draws its own 429.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, sleep, startEmulator, type Emulator} from '../helpers/emulator.js'
import {envVars, logFrom, sandbox, spawnCli, type Running, type Sandbox} from '../helpers/cli.js'
import {scaled} from '../helpers/machine.js'

const OWN_WAIT = /^Rate limited by the API; waiting [1-8]s as it asks \(Retry-After\)\.$/m
const SHARED_WAIT = /^Rate limited by the API \(another till process of this profile was told to wait\); waiting [1-8]s\.$/m

/** Resolves once `run` has written `pattern` on stderr (or fails when it exits first). */
async function stderrShows(run: Running, pattern: RegExp): Promise<void> {
  let exited = false
  void run.done.then(() => (exited = true))
  while (!pattern.test(run.stderr())) {
    if (exited) throw new Error(`exited without showing ${pattern}: ${run.stderr()}`)
    await sleep(20)
  }
}

describe('a 429 deadline shared through the pacing file (emulator --rate-limit 4/8s, no TILL_RATE_LIMIT)', () => {
  let emulator: Emulator
  const boxes: Sandbox[] = []

  beforeAll(async () => {
    emulator = await startEmulator({rateLimit: '4/8s', quiet: false})
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const b of boxes) b.cleanup()
  })

  it(
    'a second process of the profile waits out the first one’s Retry-After; one of another profile does not',
    async () => {
      const shared = sandbox()
      const apart = sandbox()
      boxes.push(shared, apart)
      const env = (b: Sandbox) => ({env: b.env(envVars(emulator.production)), timeoutMs: scaled(30_000)})
      // the organization's window is used up
      for (let i = 0; i < 4; i++) expect((await api(emulator.production, 'GET', '/products/?limit=1', {noRetry: true})).status).toBe(200)
      const log = await logFrom(emulator)

      const first = spawnCli(['orders', 'list', '--limit', '1', '-o', 'jsonl'], env(shared))
      await stderrShows(first, OWN_WAIT)
      // told to wait: the deadline is in the profile's pace file now
      const second = spawnCli(['orders', 'list', '--limit', '1', '-o', 'jsonl'], env(shared))
      const control = spawnCli(['customers', 'list', '--limit', '1', '-o', 'jsonl'], env(apart))
      const [a, b, c] = await Promise.all([first.done, second.done, control.done])

      for (const r of [a, b, c]) {
        expect(r.code, r.stderr).toBe(0)
        expect(r.stdout.trim().split('\n')).toHaveLength(1)
      }
      expect(b.stderr).toMatch(SHARED_WAIT)
      expect(b.stderr).not.toMatch(OWN_WAIT)
      expect(c.stderr).toMatch(OWN_WAIT)
      const requests = log()
      const orders = requests.filter((q) => q.path.startsWith('/v1/orders/'))
      const customers = requests.filter((q) => q.path.startsWith('/v1/customers/'))
      // the two processes of one profile drew one 429 between them: the second sent only its useful request
      expect(orders.map((q) => q.status).sort()).toEqual([200, 200, 429])
      // the process of another profile knew nothing of it, and was refused on its own
      expect(customers.map((q) => q.status).sort()).toEqual([200, 429])
    },
    scaled(60_000),
  )
})
