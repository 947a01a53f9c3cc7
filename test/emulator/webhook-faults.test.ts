// Webhook deliveries that misbehave on purpose (--webhook-faults, POST /_emulator/webhooks/endpoints/{id}/faults):
// real receivers on 127.0.0.1 meet a duplicate with the same webhook-id, a reordering, a delay, a failed first
// attempt retried, and a drop recorded as failed; the same seed gives the same faults.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, control, listAll, runTill, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {eventually} from '../helpers/machine.js'
import {startReceiver, type Arrival, type Receiver} from '../helpers/receiver.js'

const email = (prefix: string) => `${prefix}.${Math.random().toString(36).slice(2, 10)}@example.com`
const customerOf = (r: {body: string}) => (JSON.parse(r.body) as {data: {id: string}}).data.id

async function endpoint(env: EnvHandle, url: string, events = ['customer.created']): Promise<Json> {
  const res = await api(env, 'POST', '/webhooks/endpoints', {body: {url, format: 'raw', events}})
  expect(res.status, brief(res)).toBe(201)
  return res.body
}

async function setFaults(env: EnvHandle, id: string, faults: Json): Promise<Json> {
  const res = await control(env, 'POST', `/webhooks/endpoints/${id}/faults`, {body: faults})
  expect(res.status, brief(res)).toBe(200)
  return res.body
}

async function newCustomer(env: EnvHandle, prefix: string): Promise<string> {
  const res = await api(env, 'POST', '/customers/', {body: {email: email(prefix)}})
  expect(res.status, brief(res)).toBe(201)
  return res.body.id
}

const deliveriesOf = (env: EnvHandle, endpointId: string) => listAll(env, '/webhooks/deliveries', `endpoint_id=${endpointId}`)

/** A receiver that counts each order it is told of: once per request, or once per webhook-id. */
function counter(dedupe: boolean) {
  const seen = new Set<string>()
  const counts = new Map<string, number>()
  const answer = (r: Arrival) => {
    const id = String(r.headers['webhook-id'])
    if (dedupe && seen.has(id)) return 200
    seen.add(id)
    const customer = customerOf(r)
    counts.set(customer, (counts.get(customer) ?? 0) + 1)
    return 200
  }
  return {counts, answer}
}

describe('webhook delivery faults of the whole emulator', () => {
  let emulator: Emulator
  let env: EnvHandle
  const naive = counter(false)
  const careful = counter(true)
  let naiveReceiver: Receiver
  let carefulReceiver: Receiver

  beforeAll(async () => {
    emulator = await startEmulator({webhookFaults: 'duplicate=1', webhookBackoff: '50ms', orders: 0, customers: 1, products: 1})
    env = emulator.production
    naiveReceiver = await startReceiver(naive.answer)
    carefulReceiver = await startReceiver(careful.answer)
  })
  afterAll(async () => {
    await emulator?.stop()
    await naiveReceiver?.close()
    await carefulReceiver?.close()
  })

  it('under the duplicate fault a receiver that does not deduplicate double-counts, one that keys on webhook-id does not', async () => {
    const naiveEndpoint = await endpoint(env, `${naiveReceiver.url}/naive`)
    await endpoint(env, `${carefulReceiver.url}/careful`)
    const customers = [await newCustomer(env, 'dup'), await newCustomer(env, 'dup'), await newCustomer(env, 'dup')]
    for (const r of [naiveReceiver, carefulReceiver]) {
      await eventually('each event twice', () => customers.every((c) => r.received.filter((x) => customerOf(x) === c).length === 2))
    }
    // the same event, sent twice with the same webhook-id and the same signed bytes
    for (const c of customers) {
      const twice = carefulReceiver.received.filter((x) => customerOf(x) === c)
      expect(twice[0]!.headers['webhook-id']).toBe(twice[1]!.headers['webhook-id'])
      expect(twice[0]!.body).toBe(twice[1]!.body)
    }
    expect(customers.map((c) => naive.counts.get(c))).toEqual([2, 2, 2])
    expect(customers.map((c) => careful.counts.get(c))).toEqual([1, 1, 1])
    // recorded as the service would: the first attempt's answer lost (failed), the second one succeeded
    const deliveries = await eventually('both attempts recorded', async () => {
      const all = await deliveriesOf(env, naiveEndpoint.id)
      return all.length === 6 && all
    })
    const first = deliveries.filter((d: Json) => d.attempt === 1)
    expect(first.map((d: Json) => [d.succeeded, d.http_code])).toEqual(Array(3).fill([false, 200]))
    expect(first[0].response).toMatch(/duplicate/)
    expect(deliveries.filter((d: Json) => d.attempt === 2 && d.succeeded)).toHaveLength(3)
  })
})

