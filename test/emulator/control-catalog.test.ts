// The control actions the catalog tests use: a one-shot refusal of a product write (the service's 422
// shape, then normal service), and emptying one environment without touching the other.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, control as controlRoute, listAll, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'

describe('emulator control: products/refuse and empty', () => {
  let emulator: Emulator
  const control = (env: EnvHandle, path: string, body: unknown, token?: string | null) => controlRoute(env, 'POST', path, {body, token})
  const product = {name: 'Refused Once', prices: [{amount_type: 'fixed', price_amount: 500}]}

  beforeAll(async () => {
    emulator = await startEmulator()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  it('refuses the next create of the armed name with a 422, once', async () => {
    const armed = await control(emulator.sandbox, '/products/refuse', {name: 'Refused Once'})
    expect(armed.status, armed.text).toBe(200)
    expect(armed.body).toEqual({armed: {name: 'Refused Once', times: 1}})
    const other = await api(emulator.sandbox, 'POST', '/products/', {body: {...product, name: 'Not Armed'}})
    expect(other.status).toBe(201)
    const refused = await api(emulator.sandbox, 'POST', '/products/', {body: product})
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({
      error: 'PolarRequestValidationError',
      detail: [{type: 'value_error', loc: ['body', 'name'], msg: 'The product was refused (injected by the emulator control surface).', input: 'Refused Once'}],
    })
    // the other environment was not armed, and the refusal is used up
    expect((await api(emulator.production, 'POST', '/products/', {body: product})).status).toBe(201)
    expect((await api(emulator.sandbox, 'POST', '/products/', {body: product})).status).toBe(201)
  })

  it('checks its body and needs the organization token', async () => {
    expect((await control(emulator.sandbox, '/products/refuse', {})).status).toBe(422)
    expect((await control(emulator.sandbox, '/empty', {}, null)).status).toBe(401)
  })

  it('empties one environment, keeping its organization and token; the other is untouched', async () => {
    const before = await listAll(emulator.sandbox, '/products/')
    const r = await control(emulator.production, '/empty', {})
    expect(r.status, r.text).toBe(200)
    expect(r.body.removed.products).toBeGreaterThan(0)
    expect(r.body.removed.orders).toBeGreaterThan(0)
    for (const path of ['/products/', '/benefits/', '/customers/', '/orders/', '/checkout-links/']) expect(await listAll(emulator.production, path)).toEqual([])
    const org = await api(emulator.production, 'GET', `/organizations/${emulator.production.organizationId}`)
    expect(org.status).toBe(200)
    expect(await listAll(emulator.sandbox, '/products/')).toEqual(before)
  })
})
