// Contract, SDK 1.0.1: the emulator's license keys and webhook endpoints as the SDK's client of each API
// version types them (2026-04, 2026-10, 2027-01), checked key by key against that version's declarations;
// the requests and answers are also checked against the service's OpenAPI document (contract mode).
import '../helpers/contract.js'

import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {sleep, type Json} from '../helpers/emulator.js'
import {expectShape, useContract, VERSIONS} from './harness.js'
import {waitUntil} from '../helpers/machine.js'

const h = useContract({orders: 30})

/** A granted key that allows activations, of a customer, with the grant it came from. */
async function grantedKey(): Promise<{key: Json; grant: Json}> {
  const grants = (await h.polar.benefitGrants.list({limit: 100})).items as Json[]
  for (const k of (await h.polar.licenseKeys.list({limit: 100})).items) {
    const grant = grants.find((g) => g.properties?.license_key_id === k.id)
    if (k.status === 'granted' && k.limit_activations && grant?.subscription_id) return {key: k, grant}
  }
  throw new Error('no granted license key with activations in the seeded data')
}

describe('license keys, per API version', () => {
  it("list, get, validate, activate, the activation, deactivate: each answer is the version's type", async () => {
    const {key} = await grantedKey()
    for (const version of VERSIONS) {
      const polar = h.client(version)
      expectShape(version, 'ListResourceLicenseKeyRead', await polar.licenseKeys.list({limit: 5}), `${version} list`)
      expectShape(version, 'LicenseKeyWithActivations', await polar.licenseKeys.get(key.id), `${version} get`)
      const body = {key: key.key, organization_id: h.env.organizationId}
      expectShape(version, 'ValidatedLicenseKey', await polar.licenseKeys.validate(body), `${version} validate`)
      const activated = await polar.licenseKeys.activate({...body, label: `contract ${version}`})
      expectShape(version, 'LicenseKeyActivationCreated', activated, `${version} activate`)
      expectShape(version, 'LicenseKeyActivationRead', await polar.licenseKeys.getActivation(key.id, activated.id), `${version} activation`)
      await polar.licenseKeys.deactivate({...body, activation_id: activated.id})
    }
  })

  it('the portal (customer session, and the unauthenticated twins) answers the same types', async () => {
    const {key} = await grantedKey()
    const session = await h.polar.customerSessions.create({customer_id: key.customer_id})
    for (const version of VERSIONS) {
      const portal = h.client(version, session.token).customerPortal.licenseKeys
      expectShape(version, 'ListResourceLicenseKeyRead', await portal.list({limit: 5}), `${version} portal list`)
      expectShape(version, 'LicenseKeyWithActivations', await portal.get(key.id), `${version} portal get`)
      const anonymous = h.client(version, '').customerPortal.licenseKeys
      const body = {key: key.key, organization_id: h.env.organizationId}
      expectShape(version, 'ValidatedLicenseKey', await anonymous.validate(body), `${version} portal validate`)
      await sleep(400) // the unauthenticated routes allow 3 requests a second
    }
  })

  it('2026-10 names the member (none: null); 2027-01 also the subscription the key was granted for', async () => {
    const {key, grant} = await grantedKey()
    const now = await h.polar.licenseKeys.get(key.id)
    expect(now).toMatchObject({member_id: null, member: null})
    expect(now.customer.first_user_event_at).toBeNull()
    const next = await h.client('2027-01').licenseKeys.validate({key: key.key, organization_id: h.env.organizationId})
    const subscription = await h.polar.subscriptions.get(grant.subscription_id)
    expect(next.subscription_id).toBe(subscription.id)
    expect(next.subscription).toEqual({
      id: subscription.id,
      status: subscription.status,
      current_period_start: subscription.current_period_start,
      current_period_end: subscription.current_period_end,
      cancel_at_period_end: subscription.cancel_at_period_end,
      ends_at: subscription.ends_at,
    })
    expect(next).toMatchObject({order_id: null, order: null})
  })
})

describe('webhook endpoints, per API version', () => {
  let server: Server
  let url = ''
  const bodies: string[] = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.setEncoding('utf8').on('data', (c: string) => (body += c))
      req.on('end', () => {
        bodies.push(body)
        res.end('ok')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it("create, get, update and list answer the version's WebhookEndpoint, with the api_version of the payloads", async () => {
    for (const version of VERSIONS) {
      const polar = h.client(version)
      const made = await polar.webhooks.createWebhookEndpoint({url, format: 'raw', events: ['order.paid']})
      expectShape(version, 'WebhookEndpoint', made, `${version} create`)
      expect(made).toMatchObject({api_version: '2026-10', uses_standard_webhook_signature: true})
      const pinned = await polar.webhooks.updateWebhookEndpoint(made.id, {api_version: '2026-04'})
      expect(pinned.api_version).toBe('2026-04')
      expectShape(version, 'WebhookEndpoint', await polar.webhooks.getWebhookEndpoint(made.id), `${version} get`)
      expectShape(version, 'ListResourceWebhookEndpoint', await polar.webhooks.listWebhookEndpoints({limit: 100}), `${version} list`)
      await polar.webhooks.deleteWebhookEndpoint(made.id)
    }
  })

  it("a delivery's event carries its endpoint's api_version", async () => {
    const endpoint = await h.polar.webhooks.createWebhookEndpoint({url, format: 'raw', events: ['customer.created'], api_version: '2026-04'})
    const customer = await h.polar.customers.create({email: 'versions.contract@example.com'})
    await waitUntil(() => bodies.some((b) => b.includes(customer.id)), 10_000, 100)
    const deliveries = await h.polar.webhooks.listWebhookDeliveries({endpoint_id: endpoint.id})
    // the delivery itself also carries webhook_endpoint_id and attempt, which neither the document nor the SDK
    // has (till's deliveries columns read them): its event is checked here
    expectShape('2026-10', 'WebhookEvent', deliveries.items[0]!.webhook_event, 'delivery event')
    expect(deliveries.items.map((d) => d.webhook_event.api_version)).toEqual(['2026-04'])
    expect(JSON.parse(deliveries.items[0]!.webhook_event.payload!).data.id).toBe(customer.id)
  })
})
