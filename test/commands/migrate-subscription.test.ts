// The cutover of an imported subscription, simulated by `till emulator migrate-subscription` on the
// emulator's control surface (polarsource/polar #14508): a receiver registered as a webhook endpoint gets
// subscription.migrated, with provider and provider_subscription_id at the payload's top level, then
// subscription.updated, each verified by the stock Standard Webhooks library; the Events API records the
// system event; `till trigger subscription.migrated --json` has the same top-level fields.
import {Webhook} from 'standardwebhooks'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {runInProcess} from '../helpers/in-process.js'
import {eventually} from '../helpers/machine.js'
import {startReceiver, type Received, type Receiver} from '../helpers/receiver.js'

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
})

describe('till emulator migrate-subscription', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let vars: NodeJS.ProcessEnv
  let receiver: Receiver

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    vars = box.env(envVars(env))
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
    await emulator?.stop()
    box?.cleanup()
  })

  const till = (args: string[]) => runInProcess(args, {env: vars})

  it('sends subscription.migrated with the provider fields at the top level, then subscription.updated, and records the system event', async () => {
    const body = {url: `${receiver.url}/hooks`, format: 'raw', events: ['subscription.migrated', 'subscription.updated']}
    const endpoint = await api(env, 'POST', '/webhooks/endpoints', {body})
    expect(endpoint.status, brief(endpoint)).toBe(201)
    const [s] = await listAll(env, '/subscriptions/', 'status=active')
    const args = ['emulator', 'migrate-subscription', s.id, '--provider', 'stripe', '--provider-subscription-id', 'sub_1Migrated']
    const res = await till(args)
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toBe(`Migrated subscription ${s.id} from stripe sub_1Migrated: subscription.migrated and subscription.updated sent.\n`)

    const mine = () => receiver.received.filter((r) => (JSON.parse(r.body) as Json).data.id === s.id)
    await eventually('both deliveries', () => mine().length >= 2)
    const [migrated, updated] = mine().map((r) => ({r, payload: new Webhook(endpoint.body.secret).verify(r.body, headersOf(r)) as Json}))
    expect(Object.keys(migrated!.payload)).toEqual(['type', 'timestamp', 'api_version', 'data', 'provider', 'provider_subscription_id'])
    expect(migrated!.payload).toMatchObject({type: 'subscription.migrated', api_version: '2026-10', provider: 'stripe'})
    expect(migrated!.payload.provider_subscription_id).toBe('sub_1Migrated')
    expect(migrated!.r.headers['webhook-api-version']).toBe('2026-10')
    expect(updated!.payload.type).toBe('subscription.updated')
    expect(Object.keys(updated!.payload)).toEqual(['type', 'timestamp', 'api_version', 'data'])

    const events = await api(env, 'GET', '/events/?source=system&name=subscription.migrated')
    expect(events.status, brief(events)).toBe(200)
    const event = events.body.items.find((e: Json) => e.metadata.subscription_id === s.id)
    expect(event).toMatchObject({source: 'system', name: 'subscription.migrated', customer_id: s.customer_id})
    expect(event.metadata).toEqual({subscription_id: s.id, provider: 'stripe', provider_subscription_id: 'sub_1Migrated', product_id: s.product_id})

    const again = await till(args)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(`Subscription ${s.id} was already migrated (from stripe sub_1Migrated).`)
    const missing = await till(['emulator', 'migrate-subscription', s.id, '--provider', 'stripe'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--provider-subscription-id')
  })

  it('till trigger subscription.migrated --json has the provider fields at the top level too', async () => {
    const res = await till(['trigger', 'subscription.migrated', '--json'])
    expect(res.code, res.stderr).toBe(0)
    const payload = JSON.parse(res.stdout) as Json
    expect(Object.keys(payload)).toEqual(['type', 'timestamp', 'api_version', 'data', 'provider', 'provider_subscription_id'])
    expect(payload.provider).toBe('stripe')
  })
})
