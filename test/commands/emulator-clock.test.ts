// The emulator's clock. `till emulator clock advance` walks an environment's time forward and
// settles what falls due at its own moment, as the service does: renewals, a declining card's retries and
// revocation, a trial's first charge, a cancellation at the period's end, metered usage, repeating
// discounts, license keys' expiry, and the metrics over the moved time. And `emulator renew`
// prints one line and refuses a subscription set to cancel at its period's end.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control, sleep, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {scaled, waitUntil} from '../helpers/machine.js'

const DAY = 86_400_000

describe('the emulator clock', () => {
  let emulator: Emulator
  let box: Sandbox
  let receiver: Server
  /** Every webhook event the registered endpoint received, in arrival order. */
  const received: Json[] = []

  const till = (args: string[], stdin?: string) =>
    runInProcess(args, {env: box.env({...envVars(emulator.production), TILL_ENV: 'local'}), timeoutMs: scaled(60_000), input: stdin})
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const json = async (args: string[], stdin?: string): Promise<Json> => {
    const r = await till([...args, '--json'], stdin)
    ok(r)
    return JSON.parse(r.stdout)
  }
  const get = async (path: string): Promise<Json> => {
    const r = await api(emulator.production, 'GET', path)
    expect(r.status, r.text).toBe(200)
    return r.body
  }
  const advance = (...args: string[]) => json(['emulator', 'clock', 'advance', ...args])
  const ms = (iso: string) => Date.parse(iso)

  /** Waits until `pick` finds at least `n` received events. */
  const eventsOf = async (pick: (e: Json) => boolean, n: number): Promise<Json[]> => {
    const deadline = Date.now() + scaled(30_000)
    for (;;) {
      const found = received.filter(pick)
      if (found.length >= n || Date.now() > deadline) return found
      await sleep(50)
    }
  }

  const monthly = async (name: string, extra: string[] = []): Promise<Json> =>
    json(['products', 'create', '--name', `${name} ${Math.random().toString(36).slice(2, 8)}`, '--interval', 'month', '--price', '20', ...extra])

  /** A subscription bought through a checkout, once its first order is paid (and its benefits granted). */
  const subscribe = async (product: Json): Promise<Json> => {
    const k = (await api(emulator.production, 'POST', '/checkouts/', {body: {products: [product.id]}})).body
    const email = `clock-${Math.random().toString(36).slice(2, 10)}@example.com`
    const confirmed = await api(emulator.production, 'POST', `/checkouts/client/${k.client_secret}/confirm`, {
      token: null,
      body: {customer_email: email, customer_name: 'Clock', customer_billing_address: {country: 'US'}},
    })
    expect(confirmed.status, confirmed.text).toBe(200)
    let order: Json
    if (await waitUntil(async () => (order = (await get(`/orders/?checkout_id=${k.id}`)).items[0])?.status === 'paid', 10_000))
      return get(`/subscriptions/${order.subscription_id}`)
    throw new Error(`the order of checkout ${k.id} was not paid`)
  }

  const ordersOf = async (subscriptionId: string): Promise<Json[]> =>
    (await get(`/orders/?subscription_id=${subscriptionId}&limit=100&sorting=created_at`)).items

  beforeAll(async () => {
    emulator = await startEmulator({orders: 20, customers: 10, paymentDelay: '0s'})
    receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push(JSON.parse(body))
        res.end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    const events = ['subscription.cycled', 'subscription.past_due', 'subscription.revoked', 'subscription.canceled', 'order.paid', 'benefit_grant.revoked']
    const endpoint = await api(emulator.production, 'POST', '/webhooks/endpoints', {body: {url, format: 'raw', events}})
    expect(endpoint.status, endpoint.text).toBe(201)
  })
  afterAll(async () => {
    await emulator?.stop()
    await new Promise((r) => receiver?.close(r))
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it(
    'a monthly subscription advanced 12 months has 12 more paid orders and 12 subscription.cycled events, in time order',
    async () => {
      const before = await json(['emulator', 'clock'])
      expect(before).toMatchObject({environment: 'production', now: expect.any(String)})
      const s = await subscribe(await monthly('Year'))
      const result = await advance('1y')
      expect(result).toMatchObject({environment: 'production', from: expect.any(String), to: expect.any(String)})
      expect(ms(result.to) - ms(result.from)).toBeGreaterThanOrEqual(365 * DAY)
      expect(result.events['subscription.cycled']).toBeGreaterThanOrEqual(12)

      const orders = await ordersOf(s.id)
      expect(orders).toHaveLength(13)
      const renewals = orders.filter((o) => o.billing_reason === 'subscription_cycle')
      expect(renewals).toHaveLength(12)
      expect(renewals.every((o) => o.status === 'paid')).toBe(true)
      // each renewal at its own moment: a month after the one before
      const periodEnd = ms(s.current_period_end)
      expect(ms(renewals[0].created_at)).toBe(periodEnd)
      for (let i = 1; i < 12; i++) expect(ms(renewals[i].created_at)).toBeGreaterThan(ms(renewals[i - 1].created_at) + 27 * DAY)

      const cycled = await eventsOf((e) => e.type === 'subscription.cycled' && e.data.id === s.id, 12)
      expect(cycled).toHaveLength(12)
      const stamps = cycled.map((e) => ms(e.timestamp))
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b))
      expect(stamps[0]).toBe(periodEnd)
      // every event arrived in the order of its timestamp
      const all = received.map((e) => ms(e.timestamp))
      expect(all).toEqual([...all].sort((a, b) => a - b))

      const clock = await json(['emulator', 'clock'])
      expect(ms(clock.now)).toBeGreaterThanOrEqual(ms(result.to))
      expect(clock.offset_ms).toBeGreaterThan(364 * DAY)
      const line = await till(['emulator', 'clock'])
      ok(line)
      expect(line.stdout).toMatch(/^production: \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ days ahead of the wall clock; settled up to .*\)\.\n$/)
      // never back past what was settled
      const reset = await till(['emulator', 'clock', 'reset'])
      expect(reset.code).not.toBe(0)
      expect(reset.stderr).toMatch(/settled everything up to .*till emulator reset/)
      const back = await till(['emulator', 'clock', 'advance', '--to', '2020-01-01'])
      expect(back.code).not.toBe(0)
      expect(back.stderr).toMatch(/only moves forward/)
    },
    scaled(120_000),
  )

  it(
    'a declining card goes past_due, is retried 2, 7, 14 and 21 days later, then the subscription is revoked',
    async () => {
      const s = await subscribe(await monthly('Dunning'))
      const card = await control(emulator.production, 'POST', `/customers/${s.customer_id}/card`, {body: {outcome: 'decline'}})
      expect(card.status, card.text).toBe(200)
      const periodEnd = ms(s.current_period_end)

      const pastDue = await advance('--until-next', 'subscription.past_due')
      expect(pastDue.found).toBe(true)
      expect(ms(pastDue.to)).toBe(periodEnd)
      expect(await get(`/subscriptions/${s.id}`)).toMatchObject({status: 'past_due', past_due_at: new Date(periodEnd).toISOString()})
      const failed = (await ordersOf(s.id)).find((o) => o.billing_reason === 'subscription_cycle')
      expect(failed).toMatchObject({status: 'pending', next_payment_attempt_at: new Date(periodEnd + 2 * DAY).toISOString()})

      const retryAt = async (days: number, next: number | null) => {
        await advance('--to', new Date(periodEnd + days * DAY + 1000).toISOString())
        expect((await get(`/orders/${failed.id}`)).next_payment_attempt_at).toBe(next === null ? null : new Date(periodEnd + next * DAY).toISOString())
      }
      await retryAt(2, 7)
      await retryAt(7, 14)
      await retryAt(14, 21)
      expect((await get(`/subscriptions/${s.id}`)).status).toBe('past_due')
      await retryAt(21, null)
      const revoked = await get(`/subscriptions/${s.id}`)
      expect(revoked).toMatchObject({status: 'canceled', ended_at: new Date(periodEnd + 21 * DAY).toISOString()})
      expect((await get(`/orders/${failed.id}`)).status).toBe('void')
      const [event] = await eventsOf((e) => e.type === 'subscription.revoked' && e.data.id === s.id, 1)
      expect(ms(event.timestamp)).toBe(periodEnd + 21 * DAY)
    },
    scaled(120_000),
  )

  it(
    'a trial that ends is the first charge',
    async () => {
      const s = await subscribe(await monthly('Trial'))
      const trialEnd = new Date(ms(s.current_period_end) + 7 * DAY).toISOString()
      const patched = await api(emulator.production, 'PATCH', `/subscriptions/${s.id}`, {body: {trial_end: trialEnd}})
      expect(patched.status, patched.text).toBe(200)
      expect(patched.body).toMatchObject({status: 'trialing', trial_end: trialEnd})
      await advance('--to', new Date(ms(trialEnd) + DAY).toISOString())
      expect(await get(`/subscriptions/${s.id}`)).toMatchObject({status: 'active', trial_end: trialEnd, current_period_start: trialEnd})
      const charge = (await ordersOf(s.id)).filter((o) => o.billing_reason === 'subscription_cycle')
      expect(charge).toEqual([expect.objectContaining({status: 'paid', created_at: trialEnd, total_amount: 2000})])
    },
    scaled(120_000),
  )

  it(
    "a cancellation at the period's end: renew refuses it; the clock ends it and revokes its benefits at that moment",
    async () => {
      const custom = (await get('/benefits/?limit=100')).items.find((b: Json) => b.type === 'custom')
      const product = await monthly('Ending', ['--benefit', custom.id])
      const s = await subscribe(product)
      const grants = async () => (await get(`/benefits/${custom.id}/grants?customer_id=${s.customer_id}`)).items
      // granted by the payment's settlement, just after the order shows paid
      await waitUntil(async () => (await grants()).length > 0, 5000)
      expect((await grants()).filter((g: Json) => g.is_granted)).toHaveLength(1)
      ok(await till(['subscriptions', 'cancel', s.id, '--yes']))

      // refused, with the way to end it; no order made
      const renew = await till(['emulator', 'renew', s.id])
      expect(renew.code).not.toBe(0)
      expect(renew.stderr).toMatch(/set to cancel at the end of its period.*till emulator clock advance --to/s)
      expect(await ordersOf(s.id)).toHaveLength(1)

      const ended = await advance('--until-next', 'subscription.revoked')
      expect(ms(ended.to)).toBe(ms(s.current_period_end))
      expect(await get(`/subscriptions/${s.id}`)).toMatchObject({status: 'canceled', ended_at: s.current_period_end})
      expect(await ordersOf(s.id)).toHaveLength(1)
      const [grant] = await grants()
      expect(grant).toMatchObject({is_revoked: true, revoked_at: s.current_period_end})
      const [event] = await eventsOf((e) => e.type === 'benefit_grant.revoked' && e.data.id === grant.id, 1)
      expect(event.timestamp).toBe(s.current_period_end)
    },
    scaled(120_000),
  )

  it(
    'renew, pay and dispute print one line; --json the objects',
    async () => {
      const s = await subscribe(await monthly('Lines'))
      const renewed = await till(['emulator', 'renew', s.id])
      ok(renewed)
      expect(renewed.stdout).toMatch(
        /^Renewed subscription [0-9a-f-]{36}: period .* UTC to .* UTC, order [0-9a-f-]{36} \$20\.00 \(paid after the payment delay\)\.\n$/,
      )
      const again = await json(['emulator', 'renew', s.id])
      expect(again).toMatchObject({subscription: {id: s.id}, order: {billing_reason: 'subscription_cycle'}})
      await waitUntil(async () => (await get(`/orders/${again.order.id}`)).status === 'paid', 5000)
      const disputed = await till(['emulator', 'dispute', again.order.id])
      ok(disputed)
      expect(disputed.stdout).toMatch(/^Opened dispute [0-9a-f-]{36} on order [0-9a-f-]{36}: \$20\.00, needs_response \(fraudulent\)\.\n$/)
    },
    scaled(120_000),
  )

  it(
    "a metered subscription's renewal order charges the period's usage",
    async () => {
      const meter = await json(['meters', 'create', '--name', 'Clock calls', '--where', 'name=clock.call', '--aggregation', 'count'])
      const product = await monthly('Metered', ['--metered', `${meter.id}:0.10`])
      const s = await subscribe(product)
      ok(await till(['events', 'ingest', '-', '--name', 'clock.call'], `${JSON.stringify({customer_id: s.customer_id})}\n`.repeat(7)))
      await advance('--to', new Date(ms(s.current_period_end) + 1000).toISOString())
      const renewal = (await ordersOf(s.id)).find((o) => o.billing_reason === 'subscription_cycle')
      expect(renewal.subtotal_amount).toBe(2000 + 70)
      expect(renewal.items.map((i: Json) => i.amount)).toEqual([2000, 70])
    },
    scaled(120_000),
  )

  it(
    "a metered subscription set to cancel at its period's end: its last order bills the ended period's usage, and none is made without usage",
    async () => {
      const meter = await json(['meters', 'create', '--name', 'Final calls', '--where', 'name=final.call', '--aggregation', 'count'])
      const product = await monthly('Metered final', ['--metered', `${meter.id}:0.25`])
      const [used, unused] = [await subscribe(product), await subscribe(product)]
      ok(await till(['events', 'ingest', '-', '--name', 'final.call'], `${JSON.stringify({customer_id: used.customer_id})}\n`.repeat(4)))
      for (const s of [used, unused]) ok(await till(['subscriptions', 'cancel', s.id, '--yes']))
      const end = ms(used.current_period_end)
      await advance('--to', new Date(Math.max(end, ms(unused.current_period_end)) + 1000).toISOString())
      const ended = await get(`/subscriptions/${used.id}`)
      expect(ended).toMatchObject({status: 'canceled', ended_at: used.current_period_end})
      // the service's `subscription_cancel` order, shown as subscription_cycle: the usage alone, no new period
      const last = (await ordersOf(used.id)).filter((o) => o.billing_reason === 'subscription_cycle')
      expect(last).toHaveLength(1)
      expect(last[0].items.map((i: Json) => i.amount)).toEqual([100])
      expect(last[0]).toMatchObject({subtotal_amount: 100, created_at: used.current_period_end, status: 'paid'})
      expect((await ordersOf(unused.id)).filter((o) => o.billing_reason === 'subscription_cycle')).toEqual([])
      // its order.paid comes after the subscription's end (the endpoint takes order.paid, not order.created)
      const [revoked] = await eventsOf((e) => e.type === 'subscription.revoked' && e.data.id === used.id, 1)
      const [paid] = await eventsOf((e) => e.type === 'order.paid' && e.data.id === last[0].id, 1)
      expect(received.indexOf(paid!)).toBeGreaterThan(received.indexOf(revoked!))
    },
    scaled(120_000),
  )

  it(
    'a repeating 3-month discount applies to three renewals and not the fourth',
    async () => {
      const s = await subscribe(await monthly('Discounted'))
      const discount = await json([
        'discounts',
        'create',
        '--name',
        `Three months ${Math.random()}`,
        '--percent',
        '50',
        '--duration',
        'repeating',
        '--months',
        '3',
      ])
      const set = await api(emulator.production, 'PATCH', `/subscriptions/${s.id}`, {body: {discount_id: discount.id}})
      expect(set.status, set.text).toBe(200)
      await advance('--to', new Date(ms(s.current_period_end) + 100 * DAY).toISOString())
      const renewals = (await ordersOf(s.id)).filter((o) => o.billing_reason === 'subscription_cycle')
      expect(renewals.map((o) => o.discount_amount)).toEqual([1000, 1000, 1000, 0])
    },
    scaled(120_000),
  )

  it(
    'a license key with an expiry stops validating after it',
    async () => {
      const keys = (await get('/license-keys/?limit=100')).items.filter((k: Json) => k.status === 'granted')
      const key = keys[0]
      const now = ms((await json(['emulator', 'clock'])).now)
      const expires = new Date(now + 10 * DAY).toISOString()
      const patched = await api(emulator.production, 'PATCH', `/license-keys/${key.id}`, {body: {expires_at: expires}})
      expect(patched.status, patched.text).toBe(200)
      const full = await get(`/license-keys/${key.id}`)
      const validate = () =>
        api(emulator.production, 'POST', '/license-keys/validate', {body: {key: full.key, organization_id: emulator.production.organizationId}})
      expect((await validate()).status).toBe(200)
      await advance('11d')
      const refused = await validate()
      expect(refused.status).toBe(404)
    },
    scaled(120_000),
  )

  it(
    'metrics over the advanced year show the renewals',
    async () => {
      const clock = await json(['emulator', 'clock'])
      const end = clock.now.slice(0, 10)
      const start = new Date(ms(clock.now) - 300 * DAY).toISOString().slice(0, 10)
      const metrics = await get(`/metrics/?start_date=${start}&end_date=${end}&interval=month&metrics=renewed_subscriptions`)
      const renewed = metrics.periods.map((p: Json) => p.renewed_subscriptions)
      expect(renewed.filter((n: number) => n > 0).length).toBeGreaterThanOrEqual(9)
      // till's relative ranges read the emulator's clock, not this machine's: --last 12m ends on its date
      expect(ms(clock.now) - Date.now()).toBeGreaterThan(300 * DAY)
      for (const command of [['metrics'], ['metrics', 'export']]) {
        const r = await till([
          ...command,
          '--last',
          '12m',
          '--interval',
          'day',
          '--metric',
          'renewed_subscriptions',
          ...(command.length === 1 ? ['-o', 'json'] : []),
        ])
        ok(r)
        const last = command.length === 1 ? (JSON.parse(r.stdout) as Json[]).at(-1)!.timestamp : r.stdout.trim().split('\r\n').at(-1)!.split(',')[0]
        expect(String(last).slice(0, 10), command.join(' ')).toBe(end)
      }
    },
    scaled(120_000),
  )
})