describe('webhook delivery faults of one endpoint', () => {
  let emulator: Emulator
  let env: EnvHandle
  let receiver: Receiver

  beforeAll(async () => {
    emulator = await startEmulator({webhookBackoff: '50ms', orders: 0, customers: 1, products: 1})
    env = emulator.production
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await emulator?.stop()
    await receiver?.close()
  })

  const arrivals = (path: string) => receiver.received.filter((r) => r.path === path)

  it('a drop is never delivered and shows in the deliveries list as failed; other endpoints get the event', async () => {
    const dropped = await endpoint(env, `${receiver.url}/dropped`)
    await endpoint(env, `${receiver.url}/plain`)
    expect(await setFaults(env, dropped.id, {drop: 1})).toMatchObject({drop: 1, duplicate: 0, inherited: false})
    const customer = await newCustomer(env, 'drop')
    await eventually('the plain endpoint to get it', () => arrivals('/plain').some((r) => customerOf(r) === customer))
    const [delivery] = await eventually('the drop recorded', async () => {
      const all = await deliveriesOf(env, dropped.id)
      return all.length > 0 && all
    })
    expect(delivery).toMatchObject({succeeded: false, http_code: null, attempt: 1})
    expect(delivery.response).toMatch(/drop/)
    expect(delivery.webhook_event.succeeded).toBe(false)
    expect(arrivals('/dropped')).toHaveLength(0)
  })

  it('a failed first attempt reaches nobody and is retried on the schedule: delivered once, as attempt 2', async () => {
    const failing = await endpoint(env, `${receiver.url}/fail-first`)
    await setFaults(env, failing.id, {fail_first: 1})
    const customer = await newCustomer(env, 'fail')
    await eventually('the retry to arrive', () => arrivals('/fail-first').some((r) => customerOf(r) === customer))
    const deliveries = await eventually('both attempts recorded', async () => {
      const all = await deliveriesOf(env, failing.id)
      return all.length === 2 && all
    })
    const byAttempt = [...deliveries].sort((a: Json, b: Json) => a.attempt - b.attempt)
    expect(byAttempt.map((d: Json) => [d.attempt, d.succeeded, d.http_code])).toEqual([
      [1, false, null],
      [2, true, 200],
    ])
    expect(arrivals('/fail-first')).toHaveLength(1)
  })

  it('reorder sends an event after the next one; delay holds each first attempt that long, in order', async () => {
    const swapped = await endpoint(env, `${receiver.url}/reorder`, ['customer.created', 'customer.updated'])
    await setFaults(env, swapped.id, {reorder: 1})
    const customer = await newCustomer(env, 'reorder')
    const patched = await api(env, 'PATCH', `/customers/${customer}`, {body: {name: 'Renamed'}})
    expect(patched.status, brief(patched)).toBe(200)
    const types = await eventually('both events', () => {
      const got = arrivals('/reorder').map((r) => (JSON.parse(r.body) as {type: string}).type)
      return got.length === 2 && got
    })
    expect(types).toEqual(['customer.updated', 'customer.created'])

    const delayed = await endpoint(env, `${receiver.url}/delay`)
    expect(await setFaults(env, delayed.id, {delay: '400ms'})).toMatchObject({delay_ms: 400})
    const started = performance.now()
    const late = await newCustomer(env, 'delay')
    const arrival = await eventually('the delayed event', () => arrivals('/delay').find((r) => customerOf(r) === late))
    expect(arrival.at - started).toBeGreaterThanOrEqual(400)
  })

  it('refuses faults that are not fractions, and {"inherit": true} goes back to the emulator\'s', async () => {
    const e = await endpoint(env, `${receiver.url}/bad`)
    const bad = await control(env, 'POST', `/webhooks/endpoints/${e.id}/faults`, {body: {duplicate: 2}})
    expect(bad.status, brief(bad)).toBe(422)
    const badDelay = await control(env, 'POST', `/webhooks/endpoints/${e.id}/faults`, {body: {delay: 'soon'}})
    expect(badDelay.status, brief(badDelay)).toBe(422)
    expect(await setFaults(env, e.id, {inherit: true})).toEqual({webhook_endpoint_id: e.id, inherited: true})
  })
})

describe('webhook fault seeds', () => {
  /** The number of requests each of `n` customers' customer.created brought to a receiver, in creation order. */
  async function outcomes(seed: number, n: number): Promise<number[]> {
    const emulator = await startEmulator({
      webhookFaults: 'duplicate=0.4,drop=0.3',
      webhookFaultSeed: seed,
      webhookBackoff: '50ms',
      orders: 0,
      customers: 1,
      products: 1,
    })
    const receiver = await startReceiver()
    try {
      const env = emulator.production
      const made = await endpoint(env, `${receiver.url}/seeded`)
      const customers: string[] = []
      for (let i = 0; i < n; i++) customers.push(await newCustomer(env, 'seed'))
      // every event settled: delivered (after its duplicate, if any) or dropped
      await eventually('every event settled', async () => {
        const all = await deliveriesOf(env, made.id)
        return all.filter((d: Json) => d.succeeded || /drop/.test(d.response ?? '')).length === n
      })
      return customers.map((c) => receiver.received.filter((r) => customerOf(r) === c).length)
    } finally {
      await emulator.stop()
      await receiver.close()
    }
  }

  it('the same seed gives the same faults to the same events; another seed other faults', async () => {
    const first = await outcomes(7, 12)
    expect(await outcomes(7, 12)).toEqual(first)
    // drops, duplicates and plain deliveries all occur
    expect(new Set(first)).toEqual(new Set([0, 1, 2]))
    expect(await outcomes(8, 12)).not.toEqual(first)
  })
})

describe('till emulator start --webhook-faults', () => {
  it('refuses a fault it does not know with one line and exit 2', async () => {
    const run = await runTill(['emulator', 'start', '--port', '0', '--webhook-faults', 'duplicate=0.2,lose=1'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--webhook-faults: "lose=1" is not a fault/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })
})
