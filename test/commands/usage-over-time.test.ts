// Usage billing over time, as processes against the emulator: event types and their labels
// (`till events types list|update`), meters reset by subscription cycles (`till emulator renew`) with
// rollover credits, meter quantities in a time zone and combined per customer, and `till events list
// --follow` printing an event as it arrives until Ctrl-C (exit 130); the ingest endpoint's limits and rules,
// and batches split by size under the body limit.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, chunkedPost, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {envVars, expectNoToken, linesOf, sandbox, spawnCli, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {allowRefusals} from '../helpers/contract.js'
import {eventually, scaled, waitUntil} from '../helpers/machine.js'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('usage over time', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let vars: NodeJS.ProcessEnv

  const till = (args: string[], input?: string) => runInProcess(args, {env: vars, input})
  const json = async (args: string[], input?: string): Promise<Json> => {
    const r = await till([...args, '--json'], input)
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0)
    return JSON.parse(r.stdout)
  }
  const ingest = async (events: object[]) => {
    const res = await api(env, 'POST', '/events/ingest', {body: {events}})
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body
  }

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    vars = box.env(envVars(env))
  })

  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it(
    'lists event types with their statistics and sets a label that events then carry',
    async () => {
      await ingest([
        ...[1, 2, 3].map((i) => ({name: 'type.call', external_customer_id: 'tc_1', timestamp: `2026-02-0${i}T10:00:00Z`})),
        {name: 'type.call', external_customer_id: 'tc_2', timestamp: '2026-02-05T10:00:00Z'},
        {name: 'type.other', external_customer_id: 'tc_2', timestamp: '2026-02-06T10:00:00Z'},
      ])
      const types = (await json(['events', 'types', 'list', '--source', 'user', '--query', 'type.', '--sort', 'name'])) as Json[]
      expect(types.map((t) => [t.name, t.label, t.occurrences, t.first_seen, t.last_seen])).toEqual([
        ['type.call', 'type.call', 4, '2026-02-01T10:00:00.000Z', '2026-02-05T10:00:00.000Z'],
        ['type.other', 'type.other', 1, '2026-02-06T10:00:00.000Z', '2026-02-06T10:00:00.000Z'],
      ])
      expect(types[0].id).toMatch(UUID_RE)
      // statistics of one customer's events only
      const one = (await json(['events', 'types', 'list', '--external-customer', 'tc_1', '--source', 'user'])) as Json[]
      expect(one.map((t) => [t.name, t.occurrences])).toEqual([['type.call', 3]])

      const updated = await json(['events', 'types', 'update', types[0].id, '--label', '  API call  '])
      expect(updated).toMatchObject({id: types[0].id, name: 'type.call', label: 'API call', label_property_selector: null, organization_id: expect.any(String)})
      expect(updated.modified_at).not.toBeNull()
      const events = (await json(['events', 'list', '--name', 'type.call', '--limit', '2'])) as Json[]
      expect(events.map((e) => e.label)).toEqual(['API call', 'API call'])
      const names = (await json(['events', 'names', '--query', 'type.call'])) as Json[]
      expect(names).toEqual([expect.objectContaining({name: 'type.call', label: 'API call', occurrences: 4})])
      const table = await till(['events', 'types', 'list', '--query', 'API'])
      expect(table.code).toBe(0)
      expect(table.stdout).toMatch(/type\.call\s+API call\s+user\s+4/)

      const blank = await till(['events', 'types', 'update', types[0].id, '--label', '   '])
      expect(blank.code).toBe(2)
      expect(blank.stderr).toMatch(/--label must have 1 to 128 characters/)
      const missing = await till(['events', 'types', 'update', crypto.randomUUID(), '--label', 'X'])
      expect(missing.code).toBe(3)
      expect(missing.stderr).not.toMatch(/\n\s+at /)
      // the service's own answers
      const empty = await api(env, 'PATCH', `/event-types/${types[0].id}`, {body: {label: '  '}})
      expect(empty.status).toBe(422)
      expect(empty.body.detail[0]).toMatchObject({type: 'value_error', loc: ['body', 'label'], msg: 'Value error, Label cannot be empty or only whitespace'})
      expect((await api(env, 'PATCH', `/event-types/${crypto.randomUUID()}`, {body: {label: 'X'}})).body).toEqual({
        error: 'ResourceNotFound',
        detail: 'Not found',
      })
    },
    scaled(120_000),
  )

  it(
    "bills the period's usage at renewal: units consumed minus credited, times the unit amount, capped",
    async () => {
      const meter = await json(['meters', 'create', '--name', 'Billed calls', '--where', 'name=billed.call', '--aggregation', 'count'])
      const benefit = await json(['benefits', 'create', '--type', 'meter_credit', '--description', '5 calls included', '--meter', meter.id, '--units', '5'])
      // $10 a month, 2.5 cents a call beyond the 5 included; another plan at 50 cents a call, capped at $3
      const plan = await json([
        'products',
        'create',
        '--name',
        'Billed plan',
        '--interval',
        'month',
        '--price',
        '10',
        '--metered',
        `${meter.id}:0.025`,
        '--benefit',
        benefit.id,
      ])
      const capped = await json(['products', 'create', '--name', 'Capped plan', '--interval', 'month', '--free', '--metered', `${meter.id}:0.50:3.00`])
      /** A subscription bought through a checkout, once its order is paid (and its benefits granted). */
      const subscribe = async (product: Json, external: string) => {
        const k = (
          await api(env, 'POST', '/checkouts/', {body: {products: [product.id], external_customer_id: external, customer_email: `${external}@example.com`}})
        ).body
        const confirmed = await api(env, 'POST', `/checkouts/client/${k.client_secret}/confirm`, {
          token: null,
          body: {customer_name: 'Ada', customer_billing_address: {country: 'US'}},
        })
        expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
        let order: Json
        const paid = async () => (order = (await api(env, 'GET', `/orders/?checkout_id=${k.id}`)).body.items[0])?.status === 'paid'
        if (await waitUntil(paid, 10_000, 100)) return (await api(env, 'GET', `/subscriptions/${order.subscription_id}`)).body
        throw new Error(`the order of checkout ${k.id} was not paid`)
      }
      const use = async (external: string, n: number) =>
        expect((await till(['events', 'ingest', '-', '--name', 'billed.call', '--external-customer', external], '{}\n'.repeat(n))).code).toBe(0)
      const renew = async (id: string): Promise<Json> => {
        const r = await till(['emulator', 'renew', id, '--json'])
        expect(r.code, r.stderr).toBe(0)
        return JSON.parse(r.stdout).order
      }
      const staticPrice = plan.prices.find((p: Json) => p.amount_type === 'fixed')
      const meteredPrice = plan.prices.find((p: Json) => p.amount_type === 'metered_unit')
      const usageAmount = (consumed: number, credited: number, unitCents: number, cap?: number) =>
        Math.min(Math.round(Math.max(0, consumed - credited) * unitCents), cap ?? Infinity)

      const a = await subscribe(plan, 'billed_a')
      // the meter credit is granted a moment after the payment: wait for its 5 units before using any
      const credited = async () =>
        ((await api(env, 'GET', `/customer-meters/?customer_id=${a.customer_id}&meter_id=${meter.id}`)).body.items as Json[])[0]?.credited_units === 5
      await waitUntil(credited, 10_000, 100)
      await use('billed_a', 13)
      const first = await renew(a.id)
      const usage = usageAmount(13, 5, 2.5)
      expect(usage).toBe(20)
      expect(first).toMatchObject({billing_reason: 'subscription_cycle', subtotal_amount: 1000 + usage, net_amount: 1000 + usage})
      expect(first.items.map((i: Json) => [i.label, i.amount, i.product_price_id])).toEqual([
        ['Billed plan (every 1 month)', 1000, staticPrice.id],
        ['(8 consumed units) × $0.025', usage, meteredPrice.id],
      ])
      // the next period starts from zero, with its 5 units credited again: 3 calls are all included
      await use('billed_a', 3)
      const second = await renew(a.id)
      expect(second.subtotal_amount).toBe(1000 + usageAmount(3, 5, 2.5))
      expect(second.items[1]).toMatchObject({label: '(0 consumed units) × $0.025', amount: 0})

      const b = await subscribe(capped, 'billed_b')
      await use('billed_b', 13)
      const cappedOrder = await renew(b.id)
      expect(usageAmount(13, 0, 50, 300)).toBe(300)
      expect(cappedOrder.subtotal_amount).toBe(300)
      expect(cappedOrder.items.at(-1)).toMatchObject({label: '(13 consumed units) × $0.50 — Capped at $3.00', amount: 300})
    },
    scaled(120_000),
  )

  it(
    'resets the meters of a subscription at each cycle, carrying unused rollover credits over',
    async () => {
      const meter = await json(['meters', 'create', '--name', 'Cycle calls', '--where', 'name=cycle.call', '--aggregation', 'count'])
      const benefit = await json([
        'benefits',
        'create',
        '--type',
        'meter_credit',
        '--description',
        '10 calls a month',
        '--meter',
        meter.id,
        '--units',
        '10',
        '--rollover',
      ])
      const product = await json([
        'products',
        'create',
        '--name',
        'Cycle plan',
        '--interval',
        'month',
        '--free',
        '--metered',
        `${meter.id}:0.01`,
        '--benefit',
        benefit.id,
      ])
      const customer = (await api(env, 'POST', '/customers/', {body: {email: 'cycle@example.com', external_id: 'cycle_user'}})).body
      const created = await api(env, 'POST', '/subscriptions/', {body: {product_id: product.id, customer_id: customer.id}})
      expect(created.status).toBe(201)
      const subscription = created.body
      const use = (n: number) => till(['events', 'ingest', '-', '--name', 'cycle.call', '--external-customer', 'cycle_user'], '{}\n'.repeat(n))
      const meterOf = async () => (await api(env, 'GET', `/customer-meters/?customer_id=${customer.id}&meter_id=${meter.id}`)).body.items[0]
      const systemNames = async () =>
        (await api(env, 'GET', `/events/?customer_id=${customer.id}&source=system&sorting=timestamp&limit=100`)).body.items as Json[]

      expect((await use(4)).code).toBe(0)
      expect(await meterOf()).toMatchObject({consumed_units: 4, credited_units: 10, balance: 6})

      // first renewal: 6 unused rollover units carry over, then the benefit credits its 10 again
      const renewed = await till(['emulator', 'renew', subscription.id])
      expect(renewed.code, renewed.stderr).toBe(0)
      const afterFirst = await systemNames()
      expect(afterFirst.map((e) => e.name)).toEqual([
        'meter.reset',
        'benefit.granted',
        'meter.credited',
        'subscription.cycled',
        'meter.reset',
        'meter.credited',
        'benefit.cycled',
        'meter.credited',
      ])
      expect(afterFirst[5].metadata).toEqual({meter_id: meter.id, units: 6, rollover: true})
      expect(afterFirst[7].metadata).toEqual({meter_id: meter.id, units: 10, rollover: true})
      expect(afterFirst[3].metadata).toMatchObject({subscription_id: subscription.id, product_id: product.id})
      expect(await meterOf()).toMatchObject({consumed_units: 0, credited_units: 16, balance: 16})

      // overdrawn: nothing carries over the next cycle
      expect((await use(20)).code).toBe(0)
      expect(await meterOf()).toMatchObject({consumed_units: 20, credited_units: 16, balance: -4})
      expect((await till(['emulator', 'renew', subscription.id])).code).toBe(0)
      const afterSecond = (await systemNames()).slice(afterFirst.length)
      expect(afterSecond.map((e) => e.name)).toEqual(['subscription.cycled', 'meter.reset', 'benefit.cycled', 'meter.credited'])
      expect(await meterOf()).toMatchObject({consumed_units: 0, credited_units: 10, balance: 10})
      // the customer state shows the same meter
      const state = (await api(env, 'GET', `/customers/${customer.id}/state`)).body
      expect(state.active_meters).toEqual([expect.objectContaining({meter_id: meter.id, consumed_units: 0, credited_units: 10, balance: 10})])
      // the meter's quantities still count every event: a reset changes the balance, not the history
      const q = await json(['meters', 'quantities', meter.id, '--interval', 'day', '--start', new Date(Date.now() - 86_400_000).toISOString()])
      expect(q.total).toBe(24)
      // ending a trial starts a period too: a seeded trialing subscription records its cycle
      const trialing = (await api(env, 'GET', '/subscriptions/?status=trialing&limit=1')).body.items[0]
      expect(trialing, 'a seeded trialing subscription').toBeDefined()
      const ended = await api(env, 'PATCH', `/subscriptions/${trialing.id}`, {body: {trial_end: 'now'}})
      expect(ended.status, ended.text).toBe(200)
      const trialEvents = (await api(env, 'GET', `/events/?customer_id=${trialing.customer.id}&name=subscription.cycled`)).body.items as Json[]
      expect(trialEvents.map((e) => e.metadata.subscription_id)).toEqual([trialing.id])
      // and the command line shows the customer's meter as the API does
      const shown = (await json(['customer-meters', 'list', '--customer', customer.id, '--meter', meter.id])) as Json[]
      expect(shown).toEqual([expect.objectContaining({consumed_units: 0, credited_units: 10, balance: 10})])
    },
    scaled(120_000),
  )

  it('an end date is inclusive, as metrics --end; relative starts are parsed here', async () => {
    const meter = await json(['meters', 'create', '--name', 'Whole days', '--where', 'name=day.call', '--aggregation', 'sum:n'])
    await ingest([
      {name: 'day.call', external_customer_id: 'day_a', timestamp: '2026-03-10T15:00:00Z', metadata: {n: 5}},
      {name: 'day.call', external_customer_id: 'day_a', timestamp: '2026-03-11T01:00:00Z', metadata: {n: 7}},
    ])
    const one = await json(['meters', 'quantities', meter.id, '--start', '2026-03-10', '--end', '2026-03-10', '--interval', 'day'])
    expect(one.total).toBe(5)
    const two = await json(['meters', 'quantities', meter.id, '--start', '2026-03-10', '--end', '2026-03-11', '--interval', 'day'])
    expect(two.total).toBe(12)
    const recent = await till(['meters', 'quantities', meter.id, '--start', '7d', '--json'])
    expect(recent.code, recent.stderr).toBe(0)
  })

  it(
    'computes quantities over the days of a time zone, and per customer',
    async () => {
      allowRefusals()
      const meter = await json(['meters', 'create', '--name', 'Zoned calls', '--where', 'name=tz.call', '--aggregation', 'sum:n'])
      // around midnight in Tokyo (UTC+9, no daylight saving): local dates differ from UTC dates
      const events = [
        {at: '2026-03-01T14:30:00Z', n: 1, who: 'tz_a'}, // 23:30 on the 1st in Tokyo
        {at: '2026-03-01T15:30:00Z', n: 2, who: 'tz_a'}, // 00:30 on the 2nd
        {at: '2026-03-02T03:00:00Z', n: 4, who: 'tz_b'}, // 12:00 on the 2nd
        {at: '2026-03-02T16:00:00Z', n: 8, who: 'tz_b'}, // 01:00 on the 3rd
        {at: '2026-03-02T23:00:00Z', n: 16, who: 'tz_a'}, // 08:00 on the 3rd
      ]
      await ingest(events.map((e) => ({name: 'tz.call', external_customer_id: e.who, timestamp: e.at, metadata: {n: e.n}})))
      const tokyoDate = (iso: string) => new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 10)
      const days = ['2026-03-01', '2026-03-02', '2026-03-03']
      const want = days.map((d) => events.filter((e) => tokyoDate(e.at) === d).reduce((a, e) => a + e.n, 0))

      const range = ['--start', '2026-03-01T00:00:00+09:00', '--end', '2026-03-03T23:59:59+09:00', '--interval', 'day']
      const zoned = await json(['meters', 'quantities', meter.id, ...range, '--timezone', 'Asia/Tokyo'])
      expect(zoned.quantities).toEqual(days.map((d, i) => ({timestamp: `${d}T00:00:00+09:00`, quantity: want[i]})))
      expect(zoned.total).toBe(31)
      // the same range in UTC days: the periods start at UTC midnight
      const utc = await json(['meters', 'quantities', meter.id, ...range])
      expect(utc.quantities.map((p: Json) => p.timestamp)).toEqual([
        '2026-02-28T00:00:00Z',
        '2026-03-01T00:00:00Z',
        '2026-03-02T00:00:00Z',
        '2026-03-03T00:00:00Z',
      ])
      // piped: the periods as TSV, labelled in the zone's time
      const tsv = await till(['meters', 'quantities', meter.id, ...range, '--timezone', 'Asia/Tokyo'])
      expect(linesOf(tsv.stdout)).toEqual(days.map((d, i) => `${d}T00:00:00+09:00\t${want[i]}`))

      // per customer, the biggest customer's sum per day
      const perCustomer = await json(['meters', 'quantities', meter.id, ...range, '--timezone', 'Asia/Tokyo', '--per-customer', 'max'])
      const sumOf = (d: string, who: string) => events.filter((e) => tokyoDate(e.at) === d && e.who === who).reduce((a, e) => a + e.n, 0)
      expect(perCustomer.quantities.map((p: Json) => p.quantity)).toEqual(days.map((d) => Math.max(sumOf(d, 'tz_a'), sumOf(d, 'tz_b'))))
      expect(perCustomer.total).toBe(Math.max(1 + 2 + 16, 4 + 8))

      const bad = await till(['meters', 'quantities', meter.id, ...range, '--timezone', 'Nowhere/Land'])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toMatch(/--timezone Nowhere\/Land is not a time zone name/)
      const refused = await api(
        env,
        'GET',
        `/meters/${meter.id}/quantities?start_timestamp=2026-03-01T00:00:00Z&end_timestamp=2026-03-02T00:00:00Z&interval=day&timezone=Nowhere/Land`,
      )
      expect(refused.status).toBe(422)
      expect(refused.body.detail[0]).toMatchObject({type: 'TimeZoneName', loc: ['query', 'timezone']})
      const tooMany = await api(
        env,
        'GET',
        `/meters/${meter.id}/quantities?start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-03-01T00:00:00Z&interval=hour`,
      )
      expect(tooMany.status).toBe(422)
      expect(tooMany.body.detail[0]).toMatchObject({type: 'value_error', loc: ['query']})
      const hourly = await till(['meters', 'quantities', meter.id, '--interval', 'hour', '--start', '2026-01-01', '--end', '2026-03-01'])
      expect(hourly.code).toBe(2)
      expect(hourly.stderr).toMatch(/The interval is too small for the given date range/)
    },
    scaled(120_000),
  )

  it(
    'follows events as they arrive, until Ctrl-C (exit 130)',
    async () => {
      await ingest([{name: 'follow.call', external_customer_id: 'fw_1', metadata: {n: 1}}])
      const running = spawnCli(['events', 'list', '--follow', '--name', 'follow.call', '--interval', '1'], {env: vars, timeoutMs: scaled(60_000)})
      const waitFor = (test: () => boolean, what: string) =>
        eventually(what, test, 30_000).catch((error: Error) => {
          throw new Error(`${error.message}; stdout: ${running.stdout()} stderr: ${running.stderr()}`)
        })
      await waitFor(() => linesOf(running.stdout()).length === 1, 'the latest event first')
      expect(JSON.parse(linesOf(running.stdout())[0]!)).toMatchObject({name: 'follow.call', metadata: {n: 1}})

      await ingest([
        {name: 'follow.call', external_customer_id: 'fw_1', metadata: {n: 2}},
        {name: 'other.call', external_customer_id: 'fw_1'},
      ])
      await waitFor(() => linesOf(running.stdout()).length === 2, 'the new event printed')
      expect(JSON.parse(linesOf(running.stdout())[1]!)).toMatchObject({name: 'follow.call', metadata: {n: 2}, external_customer_id: 'fw_1'})

      running.child.kill('SIGINT')
      const done = await running.done
      expect(done.code).toBe(130)
      expect(done.stderr).toMatch(/Interrupted/)
      expect(done.stderr).not.toMatch(/\n\s+at /)
      expect(linesOf(done.stdout)).toHaveLength(2)
      expectNoToken(done.stdout + done.stderr, env.token)
    },
    scaled(60_000),
  )

  it(
    'answers ingest as the service does: body limits, validation, duplicates within one request',
    async () => {
      allowRefusals()
      const one = JSON.stringify({events: [{name: 'limit.call', external_customer_id: 'lim_1'}]})
      const chunked = await chunkedPost(env, '/events/ingest', [one.slice(0, 10), one.slice(10)])
      expect(chunked.status).toBe(411)
      const huge = await api(env, 'POST', '/events/ingest', {
        rawBody: JSON.stringify({events: [{name: 'limit.call', external_customer_id: 'lim_1', metadata: {blob: 'x'.repeat(10 * 1024 * 1024)}}]}),
        noRetry: true,
      })
      expect(huge.status).toBe(413)

      // an unknown customer id and a time in the future: the whole request is refused, nothing stored
      const refused = await api(env, 'POST', '/events/ingest', {
        body: {
          events: [
            {name: 'limit.call', external_customer_id: 'lim_1'},
            {name: 'limit.call', customer_id: crypto.randomUUID()},
          ],
        },
      })
      expect(refused.status).toBe(422)
      expect(refused.body.detail[0]).toMatchObject({loc: ['body', 'events', 1, 'customer_id'], msg: 'Customer not found.'})
      const future = await api(env, 'POST', '/events/ingest', {
        body: {events: [{name: 'limit.call', external_customer_id: 'lim_1', timestamp: '2999-01-01T00:00:00Z'}]},
      })
      expect(future.status).toBe(422)
      expect(future.body.detail[0]).toMatchObject({loc: ['body', 'events', 0, 'timestamp']})
      const missing = await api(env, 'POST', '/events/ingest', {body: {events: [{name: 'limit.call'}]}})
      expect(missing.status).toBe(422)
      expect((await api(env, 'GET', '/events/?name=limit.call&limit=1')).body.pagination.total_count).toBe(0)

      // the same external id twice in one request: stored once
      const twice = await ingest([
        {name: 'limit.call', external_customer_id: 'lim_1', external_id: 'lim-dup'},
        {name: 'limit.call', external_customer_id: 'lim_1', external_id: 'lim-dup'},
      ])
      expect(twice).toEqual({inserted: 1, duplicates: 1})
    },
    scaled(60_000),
  )

  it(
    'splits batches by size under the body limit, whatever the batch size asked',
    async () => {
      // 60 events of ~400 KiB: 24 MiB in all, 8 MiB at most per request (a metadata value is at most 500
      // characters, so each event holds 820 of them)
      const blob = Object.fromEntries(Array.from({length: 820}, (_, k) => [`k${k}`, 'y'.repeat(500)]))
      const lines = Array.from({length: 60}, (_, i) =>
        JSON.stringify({name: 'big.blob', external_customer_id: 'blob_1', external_id: `blob-${i}`, metadata: {i, ...blob}}),
      )
      const r = await till(['events', 'ingest', '-', '--batch-size', '1000', '--json'], `${lines.join('\n')}\n`)
      expect(r.code, r.stderr).toBe(0)
      const summary = JSON.parse(linesOf(r.stdout).at(-1)!)
      expect(summary).toMatchObject({read: 60, inserted: 60, duplicates: 0, rejected: 0})
      expect(summary.requests).toBeGreaterThanOrEqual(3)
      expect((await api(env, 'GET', '/events/?name=big.blob&limit=1')).body.pagination.total_count).toBe(60)
    },
    scaled(120_000),
  )
})
