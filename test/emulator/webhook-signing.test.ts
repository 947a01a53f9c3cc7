// How the emulator signs and versions webhook deliveries, as the service does since September 2026
// (server/polar/webhook/{tasks,schemas,constants}.py; polarsource/polar #14117, #14141, #14400): a receiver on
// 127.0.0.1 gets the real deliveries, checked with the stock Standard Webhooks library.
import {Webhook} from 'standardwebhooks'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js'
import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {scaled} from '../helpers/machine.js'
import {startReceiver, type Received, type Receiver} from '../helpers/receiver.js'

const v = (version: string) => ({headers: {'polar-version': version}})

/** The stock verifier given the key a legacy endpoint signs with: the base64 of the whole secret. */
const legacyWebhook = (secret: string) => new Webhook(Buffer.from(secret, 'utf8').toString('base64'))

const email = (prefix: string) => `${prefix}.${Math.random().toString(36).slice(2, 10)}@example.com`

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
})

describe('webhook signing and versions', () => {
  let emulator: Emulator
  let env: EnvHandle
  let receiver: Receiver

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await emulator?.stop()
  })

  const endpoint = async (path: string, extra: Json = {}, version = '2026-10'): Promise<Json> => {
    const body = {url: `${receiver.url}${path}`, format: 'raw', events: ['customer.created'], ...extra}
    const res = await api(env, 'POST', '/webhooks/endpoints', {...v(version), body})
    expect(res.status, brief(res)).toBe(201)
    return res.body
  }

  /** Makes a customer and waits for the delivery of its customer.created to `path`. */
  const delivered = async (path: string): Promise<Received> => {
    const customer = await api(env, 'POST', '/customers/', {body: {email: email('signing')}})
    expect(customer.status, brief(customer)).toBe(201)
    const deadline = Date.now() + scaled(10_000)
    for (;;) {
      const found = receiver.received.find((r) => r.path === path && r.body.includes(customer.body.id))
      if (found) return found
      if (Date.now() > deadline) throw new Error(`no delivery to ${path}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  it("a new endpoint's secret is whsec_ and 32 bytes in base64, which a stock verifier takes as shown", async () => {
    const made = await endpoint('/standard')
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(made.secret.slice('whsec_'.length), 'base64')).toHaveLength(32)
    expect(made).toMatchObject({uses_standard_webhook_signature: true, api_version: '2026-10'})
    expect(made).not.toHaveProperty('secret_generated_at')
    const r = await delivered('/standard')
    const event = new Webhook(made.secret).verify(r.body, headersOf(r))
    expect(event).toMatchObject({type: 'customer.created', api_version: '2026-10'})
    // the old trick (base64 of the whole secret) no longer verifies it
    expect(() => legacyWebhook(made.secret).verify(r.body, headersOf(r))).toThrow()
  })

  it('the seeded endpoint, made before 2026-09-08, signs the legacy way until its secret is reset', async () => {
    const endpoints = await listAll(env, '/webhooks/endpoints')
    const seeded = endpoints.filter((e) => e.uses_standard_webhook_signature === false)
    expect(seeded).toHaveLength(1)
    const old = seeded[0]!
    expect(old.secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/)
    expect(Date.parse(old.created_at)).toBeLessThan(Date.parse('2026-09-08T00:00:00Z'))
    const body = {url: `${receiver.url}/seeded`, enabled: true, events: ['customer.created']}
    const moved = await api(env, 'PATCH', `/webhooks/endpoints/${old.id}`, {body})
    expect(moved.body).toMatchObject({uses_standard_webhook_signature: false, secret: old.secret})
    const r = await delivered('/seeded')
    // the key is the UTF-8 bytes of the whole secret: a stock verifier takes it as base64 of the secret
    expect(legacyWebhook(old.secret).verify(r.body, headersOf(r))).toMatchObject({type: 'customer.created'})
    expect(() => new Webhook(old.secret).verify(r.body, headersOf(r))).toThrow()

    const reset = await api(env, 'PATCH', `/webhooks/endpoints/${old.id}/secret`)
    expect(reset.status, brief(reset)).toBe(200)
    expect(reset.body.uses_standard_webhook_signature).toBe(true)
    expect(reset.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const after = await delivered('/seeded')
    const event = new Webhook(reset.body.secret).verify(after.body, headersOf(after))
    expect(event).toMatchObject({type: 'customer.created'})
  })

  it("a merchant's own secret is taken on 2026-04 only, signing the legacy way; later versions ignore it", async () => {
    allowRefusals()
    const own = `whsec_${'merchant-chosen-secret-'.repeat(2)}`
    const kept = await endpoint('/own', {secret: own}, '2026-04')
    expect(kept).toMatchObject({secret: own, uses_standard_webhook_signature: false})
    const r = await delivered('/own')
    expect(legacyWebhook(own).verify(r.body, headersOf(r))).toMatchObject({type: 'customer.created'})

    const standard = await endpoint('/later')
    const given = await api(env, 'PATCH', `/webhooks/endpoints/${standard.id}`, {...v('2026-04'), body: {secret: own}})
    expect(given.body).toMatchObject({secret: own, uses_standard_webhook_signature: false})

    for (const version of ['2026-10', '2027-01']) {
      const ignored = await endpoint('/ignored', {secret: own}, version)
      expect(ignored.secret).not.toBe(own)
      expect(ignored.uses_standard_webhook_signature).toBe(true)
    }
    const short = await api(env, 'POST', '/webhooks/endpoints', {
      ...v('2026-04'),
      body: {url: `${receiver.url}/short`, format: 'raw', events: ['order.paid'], secret: 'whsec_short'},
    })
    expect(short.status).toBe(422)
    expect(short.body.detail[0]).toMatchObject({type: 'string_too_short', loc: ['body', 'secret']})
  })

  it('an API version the service does not serve is a 422 naming it', async () => {
    allowRefusals()
    for (const [value, msg] of [
      ['2025-01', 'Value error, Invalid API version: 2025-01'],
      ['latest', 'Value error, Invalid version string: latest'],
    ]) {
      const create = await api(env, 'POST', '/webhooks/endpoints', {
        body: {url: `${receiver.url}/bad`, format: 'raw', events: ['order.paid'], api_version: value},
      })
      expect(create.status).toBe(422)
      expect(create.body.detail).toEqual([{type: 'value_error', loc: ['body', 'api_version'], msg, input: value}])
    }
    const made = await endpoint('/update-bad')
    const update = await api(env, 'PATCH', `/webhooks/endpoints/${made.id}`, {body: {api_version: '2026-07'}})
    expect(update.status).toBe(422)
    expect(update.body.detail[0].msg).toBe('Value error, Invalid API version: 2026-07')
  })

  it('each delivery names its API version in webhook-api-version; a redelivery keeps version and payload', async () => {
    const made = await endpoint('/versioned', {api_version: '2026-04'})
    const first = await delivered('/versioned')
    expect(first.headers['webhook-api-version']).toBe('2026-04')
    expect(JSON.parse(first.body).api_version).toBe('2026-04')
    const deliveries = await api(env, 'GET', `/webhooks/deliveries?endpoint_id=${made.id}`)
    const event = deliveries.body.items[0].webhook_event
    expect(event.api_version).toBe('2026-04')

    const changed = await api(env, 'PATCH', `/webhooks/endpoints/${made.id}`, {body: {api_version: '2027-01'}})
    expect(changed.body.api_version).toBe('2027-01')
    const count = receiver.received.length
    expect((await api(env, 'POST', `/webhooks/events/${event.id}/redeliver`)).status).toBe(202)
    const deadline = Date.now() + scaled(10_000)
    let again: Received | undefined
    while (!(again = receiver.received.slice(count).find((r) => r.headers['webhook-id'] === event.id))) {
      if (Date.now() > deadline) throw new Error('no redelivery')
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(again.headers['webhook-api-version']).toBe('2026-04')
    expect(again.body).toBe(first.body)
    expect(new Webhook(made.secret).verify(again.body, headersOf(again))).toMatchObject({api_version: '2026-04'})

    const next = await delivered('/versioned')
    expect(next.headers['webhook-api-version']).toBe('2027-01')
    expect(JSON.parse(next.body).api_version).toBe('2027-01')
  })
})
