// The official SDK (@polar-sh/sdk 0.49, which zod-validates every response) against the emulator for every
// usage operation: events ingest, list, get, names; meters create, list, get, update, quantities; customer
// meters list and get; the portal's customer meters list and get; event types list and update; quantities in a
// time zone and per customer. A response the SDK cannot parse throws.
import {Polar} from '@polar-sh/sdk-0.49'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, control, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'

describe('SDK contract: events, meters, customer meters', () => {
  let emulator: Emulator
  let env: EnvHandle
  let polar: Polar
  let customerId: string

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    // the SDK's server URL is the origin: its operation paths start with /v1
    polar = new Polar({accessToken: env.token, serverURL: env.url.replace(/\/v1$/, '')})
    const customer = await api(env, 'POST', '/customers/', {body: {email: 'sdk-usage@example.com', external_id: 'sdk_user'}})
    customerId = customer.body.id
  })

  afterAll(async () => {
    await emulator?.stop()
  })

  it('ingests events and counts duplicates by external id', async () => {
    const events: Array<Parameters<Polar['events']['ingest']>[0]['events'][number]> = [
      {name: 'sdk.call', externalCustomerId: 'sdk_user', externalId: 'sdk-1', timestamp: new Date(Date.UTC(2026, 0, 5, 1)), metadata: {tokens: 10}},
      {name: 'sdk.call', customerId, externalId: 'sdk-2', timestamp: new Date(Date.UTC(2026, 0, 5, 2)), metadata: {tokens: 32}},
      {name: 'sdk.other', externalCustomerId: 'sdk_user', metadata: {kind: 'x'}},
    ]
    expect(await polar.events.ingest({events})).toEqual({inserted: 3, duplicates: 0})
    expect(await polar.events.ingest({events: events.slice(0, 2)})).toEqual({inserted: 0, duplicates: 2})
  })

  it('lists, gets and names events', async () => {
    // the SDK answers this list directly (no page iterator)
    const result = (await polar.events.list({name: 'sdk.call', sorting: ['timestamp']})) as {
      items: Array<{id: string; name: string; source: string; metadata: Record<string, unknown>; customerId: string | null}>
    }
    expect(result.items.map((e) => e.metadata.tokens)).toEqual([10, 32])
    expect(result.items.every((e) => e.source === 'user' && e.customerId === customerId)).toBe(true)
    const one = await polar.events.get({id: result.items[0]!.id})
    expect(one).toMatchObject({id: result.items[0]!.id, name: 'sdk.call', externalCustomerId: 'sdk_user'})
    const names = await polar.events.listNames({})
    expect(names.result.items.map((n) => n.name).sort()).toEqual(['sdk.call', 'sdk.other'])
  })

  it('creates, lists, gets, updates and archives meters, and reads their quantities', async () => {
    const meter = await polar.meters.create({
      name: 'SDK tokens',
      filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'sdk.call'}]},
      aggregation: {func: 'sum', property: 'tokens'},
    })
    expect(meter).toMatchObject({name: 'SDK tokens', aggregation: {func: 'sum', property: 'tokens'}, archivedAt: null})
    expect((await polar.meters.get({id: meter.id})).id).toBe(meter.id)
    const list = await polar.meters.list({})
    expect(list.result.items.map((m) => m.id)).toContain(meter.id)
    const q = await polar.meters.quantities({
      id: meter.id,
      startTimestamp: new Date(Date.UTC(2026, 0, 5)),
      endTimestamp: new Date(Date.UTC(2026, 0, 7)),
      interval: 'day',
    })
    expect(q.total).toBe(42)
    expect(q.quantities.map((p) => p.quantity)).toEqual([42, 0, 0])
    expect(q.quantities[0]!.timestamp.toISOString()).toBe('2026-01-05T00:00:00.000Z')

    const cm = await polar.customerMeters.list({customerId})
    const row = cm.result.items.find((r) => r.meterId === meter.id)!
    expect(row).toMatchObject({consumedUnits: 42, creditedUnits: 0, balance: -42, customerId})
    expect((await polar.customerMeters.get({id: row.id})).id).toBe(row.id)

    const session = (await api(env, 'POST', '/customer-sessions/', {body: {customer_id: customerId}})).body.token as string
    const portal = new Polar({serverURL: env.url.replace(/\/v1$/, '')})
    const mine = await portal.customerPortal.customerMeters.list({customerSession: session}, {})
    expect(mine.result.items.map((r) => r.id)).toContain(row.id)
    expect((await portal.customerPortal.customerMeters.get({customerSession: session}, {id: row.id})).balance).toBe(-42)

    const archived = await polar.meters.update({id: meter.id, meterUpdate: {isArchived: true, name: 'SDK tokens (old)'}})
    expect(archived.name).toBe('SDK tokens (old)')
    expect(archived.archivedAt).toBeInstanceOf(Date)
  })

  it('lists event types with statistics and updates a label, found then by its label', async () => {
    const page = await polar.eventTypes.list({sorting: ['name']})
    const items = page.result.items
    const call = items.find((t) => t.name === 'sdk.call')!
    expect(call).toMatchObject({source: 'user', occurrences: 2, label: 'sdk.call'})
    expect(call.firstSeen.toISOString()).toBe('2026-01-05T01:00:00.000Z')
    const updated = await polar.eventTypes.update({id: call.id!, eventTypeUpdate: {label: 'SDK call'}})
    expect(updated).toMatchObject({id: call.id, name: 'sdk.call', label: 'SDK call', labelPropertySelector: null})
    expect(updated.createdAt).toBeInstanceOf(Date)
    const event = (await polar.events.list({name: 'sdk.call'})) as {items: Array<{label: string}>}
    expect(event.items.every((e) => e.label === 'SDK call')).toBe(true)
    const user = await polar.eventTypes.list({source: 'user', query: 'SDK call'})
    expect(user.result.items.map((t) => t.name)).toEqual(['sdk.call'])
  })

  it('reads quantities in a time zone and per customer', async () => {
    const meter = await polar.meters.create({
      name: 'SDK zoned tokens',
      filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'sdk.call'}]},
      aggregation: {func: 'sum', property: 'tokens'},
    })
    // 01:00 and 02:00 UTC on the 5th are still the 4th in New York (UTC-5 in January)
    const q = await polar.meters.quantities({
      id: meter.id,
      startTimestamp: new Date(Date.UTC(2026, 0, 4, 5)),
      endTimestamp: new Date(Date.UTC(2026, 0, 6, 4, 59, 59)),
      interval: 'day',
      timezone: 'America/New_York',
      customerAggregationFunction: 'max',
    })
    expect(q.quantities.map((p) => [p.timestamp.toISOString(), p.quantity])).toEqual([
      ['2026-01-04T05:00:00.000Z', 42],
      ['2026-01-05T05:00:00.000Z', 0],
    ])
    expect(q.total).toBe(42)
  })

  it('parses the system events of grants and renewals, and lists system event types without an id', async () => {
    const meter = await polar.meters.create({
      name: 'SDK cycled calls',
      filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'sdk.cycled'}]},
      aggregation: {func: 'count'},
    })
    const benefit = (
      await api(env, 'POST', '/benefits/', {
        body: {type: 'meter_credit', description: 'SDK credits', properties: {meter_id: meter.id, units: 5, rollover: true}},
      })
    ).body
    const product = (
      await api(env, 'POST', '/products/', {
        body: {
          name: 'SDK metered',
          recurring_interval: 'month',
          prices: [
            {amount_type: 'fixed', price_amount: 0, price_currency: 'usd'},
            {amount_type: 'metered_unit', meter_id: meter.id, unit_amount: '1', price_currency: 'usd'},
          ],
        },
      })
    ).body
    await api(env, 'POST', `/products/${product.id}/benefits`, {body: {benefits: [benefit.id]}})
    const customer = (await api(env, 'POST', '/customers/', {body: {email: 'sdk-cycle@example.com'}})).body
    const subscription = (await api(env, 'POST', '/subscriptions/', {body: {product_id: product.id, customer_id: customer.id}})).body
    const renewed = await control(env, 'POST', `subscriptions/${subscription.id}/renew`)
    expect(renewed.status, renewed.text).toBe(200)

    const listed = (await polar.events.list({customerId: customer.id, source: 'system', sorting: ['timestamp'], limit: 100})) as {
      items: Array<{name: string; label: string; metadata: Record<string, unknown>}>
    }
    expect(listed.items.map((e) => e.name)).toEqual([
      'meter.reset',
      'benefit.granted',
      'meter.credited',
      'subscription.cycled',
      'meter.reset',
      'meter.credited',
      'benefit.cycled',
      'meter.credited',
    ])
    expect(listed.items.find((e) => e.name === 'meter.reset')!.label).toBe('Meter Reset')
    const types = await polar.eventTypes.list({source: 'system', sorting: ['name']})
    const reset = types.result.items.find((t) => t.name === 'meter.reset')!
    expect(reset).toMatchObject({id: null, label: 'Meter Reset', source: 'system', occurrences: 2})
    const [row] = (await polar.customerMeters.list({customerId: customer.id, meterId: meter.id})).result.items
    expect(row).toMatchObject({consumedUnits: 0, creditedUnits: 10, balance: 10})
  })
})
