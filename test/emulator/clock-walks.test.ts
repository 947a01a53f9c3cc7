// The clock's walk against real emulator processes on one data folder: a walk killed with SIGKILL keeps its
// events exactly with its renewals (never twice after the next walk), two walks at once never move the clock
// back, and a long walk lets the emulator answer other requests and stops when its client goes away.
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {request} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {api, control, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {eventually, scaled} from '../helpers/machine.js'

/** A clock advance sent with node:http, so that the test can hang up on it. */
function walk(env: EnvHandle, body: Json): {answer: Promise<{status: number; body: Json}>; hangUp: () => void} {
  const payload = JSON.stringify(body)
  const req = request(`${new URL(env.url).origin}/_emulator/clock/advance`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${env.token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
    },
  })
  const answer = new Promise<{status: number; body: Json}>((resolve, reject) => {
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c: string) => (text += c))
      res.on('end', () => resolve({status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null}))
    })
    req.on('error', reject)
  })
  req.end(payload)
  return {answer, hangUp: () => req.destroy()}
}

const logSize = (dir: string) => {
  try {
    return statSync(join(dir, 'production.json.log.events')).size
  } catch {
    return 0
  }
}

const clockOf = async (env: EnvHandle): Promise<Json> => {
  const r = await control(env, 'GET', 'clock')
  expect(r.status, r.text).toBe(200)
  return r.body
}

describe('the clock walk against processes on one data folder', {timeout: scaled(180_000)}, () => {
  const running: Emulator[] = []
  const dirs: string[] = []
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-clock-walks-'))
    dirs.push(dir)
    return dir
  }
  const start = async (dataDir: string) => {
    const e = await startEmulator({process: true, dataDir})
    running.push(e)
    return e
  }
  afterEach(async () => {
    for (const e of running.splice(0)) await e.stop()
    for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
  })

  it('a walk killed with SIGKILL keeps its events exactly with its renewals; the next makes none twice', async () => {
    const dir = folder()
    const first = await start(dir)
    const t0 = Date.parse((await clockOf(first.production)).now)
    const before = logSize(dir)
    const long = walk(first.production, {duration: '100y', far: true})
    long.answer.catch(() => {})
    // well under way: many renewals' system events written
    await eventually('the walk to be under way', () => logSize(dir) > before + 400_000, 60_000)
    process.kill(first.pid!, 'SIGKILL')
    expect((await first.stop()).signal).toBe('SIGKILL')

    const again = await start(dir)
    const next = await control(again.production, 'POST', 'clock/advance', {body: {duration: '1y'}})
    expect(next.status, next.text).toBe(200)
    const events = await listAll(again.production, '/events/', 'name=subscription.cycled&source=system')
    const cycled = events.filter((e: Json) => Date.parse(e.timestamp) >= t0)
    const keys = cycled.map((e: Json) => `${e.metadata.subscription_id}@${Date.parse(e.timestamp)}`)
    expect(keys.length).toBeGreaterThan(100)
    expect(keys.length - new Set(keys).size, 'subscription.cycled events made twice').toBe(0)
    // one subscription.cycled for each renewal the store holds (its order made at the period's start)
    const renewals = (await listAll(again.production, '/orders/', `created_after=${new Date(t0).toISOString()}`))
      .filter((o: Json) => o.billing_reason === 'subscription_cycle')
      .map((o: Json) => `${o.subscription_id}@${Date.parse(o.created_at)}`)
    expect(new Set(keys)).toEqual(new Set(renewals))
  })

  it('a walk started while another walks from the same folder never moves the clock back', async () => {
    const dir = folder()
    const [a, b] = [await start(dir), await start(dir)]
    const before = logSize(dir)
    const long = walk(a.production, {duration: '30y', far: true})
    await eventually('the first walk to be under way', () => logSize(dir) > before + 100_000, 60_000)
    const short = await control(b.production, 'POST', 'clock/advance', {body: {duration: '1d'}})
    expect(short.status, short.text).toBe(200)
    const done = await long.answer
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    // the short walk started where the long one had got to, inside its own write
    expect(Date.parse(short.body.from)).toBeGreaterThan(Date.parse(done.body.from))
    for (const e of [a, b]) {
      const clock = await clockOf(e.production)
      expect(Date.parse(clock.settled_to)).toBeGreaterThanOrEqual(Date.parse(done.body.to))
      expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(Date.parse(done.body.to))
    }
  })

  it('a long walk lets other requests be answered, and stops when its client goes away, keeping its legs', async () => {
    const dir = folder()
    const e = await start(dir)
    const target = Date.parse((await clockOf(e.production)).now) + 60 * 365 * 86_400_000
    const before = logSize(dir)
    const long = walk(e.production, {duration: '60y', far: true})
    long.answer.catch(() => {})
    await eventually('the walk to be under way', () => logSize(dir) > before + 100_000, 30_000)
    const products = await api(e.production, 'GET', '/products/?limit=5')
    expect(products.status, products.text).toBe(200)
    // answered while the walk still runs
    const during = await clockOf(e.production)
    expect(during.walking).toBe(true)
    expect(Date.parse(during.settled_to)).toBeLessThan(target)

    long.hangUp()
    const stopped = await eventually(
      'the walk to stop',
      async () => {
        const c = await clockOf(e.production)
        return c.walking === false && c
      },
      30_000,
    )
    expect(Date.parse(stopped.settled_to)).toBeLessThan(target - 365 * 86_400_000)
    // what it settled is kept and consistent: the next walk starts where it stopped
    const next = await control(e.production, 'POST', 'clock/advance', {body: {duration: '1d'}})
    expect(next.status, next.text).toBe(200)
    expect(Date.parse(next.body.from)).toBeGreaterThanOrEqual(Date.parse(stopped.settled_to))
  })
})
