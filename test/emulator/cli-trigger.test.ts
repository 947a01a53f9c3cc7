// The service's trigger routes for its CLI, as the emulator serves them (server/polar/cli/service.py):
// `GET /v1/cli/events` and `POST /v1/cli/trigger/{organization_id}`, each answer as the service gives it, the
// payloads valid against the document's webhook payload schemas, nothing stored, and a delivered event on
// the listen stream with `x-polar-triggered: true`.
import {readFileSync} from 'node:fs'

import {validateEvent} from '@polar-sh/sdk-0.49/webhooks'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {WEBHOOK_EVENTS} from '../../src/client/webhook-events.js'
import {newAjvs} from '../../src/emulator/core/contract-schemas.js'
import {newerBeside, withNewer} from '../../src/emulator/core/contract-newer.js'
import {allowRefusalsInFile, SPEC} from '../helpers/contract.js'
import {api, control, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {eventually} from '../helpers/machine.js'

// the bad bodies below are refused on purpose
allowRefusalsInFile()

let emulator: Emulator
let env: EnvHandle

const trigger = (body: Json, organizationId = env.organizationId) => api(env, 'POST', `/cli/trigger/${organizationId}`, {body})

/** The document's name of an event's payload schema: customer_seat.assigned -> WebhookCustomerSeatAssignedPayload. */
const schemaOf = (type: string) =>
  `Webhook${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Payload`

/** A listen stream of the environment, read message by message. */
async function openStream() {
  const controller = new AbortController()
  const res = await fetch(`${env.url}/cli/listen/${env.organizationId}`, {headers: {authorization: `Bearer ${env.token}`}, signal: controller.signal})
  expect(res.status).toBe(200)
  const reader = res.body!.getReader()
  let text = ''
  const messages: Json[] = []
  void (async () => {
    try {
      for (;;) {
        const {value, done} = await reader.read()
        if (done) return
        text += new TextDecoder().decode(value)
        const frames = text.split('\r\n\r\n')
        text = frames.pop()!
        for (const f of frames) if (f.startsWith('data: ')) messages.push(JSON.parse(f.slice(6)) as Json)
      }
    } catch {
      // aborted
    }
  })()
  return {messages, close: () => controller.abort()}
}

describe('the trigger routes of the service CLI', () => {
  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
  })
  afterAll(() => emulator?.stop())

  it('GET /v1/cli/events lists every webhook event type with the first line of its description', async () => {
    const res = await api(env, 'GET', '/cli/events')
    expect(res.status).toBe(200)
    expect(res.body.map((e: Json) => e.type)).toEqual([...WEBHOOK_EVENTS])
    for (const e of res.body) expect(Object.keys(e).sort()).toEqual(['description', 'type'])
    expect(res.body.find((e: Json) => e.type === 'order.paid')).toEqual({type: 'order.paid', description: 'Sent when an order is paid.'})
    expect(res.body.find((e: Json) => e.type === 'subscription.active').description).toBe('Sent when a subscription becomes active,')
  })

  it('builds a payload of every event type, valid against its schema in the document, and stores nothing', async () => {
    const document = withNewer(JSON.parse(readFileSync(SPEC, 'utf8')) as Json, newerBeside(SPEC))
    const {bodies} = newAjvs(document)
    const before = (await api(env, 'GET', '/orders/?limit=1')).body.pagination.total_count
    for (const type of WEBHOOK_EVENTS) {
      const res = await trigger({event: type, deliver: false})
      expect(res.status, `${type}: ${res.text}`).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual(['delivered', 'event', 'payload', 'webhook_event_id'])
      expect(res.body).toMatchObject({event: type, delivered: false})
      expect(res.body.webhook_event_id).toMatch(/^[0-9a-f-]{36}$/)
      const {payload} = res.body
      // a migrated subscription's payload names where it came from beside its data (#14508)
      const beside = type === 'subscription.migrated' ? ['provider', 'provider_subscription_id'] : []
      expect(Object.keys(payload)).toEqual(['type', 'timestamp', 'api_version', 'data', ...beside])
      expect(payload).toMatchObject({type, api_version: '2026-10'})
      const validate = bodies.compile({$ref: `spec#/components/schemas/${schemaOf(type)}`})
      expect(validate(payload), `${type}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true)
      // the organization is the environment's own; no other id names an object of the environment
      if (type !== 'organization.updated') expect((await api(env, 'GET', `/orders/${payload.data.id}`)).status).toBe(404)
    }
    expect((await api(env, 'GET', '/orders/?limit=1')).body.pagination.total_count).toBe(before)
    const order = (await trigger({event: 'order.paid', deliver: false})).body.payload.data
    expect(order.organization_id ?? order.product?.organization_id).toBe(env.organizationId)
    // the service's fixtures change the object as the event says
    expect((await trigger({event: 'order.created', deliver: false})).body.payload.data.status).toBe('pending')
    expect((await trigger({event: 'order.refunded', deliver: false})).body.payload.data.status).toBe('refunded')
    expect((await trigger({event: 'subscription.canceled', deliver: false})).body.payload.data.cancel_at_period_end).toBe(true)
    expect((await trigger({event: 'checkout.expired', deliver: false})).body.payload.data.status).toBe('expired')
  })

  it('a seed gives the same ids every time, and the same object the same id in every event; no seed, new ones', async () => {
    const a = (await trigger({event: 'order.paid', deliver: false, seed: 42})).body.payload.data
    const b = (await trigger({event: 'order.paid', deliver: false, seed: 42})).body.payload.data
    expect(b.id).toBe(a.id)
    expect(b.customer.id).toBe(a.customer.id)
    const customer = (await trigger({event: 'customer.created', deliver: false, seed: 42})).body.payload.data
    expect(customer.id).toBe(a.customer_id)
    expect((await trigger({event: 'order.paid', deliver: false, seed: 43})).body.payload.data.id).not.toBe(a.id)
    expect((await trigger({event: 'order.paid', deliver: false})).body.payload.data.id).not.toBe(a.id)
  })

  it('overrides set dotted paths from the payload root, lists by index, maps by key', async () => {
    const res = await trigger({
      event: 'order.paid',
      deliver: false,
      overrides: {'data.total_amount': 4200, 'data.customer.email': 'ada@example.com', 'data.items.0.label': 'Seat', 'data.metadata.plan': 'pro'},
    })
    expect(res.status, res.text).toBe(200)
    const data = res.body.payload.data
    expect([data.total_amount, data.customer.email, data.items[0].label, data.metadata.plan]).toEqual([4200, 'ada@example.com', 'Seat', 'pro'])
  })

  it("refuses a bad override with the service's 422 at its path", async () => {
    const refused = async (overrides: Json) => {
      const res = await trigger({event: 'order.paid', deliver: false, overrides})
      expect(res.status, res.text).toBe(422)
      expect(res.body.error).toBe('PolarRequestValidationError')
      return res.body.detail.map((d: Json) => [d.loc, d.msg, d.type, d.input])
    }
    expect(await refused({type: 'order.created'})).toEqual([[['body', 'overrides', 'type'], "'type' cannot be overridden", 'value_error', 'order.created']])
    expect(await refused({'data.items.x.label': 1})).toEqual([[['body', 'overrides', 'data.items.x.label'], "'x' is not a valid list index", 'value_error', 1]])
    expect(await refused({'data.items.7': 1})).toEqual([[['body', 'overrides', 'data.items.7'], 'List index 7 is out of range', 'value_error', 1]])
    expect(await refused({'data.status.k': 1})).toEqual([[['body', 'overrides', 'data.status.k'], "Cannot set 'k' on a str", 'value_error', 1]])
    expect(await refused({'data.discount_id.k': 1})).toEqual([[['body', 'overrides', 'data.discount_id.k'], "Cannot set 'k' on a NoneType", 'value_error', 1]])
    expect(await refused({'data.nope': 1})).toEqual([[['body', 'overrides', 'data.nope'], "'data.nope' is not a field of this payload", 'value_error', 1]])
  })

  it('answers 404 for another organization, and 409 NoActiveListener naming the slug when nothing listens', async () => {
    const other = await trigger({event: 'order.paid', deliver: false}, crypto.randomUUID())
    expect(other.status).toBe(404)
    expect(other.body).toEqual({error: 'ResourceNotFound', detail: 'Not found'})
    expect((await control(env, 'GET', '/listeners')).body.listeners).toBe(0)
    const none = await trigger({event: 'order.paid'})
    expect(none.status).toBe(409)
    const slug = (await api(env, 'GET', `/organizations/${env.organizationId}`)).body.slug
    expect(none.body).toEqual({error: 'NoActiveListener', detail: `No CLI is listening for ${slug}. Run \`polar listen <url>\` in another terminal first.`})
  })

  it('a delivered event reaches the listen stream as a webhook.created message, signed, with x-polar-triggered: true', async () => {
    const stream = await openStream()
    try {
      await eventually('the connected message', () => stream.messages.length >= 1)
      const secret = stream.messages[0]!.secret as string
      const res = await trigger({event: 'subscription.canceled', seed: 7})
      expect(res.status, res.text).toBe(200)
      expect(res.body.delivered).toBe(true)
      const message = await eventually('the triggered message', () => stream.messages.find((m) => m.key === 'webhook.created'))
      expect(message.payload).toEqual({webhook_event_id: res.body.webhook_event_id, payload: JSON.stringify(res.body.payload), triggered: true})
      expect(message.headers).toMatchObject({'x-polar-triggered': 'true', 'webhook-id': res.body.webhook_event_id, 'user-agent': 'polar.sh webhooks'})
      expect(message.headers['webhook-api-version']).toBe(res.body.payload.api_version)
      const event = validateEvent(message.payload.payload, message.headers, secret)
      expect(event.type).toBe('subscription.canceled')
    } finally {
      stream.close()
    }
  })
})
