// What the service refuses on a meter's update (meter/service.py): a new filter or aggregation once the
// meter has aggregated events, and archiving a meter an active product bills or a benefit credits.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'

describe('emulator: meter updates the service refuses', () => {
  let emulator: Emulator
  const call = (method: string, path: string, body?: Json) => api(emulator.sandbox, method, path, {body})
  const newMeter = async (name: string) => {
    const res = await call('POST', '/meters/', {
      name,
      filter: {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: name}]},
      aggregation: {func: 'count'},
    })
    expect(res.status, res.text).toBe(201)
    return res.body as Json
  }

  beforeAll(async () => {
    emulator = await startEmulator()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  it('changes the filter and aggregation until the meter aggregates events, then refuses them (not the name)', async () => {
    const meter = await newMeter('lock.test')
    const sum = {func: 'sum', property: 'n'}
    expect((await call('PATCH', `/meters/${meter.id}`, {aggregation: sum})).status).toBe(200)
    const ingested = await call('POST', '/events/ingest', {events: [{name: 'lock.test', external_customer_id: 'lock_user', metadata: {n: 2}}]})
    expect(ingested.status, ingested.text).toBe(200)
    const filter = {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'other'}]}
    const refused = await call('PATCH', `/meters/${meter.id}`, {name: 'Renamed', filter, aggregation: {func: 'count'}})
    expect(refused.status).toBe(422)
    const msg = "This field can't be updated because the meter is already aggregating events."
    expect(refused.body).toEqual({
      error: 'PolarRequestValidationError',
      detail: [
        {type: 'forbidden', loc: ['body', 'filter'], msg, input: filter},
        {type: 'forbidden', loc: ['body', 'aggregation'], msg, input: {func: 'count'}},
      ],
    })
    const renamed = await call('PATCH', `/meters/${meter.id}`, {name: 'Renamed'})
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({name: 'Renamed', aggregation: sum})
  })

  it('refuses to archive a meter an active product bills or a benefit credits, and archives it once neither does', async () => {
    const meter = await newMeter('archive.test')
    const product = await call('POST', '/products/', {
      name: 'Metered',
      recurring_interval: 'month',
      prices: [{amount_type: 'metered_unit', meter_id: meter.id, unit_amount: '1'}],
    })
    expect(product.status, product.text).toBe(201)
    const billed = await call('PATCH', `/meters/${meter.id}`, {is_archived: true})
    expect(billed.status).toBe(422)
    expect(billed.body.detail).toEqual([
      {type: 'value_error', loc: ['body', 'is_archived'], msg: 'Cannot archive meter that is still attached to active products', input: true},
    ])
    expect((await call('PATCH', `/products/${product.body.id}`, {is_archived: true})).status).toBe(200)
    const benefit = await call('POST', '/benefits/', {
      type: 'meter_credit',
      description: 'Credits',
      properties: {meter_id: meter.id, units: 5, rollover: false},
    })
    expect(benefit.status, benefit.text).toBe(201)
    const credited = await call('PATCH', `/meters/${meter.id}`, {is_archived: true})
    expect(credited.body.detail[0].msg).toBe('Cannot archive meter that is still referenced by active benefits')
    expect((await call('GET', `/meters/${meter.id}`)).body.archived_at).toBeNull()
    expect((await call('DELETE', `/benefits/${benefit.body.id}`)).status).toBe(204)
    const archived = await call('PATCH', `/meters/${meter.id}`, {is_archived: true})
    expect(archived.status).toBe(200)
    expect(archived.body.archived_at).not.toBeNull()
  })
})
