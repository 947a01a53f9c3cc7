// Webhook events over real HTTP (server/polar/webhook/service.py): Standard Webhooks signatures that a
// stock verifier accepts, events for order creation, payment and refund, retries with the same
// webhook-id and exponential backoff (10 attempts at most), and --forward-to.
import {Webhook} from 'standardwebhooks'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, sleep, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {buy, buyableProduct, cleanup, launch, startReceiver, waitFor, type Launched, type Received, type Receiver} from './spawn.js'
import {scaled} from '../helpers/machine.js'

const PAYMENT_DELAY_MS = 300
const BACKOFF_MS = 3
const ORDER_EVENTS = ['order.created', 'order.paid', 'order.updated', 'refund.created']
const HOLD_MS = 600
const HELD_EMAIL = 'ordered.first@example.com'

/** The stock verifier, given the secret as the emulator shows it (new endpoints sign the Standard Webhooks way). */
const verifier = (secret: string) => new Webhook(secret)

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
})

/** Verifies `r` with `secret` (throws when the signature is wrong) and returns the parsed payload. */
function verified(r: Received, secret: string): Json {
  return verifier(secret).verify(r.body, headersOf(r))
}

const typeOf = (r: Received) => JSON.parse(r.body).type as string
const dataOf = (r: Received) => JSON.parse(r.body).data as Json

