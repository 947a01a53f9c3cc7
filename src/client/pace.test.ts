import {mkdtempSync, readFileSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {delayFor, hold, holdFor, holdKey, marginMs, moveEntry, Pacer, record, type Budget, type Held, type PaceState} from './pace.js'

const perTwoSeconds: Budget = {name: 'minute', limit: 20, windowMs: 2000}
const perSecond: Budget = {name: 'ip', limit: 5, windowMs: 1000}

/** A fake clock whose sleep advances time, so pacing runs instantly and deterministically. */
function fakeTime(start = 1_000_000) {
  let t = start
  const sleeps: number[] = []
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      t += ms
    },
    sleeps,
  }
}

/** Largest number of sends inside any interval of `windowMs`. */
function maxInAnyWindow(times: number[], windowMs: number): number {
  let best = 0
  for (let i = 0; i < times.length; i++) {
    let n = 0
    for (let j = i; j < times.length && times[j]! < times[i]! + windowMs; j++) n++
    best = Math.max(best, n)
  }
  return best
}

describe('delayFor and record', () => {
  it('lets the limit through, then waits until the oldest send leaves the window', () => {
    const state: PaceState = {}
    for (let i = 0; i < 20; i++) {
      expect(delayFor(state, [perTwoSeconds], 1000 + i)).toBe(0)
      record(state, [perTwoSeconds], 1000 + i)
    }
    expect(delayFor(state, [perTwoSeconds], 1500)).toBe(1000 + 2000 + marginMs(perTwoSeconds) - 1500)
  })

  it('keeps no more history than the limits need', () => {
    const state: PaceState = {}
    for (let i = 0; i < 100; i++) record(state, [perSecond], i)
    expect(state.ip).toHaveLength(5)
  })
})

describe('Pacer', () => {
  it('never exceeds any budget in any window over a long run', async () => {
    const time = fakeTime()
    const pacer = new Pacer({now: time.now, sleep: time.sleep})
    const sent: number[] = []
    for (let i = 0; i < 200; i++) {
      await pacer.acquire([perTwoSeconds, perSecond])
      sent.push(time.now())
    }
    expect(maxInAnyWindow(sent, 2000)).toBeLessThanOrEqual(20)
    expect(maxInAnyWindow(sent, 1000)).toBeLessThanOrEqual(5)
    // and it does not crawl: 200 requests at 5/s take about 40 s, not much more
    expect(sent.at(-1)! - sent[0]!).toBeLessThan(45_000)
  })

  it('tells about each wait with the budget that caused it', async () => {
    const time = fakeTime()
    const waits: Array<[number, string]> = []
    const pacer = new Pacer({now: time.now, sleep: time.sleep, onWait: (ms, name) => waits.push([ms, name])})
    for (let i = 0; i < 6; i++) await pacer.acquire([perSecond])
    expect(waits).toHaveLength(1)
    expect(waits[0]![1]).toBe('ip')
    expect(waits[0]![0]).toBe(1000 + marginMs(perSecond))
  })

  it('tells how many of the requests a wait is for were sent by others sharing the state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-pace-'))
    const time = fakeTime()
    const statePath = join(dir, 'pace', 'local.json')
    const waits: Array<[string, number]> = []
    const pacer = (who: string) => new Pacer({statePath, now: time.now, sleep: time.sleep, onWait: (_ms, _name, others) => waits.push([who, others])})
    const [exporter, interactive] = [pacer('exporter'), pacer('interactive')]
    for (let i = 0; i < 5; i++) {
      await exporter.acquire([perSecond])
      await time.sleep(10)
    }
    // the export is done: the interactive command waits behind its five requests, and is told whose they are
    await interactive.acquire([perSecond])
    expect(waits).toEqual([['interactive', 5]])
    // its own requests are its own: a pacer alone counts no others
    const alone = new Pacer({now: time.now, sleep: time.sleep, onWait: (_ms, _name, others) => waits.push(['alone', others])})
    for (let i = 0; i < 6; i++) await alone.acquire([perSecond])
    expect(waits.at(-1)).toEqual(['alone', 0])
  })

  it('shares one log between pacers on the same state file (as separate processes do)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-pace-'))
    const time = fakeTime()
    const statePath = join(dir, 'pace', 'local.json')
    const a = new Pacer({statePath, now: time.now, sleep: time.sleep})
    const b = new Pacer({statePath, now: time.now, sleep: time.sleep})
    const sent: number[] = []
    for (let i = 0; i < 30; i++) {
      await (i % 2 === 0 ? a : b).acquire([perSecond])
      sent.push(time.now())
    }
    expect(maxInAnyWindow(sent, 1000)).toBeLessThanOrEqual(5)
    expect(time.sleeps.length).toBeGreaterThan(0)
  })
})

describe('the shared state file', () => {
  it('is rewritten in place: it shrinks as the log forgets, stays whole JSON, and is private (0600)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-pace-'))
    const time = fakeTime()
    const statePath = join(dir, 'pace', 'local.json')
    const pacer = new Pacer({statePath, now: time.now, sleep: time.sleep})
    const hour: Budget = {name: 'hour', limit: 50, windowMs: 3_600_000}
    for (let i = 0; i < 40; i++) await pacer.acquire([hour, perSecond])
    const long = readFileSync(statePath, 'utf8')
    expect((JSON.parse(long) as PaceState).hour).toHaveLength(40)
    // a day later the hour's log is forgotten: the next write is shorter than the file it overwrites
    await time.sleep(86_400_000)
    await pacer.acquire([hour, perSecond])
    const short = readFileSync(statePath, 'utf8')
    expect(short.length).toBeLessThan(long.length)
    expect(JSON.parse(short)).toEqual({hour: [time.now()], ip: [time.now()]})
    expect(statSync(statePath).mode & 0o777).toBe(0o600)
  })
})

