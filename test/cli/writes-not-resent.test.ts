// A write that may have reached the server is never sent again. One emulator data folder, started
// three times: cutting every connection after the change (--reset-rate 1), failing every request
// before any change (--fail-rate 1), then healthy, to count what was created. The tests run in order.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import type {Emulator} from '../helpers/emulator.js'
import {envVars, logFrom, sandbox, startEmulatorWith, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

describe('writes are not re-sent after a possible delivery', () => {
  let dataDir: string
  let emulator: Emulator | undefined
  let box: Sandbox
  const stamp = Date.now()
  const resetEmail = `reset-${stamp}@example.com`
  const failEmail = `fail-${stamp}@example.com`

  const start = async (flags: string[]) => {
    await emulator?.stop()
    emulator = await startEmulatorWith(['--rate-limit', 'off', ...flags], {dataDir})
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

  it('POST cut mid-response (--reset-rate 1): exit 6, sent exactly once, with a warning to check', async () => {
    const emu = await start(['--reset-rate', '1'])
    const log = await logFrom(emu)
    const r = await runInProcess(['api', 'POST', '/customers/', '-f', `email=${resetEmail}`], {env: box.env(envVars(emu.production))})
    expect(r.code, r.stderr).toBe(6)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/may or may not have been made/)
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

  it('POST answered 5xx before any change (--fail-rate 1): exit 6, sent exactly once', async () => {
    const emu = await start(['--fail-rate', '1'])
    const log = await logFrom(emu)
    const r = await runInProcess(['api', 'POST', '/customers/', '-f', `email=${failEmail}`], {env: box.env(envVars(emu.production))})
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toMatch(/HTTP 50[023]/)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const posts = log().filter((q) => q.method === 'POST')
    expect(posts).toHaveLength(1)
    expect(posts[0]).toMatchObject({path: '/v1/customers/'})
    expect([500, 502, 503]).toContain(posts[0]!.status)
  })

  it('afterwards the cut POST created its customer exactly once, the failed one none', async () => {
    const emu = await start([])
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
})