describe('webhook deliveries', () => {
  let receiver: Receiver
  let emulator: Launched
  let env: EnvHandle
  const endpoints: Record<string, {id: string; secret: string}> = {}
  const failuresSoFar = new Map<string, number>()

  beforeAll(async () => {
    receiver = await startReceiver((r) => {
      if (r.path === '/down') return 500
      if (r.path === '/flaky') {
        const id = String(r.headers['webhook-id'])
        const n = failuresSoFar.get(id) ?? 0
        failuresSoFar.set(id, n + 1)
        return n < 2 ? 500 : 200
      }
      // The ordering test's first customer.created is answered slowly: its delivery stays pending for HOLD_MS.
      if (r.path === '/ordered' && JSON.parse(r.body).data.email === HELD_EMAIL) return sleep(HOLD_MS).then(() => 200)
      return 200
    })
    emulator = await launch([
      '--rate-limit',
      'off',
      '--payment-delay',
      `${PAYMENT_DELAY_MS}ms`,
      '--webhook-backoff',
      `${BACKOFF_MS}ms`,
      '--forward-to',
      `${receiver.url}/forward`,
    ])
    env = emulator.production
    const subscriptions: Record<string, string[]> = {good: ORDER_EVENTS, flaky: ['product.created'], down: ['product.updated'], ordered: ['customer.created']}
    for (const [name, events] of Object.entries(subscriptions)) {
      const res = await api(env, 'POST', '/webhooks/endpoints', {body: {url: `${receiver.url}/${name}`, format: 'raw', events}})
      expect(res.status, brief(res)).toBe(201)
      expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(res.body.events).toEqual(events)
      endpoints[name] = {id: res.body.id, secret: res.body.secret}
    }
  })

  afterAll(async () => {
    await cleanup()
    await receiver?.close()
  })

  const at = (path: string) => receiver.received.filter((r) => r.path === path)
  const deliveries = (endpointId: string, extra = '') => listAll(env, '/webhooks/deliveries', `endpoint_id=${endpointId}${extra}`)

  it('order creation, payment and refund arrive signed; the stock standardwebhooks verifier accepts them', async () => {
    const product = await buyableProduct(env)
    const checkoutId = await buy(env, product.id, 'webhook.buyer@example.com')
    const created = await waitFor('order.created', () => at('/good').find((r) => typeOf(r) === 'order.created' && dataOf(r).checkout_id === checkoutId))
    const orderId = dataOf(created).id as string
    expect(dataOf(created).status).toBe('pending')
    const paid = await waitFor('order.paid', () => at('/good').find((r) => typeOf(r) === 'order.paid' && dataOf(r).id === orderId))
    expect(dataOf(paid)).toMatchObject({id: orderId, status: 'paid', paid: true, checkout_id: checkoutId})
    const updated = await waitFor('order.updated (paid)', () =>
      at('/good').find((r) => typeOf(r) === 'order.updated' && dataOf(r).id === orderId && dataOf(r).status === 'paid'),
    )
    expect(at('/good').indexOf(created)).toBeLessThan(at('/good').indexOf(paid))

    const amount = Math.floor(product.price / 2)
    const refund = await api(env, 'POST', '/refunds/', {body: {order_id: orderId, reason: 'customer_request', amount}})
    expect(refund.status, brief(refund)).toBe(201)
    const refunded = await waitFor('refund.created', () => at('/good').find((r) => typeOf(r) === 'refund.created' && dataOf(r).id === refund.body.id))
    expect(dataOf(refunded)).toMatchObject({id: refund.body.id, order_id: orderId, amount, reason: 'customer_request'})
    await waitFor('order.updated (refund)', () =>
      at('/good').find((r) => typeOf(r) === 'order.updated' && dataOf(r).id === orderId && dataOf(r).refunded_amount === amount),
    )

    const secret = endpoints.good!.secret
    const mine = at('/good').filter((r) => dataOf(r).id === orderId || dataOf(r).order_id === orderId)
    expect(mine.length).toBeGreaterThanOrEqual(5)
    const nowSeconds = Date.now() / 1000
    for (const r of [created, paid, updated, refunded, ...mine]) {
      const payload = verified(r, secret)
      expect(payload).toEqual(JSON.parse(r.body))
      // SDK 1.0.1's payload types: the body names the endpoint's payload version (2026-10 by default)
      expect(Object.keys(payload).sort()).toEqual(['api_version', 'data', 'timestamp', 'type'])
      expect(payload.api_version).toBe('2026-10')
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp)
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
      expect(r.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/)
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - nowSeconds)).toBeLessThan(60)
      expect(r.headers['content-type']).toBe('application/json')
      expect(r.headers['user-agent']).toBe('polar.sh webhooks')
    }
    // One event, one id.
    expect(new Set([created, paid, updated, refunded].map((r) => r.headers['webhook-id'])).size).toBe(4)
    // Only subscribed types arrive (order.refunded, checkout.* and product.* were not asked for).
    for (const r of at('/good')) expect(ORDER_EVENTS).toContain(typeOf(r))

    // Negative controls: another endpoint's secret, a changed body, and the old trick (base64 of the whole
    // secret, the legacy key) all fail.
    expect(() => verified(paid, endpoints.flaky!.secret)).toThrow()
    expect(() => verifier(secret).verify(paid.body.replace('"paid"', '"void"'), headersOf(paid))).toThrow()
    expect(() => new Webhook(Buffer.from(secret, 'utf8').toString('base64')).verify(paid.body, headersOf(paid))).toThrow()

    const recorded = await waitFor('the deliveries of these events', async () => {
      const list = await deliveries(endpoints.good!.id)
      const ids = new Set(list.map((d: Json) => d.webhook_event.id))
      return [created, paid, updated, refunded].every((r) => ids.has(r.headers['webhook-id'])) && list
    })
    for (const d of recorded) {
      expect(d).toMatchObject({succeeded: true, http_code: 200, attempt: 1, webhook_endpoint_id: endpoints.good!.id})
      expect(ORDER_EVENTS).toContain(d.webhook_event.type)
    }
  })

  it('a receiver that fails twice gets the same event three times (same webhook-id, same body); deliveries show both failures and the success', async () => {
    const res = await api(env, 'POST', '/products/', {body: {name: 'Retried Event Product', prices: [{amount_type: 'fixed', price_amount: 2500}]}})
    expect(res.status, brief(res)).toBe(201)
    const ofProduct = () => at('/flaky').filter((r) => dataOf(r).id === res.body.id)
    const tries = await waitFor('three attempts', () => ofProduct().length >= 3 && ofProduct())
    expect(tries.map((r) => r.status)).toEqual([500, 500, 200])
    const eventId = String(tries[0]!.headers['webhook-id'])
    for (const r of tries) {
      expect(r.headers['webhook-id']).toBe(eventId)
      expect(r.body).toBe(tries[0]!.body)
      expect(verified(r, endpoints.flaky!.secret)).toMatchObject({type: 'product.created', data: {id: res.body.id, name: 'Retried Event Product'}})
    }

    const list = await waitFor('three recorded deliveries', async () => {
      const all = (await deliveries(endpoints.flaky!.id)).filter((d: Json) => d.webhook_event.id === eventId)
      return all.length >= 3 && all
    })
    const byAttempt = [...list].sort((a, b) => a.attempt - b.attempt)
    expect(byAttempt.map((d) => [d.attempt, d.succeeded, d.http_code])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ])
    for (const d of byAttempt) expect(d.webhook_event).toMatchObject({id: eventId, type: 'product.created', succeeded: true, last_http_code: 200})
    const failed = await deliveries(endpoints.flaky!.id, '&succeeded=false')
    expect(
      failed
        .filter((d: Json) => d.webhook_event.id === eventId)
        .map((d: Json) => d.attempt)
        .sort(),
    ).toEqual([1, 2])
    const succeeded = await deliveries(endpoints.flaky!.id, '&succeeded=true')
    expect(succeeded.filter((d: Json) => d.webhook_event.id === eventId).map((d: Json) => d.attempt)).toEqual([3])

    await sleep(200)
    expect(ofProduct()).toHaveLength(3)
  })

  it('POST /webhooks/events/{id}/redeliver answers 202 and sends the same event again (same webhook-id and body)', async () => {
    const original = at('/flaky').find((r) => r.status === 200)!
    expect(original).toBeDefined()
    const eventId = String(original.headers['webhook-id'])
    const before = at('/flaky').filter((r) => r.headers['webhook-id'] === eventId).length
    const res = await api(env, 'POST', `/webhooks/events/${eventId}/redeliver`)
    expect(res.status, brief(res)).toBe(202)
    const again = await waitFor('the redelivery', () => at('/flaky').filter((r) => r.headers['webhook-id'] === eventId)[before])
    expect(again.body).toBe(original.body)
    expect(verified(again, endpoints.flaky!.secret).type).toBe('product.created')
    const recorded = await waitFor('the redelivery recorded', async () => {
      const list = (await deliveries(endpoints.flaky!.id)).filter((d: Json) => d.webhook_event.id === eventId)
      return list.length === before + 1 && list
    })
    expect(recorded.filter((d: Json) => d.succeeded)).toHaveLength(2)
  })

  it(
    'a receiver that always fails gets 10 attempts in all, the waits doubling from --webhook-backoff',
    async () => {
      const product = (await api(env, 'GET', '/products/?limit=1&is_archived=false')).body.items[0]
      const res = await api(env, 'PATCH', `/products/${product.id}`, {body: {description: 'updated to raise product.updated'}})
      expect(res.status, brief(res)).toBe(200)
      const ofProduct = () => at('/down').filter((r) => dataOf(r).id === product.id)
      const tries = await waitFor('ten attempts', () => ofProduct().length >= 10 && ofProduct(), 20_000)
      const eventId = tries[0]!.headers['webhook-id']
      for (const r of tries) expect(r.headers['webhook-id']).toBe(eventId)
      for (let n = 1; n < 10; n++) {
        const gap = tries[n]!.at - tries[n - 1]!.at
        expect(gap, `wait before attempt ${n + 1}`).toBeGreaterThanOrEqual(BACKOFF_MS * 2 ** (n - 1) - 2)
      }
      // An 11th attempt would come 1.5 to 1.9 s after the 10th; none does.
      await sleep(BACKOFF_MS * 2 ** 9 * 1.25 + 500)
      expect(ofProduct()).toHaveLength(10)
      const list = (await deliveries(endpoints.down!.id)).filter((d: Json) => d.webhook_event.id === eventId)
      expect(list.map((d: Json) => d.attempt).sort((a: number, b: number) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      for (const d of list) expect(d).toMatchObject({succeeded: false, http_code: 500})
    },
    scaled(30_000),
  )

  it('per endpoint, an earlier pending event goes first: a later event waits while the earlier one is still being delivered', async () => {
    const create = (email: string) => api(env, 'POST', '/customers/', {body: {email, name: 'Ordered Event'}})
    const first = await create(HELD_EMAIL)
    expect(first.status, brief(first)).toBe(201)
    const a = await waitFor('the first customer.created to arrive', () => at('/ordered').find((r) => dataOf(r).id === first.body.id))
    const second = await create('ordered.second@example.com')
    expect(second.status, brief(second)).toBe(201)
    const b = await waitFor('the second customer.created', () => at('/ordered').find((r) => dataOf(r).id === second.body.id), 5000)
    await waitFor('the first delivery to be answered', () => a.answeredAt > 0)
    expect(a.status).toBe(200)
    const overlap = a.answeredAt - b.at
    expect(overlap, `the later event arrived ${overlap.toFixed(0)} ms before the earlier one's delivery was answered`).toBeLessThanOrEqual(0)
    const ids = [first.body.id, second.body.id]
    expect(
      at('/ordered')
        .map((r) => dataOf(r).id)
        .filter((id) => ids.includes(id)),
    ).toEqual(ids)
  })

  it('--forward-to receives every event, signed with the printed secret', async () => {
    expect(emulator.forwardTo?.url).toBe(`${receiver.url}/forward`)
    const secret = emulator.forwardTo!.secret
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const res = await api(env, 'POST', '/products/', {
      body: {name: 'Forwarded Event Product', prices: [{amount_type: 'fixed', price_amount: 0, price_currency: 'usd'}]},
    })
    expect(res.status, brief(res)).toBe(201)
    const forwarded = await waitFor('the forwarded product.created', () =>
      at('/forward').find((r) => typeOf(r) === 'product.created' && dataOf(r).id === res.body.id),
    )
    expect(verified(forwarded, secret)).toMatchObject({type: 'product.created', data: {id: res.body.id, name: 'Forwarded Event Product'}})
    expect(() => verified(forwarded, endpoints.good!.secret)).toThrow()
    // Events no endpoint subscribed to are forwarded too, and every forwarded request verifies.
    const types = new Set(at('/forward').map(typeOf))
    for (const t of ['checkout.created', 'order.created', 'order.paid', 'refund.created', 'product.updated']) expect(types, t).toContain(t)
    for (const r of at('/forward')) expect(verified(r, secret).type).toBe(typeOf(r))
  })
})
