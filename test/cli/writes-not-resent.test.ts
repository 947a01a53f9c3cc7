// A write whose answer was lost is sent again only as its operation declares (src/client/settlement.ts):
// a customer's creation is settled by looking the customer up first. One emulator data folder, started
// three times: cutting every connection after the change (--reset-rate 1: the lookup is cut too, so the
// outcome stays unknown, exit 7), failing every request before any change (--fail-rate 1: likewise), then
// healthy, to count what was created. The tests run in order. Then, with one connection in two cut after
// the change, creations settled by their lookups: every customer exactly once, and exit 0.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator} from '../helpers/emulator.js'
import {envVars, logFrom, sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

describe('writes are not re-sent after a possible delivery', () => {
  let dataDir: string
  let emulator: Emulator | undefined
  let box: Sandbox
  const stamp = Date.now()
  const resetEmail = `reset-${stamp}@example.com`
  const failEmail = `fail-${stamp}@example.com`

  const start = async (faults: {resetRate?: number; failRate?: number}) => {
    await emulator?.stop()
    emulator = await startEmulator({dataDir, quiet: false, ...faults})
    return emulator
  }

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'till-cli-writes-'))
  })
  afterAll(async () => {
    await emulator?.stop()
    rmSync(dataDir, {recursive: true, force: true})
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('POST cut mid-response and its lookup cut too (--reset-rate 1): outcome unknown, exit 7, sent exactly once', async () => {
    const emu = await start({resetRate: 1})
    const log = await logFrom(emu)
    const r = await runInProcess(['api', 'POST', '/customers/', '-f', `email=${resetEmail}`], {env: box.env(envVars(emu.production))})
    expect(r.code, r.stderr).toBe(7)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(
      /^Error: the answer to POST \S+\/v1\/customers\/ was lost \(connection error \w+, and the lookup that would settle it failed\): it may or may not have been done, so it was not sent again\n/,
    )
    expect(r.stderr).toContain('see whether it was done with: till customers list --query EMAIL')
    await new Promise((resolve) => setTimeout(resolve, 300)) // let a (wrong) second attempt show up in the log
    expect(log().filter((q) => q.method === 'POST')).toEqual([{env: 'production', method: 'POST', path: '/v1/customers/', status: 0}])
  })

  it('GET under the same faults is retried (5 attempts), then exit 6', async () => {
    const emu = emulator!
    const log = await logFrom(emu)
    const r = await runInProcess(['api', 'GET', '/organizations/'], {env: box.env(envVars(emu.production))})
    expect(r.code, r.stderr).toBe(6)
    expect(
      log()
        .filter((q) => q.path === '/v1/organizations/')
        .map((q) => q.status),
    ).toEqual([0, 0, 0, 0, 0])
  })

  it('POST answered 5xx before any change, and its lookup too (--fail-rate 1): outcome unknown, exit 7, sent exactly once', async () => {
    const emu = await start({failRate: 1})
    const log = await logFrom(emu)
    const r = await runInProcess(['api', 'POST', '/customers/', '-f', `email=${failEmail}`], {env: box.env(envVars(emu.production))})
    expect(r.code, r.stderr).toBe(7)
    expect(r.stderr).toMatch(/was lost \(HTTP 50[023], and the lookup/)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const posts = log().filter((q) => q.method === 'POST')
    expect(posts).toHaveLength(1)
    expect(posts[0]).toMatchObject({path: '/v1/customers/'})
    expect([500, 502, 503]).toContain(posts[0]!.status)
  })

  it('afterwards the cut POST created its customer exactly once, the failed one none', async () => {
    const emu = await start({})
    const env = box.env(envVars(emu.production))
    const created = await runInProcess(['api', 'GET', '/customers/', '-f', `email=${resetEmail}`], {env})
    expect(created.code, `${created.stderr}\n--- emulator ---\n${emu.stderr()}`).toBe(0)
    const body = JSON.parse(created.stdout)
    expect(body.items.map((c: {email: string}) => c.email)).toEqual([resetEmail])
    expect(body.pagination.total_count).toBe(1)
    const failed = await runInProcess(['api', 'GET', '/customers/', '-f', `email=${failEmail}`], {env})
    expect(failed.code, failed.stderr).toBe(0)
    expect(JSON.parse(failed.stdout).items).toEqual([])
  })

  it('with one connection in two cut after the change, each created customer is found, not created twice: exit 0', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'till-cli-lossy-'))
    const lossy = await startEmulator({dataDir: folder, resetRate: 0.5, faultSeed: 11, quiet: false})
    try {
      const log = await logFrom(lossy)
      const env = box.env(envVars(lossy.production))
      const emails = Array.from({length: 12}, (_, i) => `lossy-${stamp}-${i}@example.com`)
      for (const [i, email] of emails.entries()) {
        const r = await runInProcess(['customers', 'create', '--email', email, '--external-id', `lossy_${stamp}_${i}`, '-o', 'json'], {env})
        expect(r.code, r.stderr).toBe(0)
        expect(JSON.parse(r.stdout)).toMatchObject({email, external_id: `lossy_${stamp}_${i}`})
      }
      const posts = log().filter((q) => q.method === 'POST' && q.path === '/v1/customers/')
      // the faults happened after the change, and the lookups settled them: one POST per customer
      expect(posts.filter((q) => q.status === 0).length).toBeGreaterThan(0)
      expect(posts).toHaveLength(emails.length)
      // counted on the same data without faults
      await lossy.stop()
      const healthy = await startEmulator({dataDir: folder})
      for (const email of emails) {
        const found = await api(healthy.production, 'GET', `/customers/?email=${encodeURIComponent(email)}`)
        expect(found.body.items, email).toHaveLength(1)
      }
      await healthy.stop()
    } finally {
      await lossy.stop()
      rmSync(folder, {recursive: true, force: true})
    }
  })
})
