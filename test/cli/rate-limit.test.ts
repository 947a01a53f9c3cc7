// 429 handling as a process: an emulator allowing 4 requests per 3 s, and a client told it has a far
// bigger budget (TILL_RATE_LIMIT=1000/60s) so that it runs into the limit: an --all export asks for
// page 1, then 4 pages at once, the last of which is sure to be refused. till waits as Retry-After
// says and succeeds, or gives up with exit 5 when --max-wait is shorter than the wait.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, type Emulator} from '../helpers/emulator.js'
import {envVars, expectNoToken, jsonlIds, linesOf, logFrom, runCli, runTty, sandbox, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {scaled} from '../helpers/machine.js'

const WAIT_LINE = /^Rate limited by the API; waiting [1-3]s as it asks \(Retry-After\)\.$/

describe('rate limits (emulator --rate-limit 4/3s, client told 1000/60s)', () => {
  let emulator: Emulator
  let orderIds: string[]
  let box: Sandbox
  const env = (extra: Record<string, string> = {}) => box.env(envVars(emulator.production, {TILL_RATE_LIMIT: '1000/60s', ...extra}))

  beforeAll(async () => {
    emulator = await startEmulator({rateLimit: '4/3s', quiet: false})
    orderIds = (await listAll(emulator.production, '/orders/')).map((o) => o.id)
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('waits out the 429s it draws and completes the export exactly (exit 0)', async () => {
    const log = await logFrom(emulator)
    // 6 pages of 10: more than the 4 requests one window allows.
    const r = await runCli(['orders', 'list', '--all', '--limit', '10', '-o', 'jsonl'], {env: env()})
    expect(r.code, r.stderr).toBe(0)
    expect(jsonlIds(r.stdout)).toEqual(orderIds)
    const requests = log().filter((q) => q.path.startsWith('/v1/orders/') && /[?&]limit=10(&|$)/.test(q.path))
    const limited = requests.filter((q) => q.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    // Each page was answered once: a 429 is retried, a success never repeated.
    const answered = requests.filter((q) => q.status === 200).map((q) => q.path)
    expect(answered.sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `/v1/orders/?page=${n}&limit=10`).sort())
    // One plain line per wait on a non-TTY stderr, nothing else.
    const lines = linesOf(r.stderr)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.length).toBeLessThanOrEqual(limited.length)
    for (const line of lines) expect(line).toMatch(WAIT_LINE)
    expect(r.stderr).not.toContain('\r')
    expect(r.ms).toBeGreaterThanOrEqual(900)
  })

  it('exits 5 when --max-wait is shorter than the wait the API asks for', async () => {
    // 60 pages of 1: the window is used up at once, and a wait of up to 3 s is more than 1 s allows.
    const r = await runCli(['orders', 'list', '--all', '--limit', '1', '-o', 'jsonl', '--max-wait', '1'], {env: env()})
    expect(r.code, r.stderr).toBe(5)
    expect(r.stderr).toMatch(/^Error: the API is still rate limiting after waiting \d+s \(it asks for [1-3]s more\)$/m)
    expect(r.stderr).toMatch(/^Hint: .*--max-wait/m)
    // It gave up well before reading the 60 pages.
    expect(linesOf(r.stdout).length).toBeLessThan(60)
    expect(r.ms).toBeLessThan(scaled(15_000))
  })

  it('--max-wait 0 gives up at the first 429', async () => {
    const log = await logFrom(emulator)
    const r = await runCli(['orders', 'list', '--all', '--limit', '1', '-o', 'jsonl', '--max-wait', '0'], {env: env()})
    expect(r.code, r.stderr).toBe(5)
    expect(r.stderr).not.toMatch(/Rate limited by the API/)
    expect(log().filter((q) => q.status === 429).length).toBeGreaterThan(0)
  })

  it('on a TTY the wait is a countdown on stderr that is cleared afterwards', async () => {
    const r = await runTty(`${TILL} orders list --all --limit 10 --columns id`, {env: env()})
    expect(r.code, r.stdout).toBe(0)
    expect(r.stdout).toMatch(/\rRate limited by the API; retrying in [1-3]s… /)
    expect(r.stdout).toContain('\r\x1b[2K')
    // The table still arrives whole: a header and the 60 ids.
    const ids = linesOf(
      stripAnsi(r.stdout)
        .replace(/\r[^\n]*?… ?/g, '')
        .replaceAll('\r', ''),
    )
      .map((l) => l.trim())
      .filter((l) => /^[0-9a-f-]{36}$/.test(l))
    expect(ids).toEqual(orderIds)
  })

  it('the token is not in any of these outputs, nor in a --debug trace of waits', async () => {
    // the window of 4 requests filled just before, so that the command surely draws a 429 and waits,
    // however slowly a busy machine starts it
    for (let i = 0; i < 4; i++) await api(emulator.production, 'GET', '/orders/?limit=1')
    const r = await runCli(['orders', 'list', '--all', '--limit', '10', '-o', 'jsonl', '--debug'], {env: env()})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/^\[debug\]\s+rate limited: waiting \d+ms \(Retry-After\)$/m)
    expectNoToken(r.stdout + r.stderr, emulator.production.token)
  })
})
