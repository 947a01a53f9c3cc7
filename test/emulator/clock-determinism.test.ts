// Advancing the emulator's clock is deterministic. Two emulators on copies of one store, their
// wall clocks standing at the same moment, walk the same steps (a date, a duration, until the next event of
// a kind): they answer the same, end with the same orders, subscriptions and checkouts, and their webhook
// endpoints receive the same events (ids, types, timestamps, bodies) in the same order, that of time.
import {cpSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, control, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {eventually, scaled} from '../helpers/machine.js'
import {startReceiver, type Receiver} from '../helpers/receiver.js'

const NOW = Date.parse('2026-11-28T12:00:00Z')
/** The events the endpoint is registered for: what the clock's walk sends over a year. */
const TYPES = [
  'order.created',
  'order.paid',
  'subscription.cycled',
  'subscription.updated',
  'subscription.canceled',
  'subscription.revoked',
  'subscription.past_due',
  'checkout.expired',
  'benefit_grant.revoked',
]

/** What an endpoint got, as compared: the event's id and its body. */
interface Got {
  id: string
  body: Json
}

const gotOf = (r: Receiver): Got[] => r.received.map((q) => ({id: String(q.headers['webhook-id']), body: JSON.parse(q.body) as Json}))

describe('the clock walks the same way twice', {timeout: scaled(120_000)}, () => {
  const dirs: string[] = []
  const emulators: Emulator[] = []
  const receivers: Receiver[] = []

  beforeAll(async () => {
    // one store, with a webhook endpoint for every event; then a copy of it
    const first = mkdtempSync(join(tmpdir(), 'till-clock-a-'))
    const hooks = [await startReceiver(), await startReceiver()]
    receivers.push(...hooks)
    const setup = await startEmulator({dataDir: first, now: NOW})
    const endpoint = await api(setup.production, 'POST', '/webhooks/endpoints', {body: {url: hooks[0]!.url, format: 'raw', events: TYPES}})
    expect(endpoint.status, endpoint.text).toBe(201)
    await setup.stop()
    const second = mkdtempSync(join(tmpdir(), 'till-clock-b-'))
    cpSync(first, second, {recursive: true})
    dirs.push(first, second)
    for (const [i, dir] of dirs.entries()) {
      const emulator = await startEmulator({dataDir: dir, now: NOW})
      emulators.push(emulator)
      // each copy's endpoint sends to its own receiver (the same endpoint id and secret in both)
      const patched = await api(emulator.production, 'PATCH', `/webhooks/endpoints/${endpoint.body.id}`, {body: {url: hooks[i]!.url}})
      expect(patched.status, patched.text).toBe(200)
    }
  })
  afterAll(async () => {
    for (const e of emulators) await e.stop()
    for (const r of receivers) await r.close()
    for (const dir of dirs) rmSync(dir, {recursive: true, force: true})
  })

  it('the same store and the same steps give the same answers, objects and events, in time order', async () => {
    const steps = [{until_next: 'subscription.revoked'}, {to: '2027-01-10'}, {duration: '1mo'}, {duration: '10d'}]
    const answers: Json[][] = [[], []]
    for (const step of steps) {
      for (const [i, emulator] of emulators.entries()) {
        const r = await control(emulator.production, 'POST', 'clock/advance', {body: step})
        expect(r.status, r.text).toBe(200)
        answers[i]!.push(r.body)
      }
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]![0]).toMatchObject({found: true})
    const total = answers[0]!.reduce((sum, a) => sum + (a.total_events as number), 0)
    expect(total).toBeGreaterThan(20)
    expect(answers[0]!.map((a) => a.settled as number).reduce((x, y) => x + y)).toBeGreaterThan(10)

    // the same but for each emulator's own address (checkout links)
    const same = (value: unknown, i: number) => JSON.parse(JSON.stringify(value).replaceAll(new URL(emulators[i]!.production.url).origin, 'ORIGIN')) as Json[]
    for (const path of ['/orders/', '/subscriptions/', '/checkouts/']) {
      const [a, b] = (await Promise.all(emulators.map((e) => listAll(e.production, path)))).map(same)
      expect(a!.length, path).toBeGreaterThan(0)
      expect(a, path).toEqual(b)
    }

    // every event that went to the endpoint came, the same in both, one after another in time order
    const sent = (a: Json) => TYPES.reduce((sum, type) => sum + ((a.events as Record<string, number>)[type] ?? 0), 0)
    const expected = answers[0]!.reduce((sum, a) => sum + sent(a), 0)
    await eventually(`${expected} events delivered to both receivers`, () => receivers.every((r) => r.received.length >= expected), 30_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}: ${receivers.map((r) => r.received.length).join(' and ')} came`)
      },
    )
    const [a, b] = receivers.map((r, i) => same(gotOf(r), i) as unknown as Got[])
    expect(a!.length).toBe(expected)
    expect(a).toEqual(b)
    const times = a!.map((e) => Date.parse(e.body.timestamp as string))
    expect(times).toEqual([...times].sort((x, y) => x - y))
    expect(new Set(a!.map((e) => e.id)).size).toBe(a!.length)
  })
})
