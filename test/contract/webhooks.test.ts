// Contract: every webhook delivery the emulator sends is checked with the SDK's `validateEvent`
// (Standard Webhooks signature with the endpoint's secret, and the payload's schema for its type).
// One endpoint subscribed to every event type receives what a run of SDK calls and control actions causes.
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {validateEvent} from '@polar-sh/sdk/webhooks.js'
import {Subscription$inboundSchema} from '@polar-sh/sdk/models/components/subscription.js'
import {Webhook} from 'standardwebhooks'
import {afterAll, beforeAll, expect, it} from 'vitest'

import {api} from '../helpers/emulator.js'
import {collect, useContract} from './harness.js'
import {WEBHOOK_EVENTS} from '../../src/client/webhook-events.js'

const h = useContract({paymentDelay: '0s'})

interface Delivery {
  headers: IncomingHttpHeaders
  body: string
}

const received: Delivery[] = []
let server: Server
let receiverUrl = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8').on('data', (c: string) => (body += c))
    req.on('end', () => {
      received.push({headers: req.headers, body})
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const typesReceived = () => new Set(received.map((d) => (JSON.parse(d.body) as {type: string}).type))

async function waitFor(types: string[], timeoutMs = 15_000): Promise<void> {
  const started = Date.now()
  while (types.some((t) => !typesReceived().has(t)) && Date.now() - started < timeoutMs) await new Promise((r) => setTimeout(r, 100))
}

it('every delivery passes validateEvent, for each event type the emulator sends', {timeout: 60_000}, async () => {
  const endpoint = await h.polar.webhooks.createWebhookEndpoint({url: receiverUrl, format: 'raw', events: [...WEBHOOK_EVENTS] as never[]})

  // Catalog events.
  const benefit = await h.polar.benefits.create({type: 'custom', description: 'Webhook perk', properties: {note: 'n'}})
  await h.polar.benefits.update({id: benefit.id, requestBody: {type: 'custom', description: 'Webhook perk 2'}})
  const product = await h.polar.products.create({name: 'Webhook Plan', recurringInterval: 'month', prices: [{amountType: 'fixed', priceAmount: 1500}]})
  await h.polar.products.updateBenefits({id: product.id, productBenefitsUpdate: {benefits: [benefit.id]}})
  await h.polar.products.update({id: product.id, productUpdate: {description: 'changed'}})

  // Customer events.
  const customer = await h.polar.customers.create({email: 'webhook.customer@example.com'})
  await h.polar.customers.update({id: customer.id, customerUpdate: {name: 'Webhook Customer'}})

  // A checkout that becomes a paid order, a subscription and a benefit grant.
  const checkout = await h.polar.checkouts.create({products: [product.id], customerId: customer.id})
  await h.polar.checkouts.update({id: checkout.id, checkoutUpdate: {customerName: 'Webhook Customer'}})
  await h.anonymous.checkouts.clientConfirm({clientSecret: checkout.clientSecret, checkoutConfirmStripe: {customerBillingAddress: {country: 'US'}}})
  await waitFor(['order.paid', 'benefit_grant.created'])
  const orders = await collect(await h.polar.orders.list({customerId: customer.id}))
  const order = orders.items[0]!
  await h.polar.orders.update({id: order.id, orderUpdate: {billingName: 'Webhook Customer'}})
  await h.polar.refunds.create({orderId: order.id, reason: 'customer_request', amount: 100})

  // Subscription life cycle: cancel, uncancel, renew, a failed renewal, revoke.
  const subscription = (await collect(await h.polar.subscriptions.list({customerId: customer.id}))).items[0]!
  await h.polar.subscriptions.update({id: subscription.id, subscriptionUpdate: {cancelAtPeriodEnd: true}})
  await h.polar.subscriptions.update({id: subscription.id, subscriptionUpdate: {cancelAtPeriodEnd: false}})
  const origin = h.env.url.replace(/\/v1$/, '')
  expect((await api(h.env, 'POST', `${origin}/_emulator/subscriptions/${subscription.id}/renew`)).status).toBeLessThan(300)
  expect((await api(h.env, 'POST', `${origin}/_emulator/subscriptions/${subscription.id}/fail-payment`)).status).toBeLessThan(300)
  await h.polar.subscriptions.revoke({id: subscription.id})

  // Organization and the customer's deletion last.
  await h.polar.organizations.update({id: h.env.organizationId, organizationUpdate: {name: 'Acme Webhooks'}})
  await h.polar.customers.delete({id: customer.id})

  const expected = [
    'benefit.created', 'benefit.updated', 'product.created', 'product.updated', 'customer.created', 'customer.updated', 'customer.deleted',
    'customer.state_changed', 'checkout.created', 'checkout.updated', 'order.created', 'order.updated', 'order.paid', 'order.refunded',
    'refund.created', 'subscription.created', 'subscription.active', 'subscription.updated', 'subscription.canceled', 'subscription.uncanceled',
    'subscription.cycled', 'subscription.past_due', 'subscription.revoked', 'benefit_grant.created', 'benefit_grant.revoked', 'organization.updated',
  ]
  await waitFor(expected)
  expect([...typesReceived()].sort()).toEqual(expect.arrayContaining(expected))

  // Every single delivery: signature and schema, checked by the SDK.
  // `subscription.cycled` is sent by the service but unknown to SDK 0.49 (its validateEvent throws on unknown
  // types): its signature is checked with the same key the SDK uses, and its data with the SDK's Subscription.
  const failures: string[] = []
  const unknownToSdk = new Set<string>()
  for (const d of received) {
    const headers = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)]))
    const type = JSON.parse(d.body).type as string
    try {
      if (type === 'subscription.cycled') {
        unknownToSdk.add(type)
        expect(() => validateEvent(d.body, headers, endpoint.secret)).toThrow(/Unknown event type/)
        const payload = new Webhook(Buffer.from(endpoint.secret, 'utf8').toString('base64')).verify(d.body, headers) as {data: unknown}
        Subscription$inboundSchema.parse(payload.data)
        continue
      }
      const event = validateEvent(d.body, headers, endpoint.secret) as {type: string}
      expect(event.type).toBe(type)
    } catch (error) {
      failures.push(`${type}: ${(error as Error).message.slice(0, 400)}`)
    }
  }
  expect(failures).toEqual([])
  expect([...unknownToSdk]).toEqual(['subscription.cycled'])

  // A wrong secret is refused: the check is real.
  const first = received[0]!
  expect(() => validateEvent(first.body, Object.fromEntries(Object.entries(first.headers).map(([k, v]) => [k, String(v)])), 'whsec_wrong')).toThrow()
})