describe('settling a request at its answer', () => {
  it('moves the entry to the later time and keeps the log sorted', () => {
    const state: PaceState = {ip: [100, 200, 300]}
    moveEntry(state, [perSecond], 100, 250)
    expect(state.ip).toEqual([200, 250, 300])
  })

  it('makes the next window start from when the server had certainly counted the request', async () => {
    const time = fakeTime()
    const pacer = new Pacer({now: time.now, sleep: time.sleep})
    const tickets = []
    for (let i = 0; i < 5; i++) tickets.push(await pacer.acquire([perSecond]))
    const counted = time.now()
    await time.sleep(300) // the answers came 300 ms later (start-up, connection, load)
    for (const t of tickets) await pacer.settle(t)
    await pacer.acquire([perSecond])
    // without settling, the 6th request could go at counted + 1000 + margin; now it waits for the answer time
    expect(time.now()).toBe(counted + 300 + 1000 + marginMs(perSecond))
  })
})

const licenseKeys: Budget = {name: 'license-keys', limit: 3, windowMs: 1000}

describe('holds: what a 429 taught', () => {
  it('holds the refused budgets until the deadline, never shortens it, and forgets it once passed', () => {
    const state: PaceState = {}
    hold(state, [perTwoSeconds, perSecond], 5000)
    hold(state, [perSecond, perTwoSeconds], 4000) // an earlier deadline for the same budgets, in another order
    expect(state[holdKey([perTwoSeconds, perSecond])]).toEqual([5000])
    expect(holdFor(state, [perTwoSeconds, perSecond], 1000)).toBe(4000)
    expect(holdFor(state, [perTwoSeconds, perSecond], 5000)).toBe(0)
    expect(Object.keys(state)).toEqual([])
  })

  it('covers requests counted against all the refused budgets, not those sharing only some', () => {
    const state: PaceState = {}
    hold(state, [perTwoSeconds, perSecond, licenseKeys], 3000) // the 3/s route refused
    expect(holdFor(state, [perTwoSeconds, perSecond], 1000)).toBe(0)
    expect(holdFor(state, [perTwoSeconds, perSecond, licenseKeys], 1000)).toBe(2000)
    hold(state, [perTwoSeconds, perSecond], 2000) // an ordinary route refused: the key route is held too
    expect(holdFor(state, [perTwoSeconds, perSecond], 1000)).toBe(1000)
    expect(holdFor(state, [licenseKeys, perSecond, perTwoSeconds], 1000)).toBe(2000)
  })

  it('ignores a damaged hold', () => {
    const state = {[holdKey([perSecond])]: ['soon'], [`${holdKey([perTwoSeconds])}`]: [Number.NaN]} as unknown as PaceState
    expect(holdFor(state, [perSecond, perTwoSeconds], 1000)).toBe(0)
  })

  it("makes another pacer on the same state file wait out the deadline, told it is another's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-pace-'))
    const time = fakeTime()
    const statePath = join(dir, 'pace', 'local.json')
    const refused = new Pacer({statePath, now: time.now, sleep: time.sleep})
    const other = new Pacer({statePath, now: time.now, sleep: time.sleep})
    await refused.acquire([perTwoSeconds, perSecond])
    const deadline = time.now() + 7000
    await refused.hold([perTwoSeconds, perSecond], deadline)
    const told: Array<[number, boolean]> = []
    const gate = ({ms, own}: Held) => void told.push([ms, own])
    const ticket = await other.acquire([perSecond, perTwoSeconds], gate)
    expect(ticket.at).toBe(deadline)
    expect(told).toEqual([[7000, false]])
    // the refused pacer itself, asked at the same moment, is told the hold is its own
    const time2 = fakeTime()
    const own = new Pacer({statePath: join(dir, 'pace', 'own.json'), now: time2.now, sleep: time2.sleep})
    await own.hold([perSecond], time2.now() + 1500)
    await own.acquire([perSecond], gate)
    expect(told.at(-1)).toEqual([1500, true])
  })

  it('lets the gate give up without waiting or counting the request', async () => {
    const time = fakeTime()
    const pacer = new Pacer({now: time.now, sleep: time.sleep})
    await pacer.hold([perSecond], time.now() + 30_000)
    const tooLong = new Error('past --max-wait')
    await expect(
      pacer.acquire([perSecond], () => {
        throw tooLong
      }),
    ).rejects.toBe(tooLong)
    expect(time.sleeps).toEqual([])
    // nothing was counted: five requests still fit the second once the hold has passed
    await time.sleep(30_000)
    for (let i = 0; i < 5; i++) await pacer.acquire([perSecond])
    expect(time.sleeps).toEqual([30_000])
  })

  it('waits out its own 429s even with no budgets to pace', async () => {
    const time = fakeTime()
    const pacer = new Pacer({now: time.now, sleep: time.sleep})
    const start = time.now()
    await pacer.hold([], start + 2000)
    const told: Array<[number, boolean]> = []
    const ticket = await pacer.acquire([], ({ms, own}) => void told.push([ms, own]))
    expect(ticket.at).toBe(start + 2000)
    expect(told).toEqual([[2000, true]])
  })
})
