// Contract: every webhook delivery the emulator sends is checked with the SDK 1.0.1's `validateEvent`
// (the signature with the endpoint's secret, and a type it knows), and its body's keys against the SDK's
// declared payload type for that event (WebhookOrderPaidPayload: type, timestamp, api_version, data). The
// data's own keys are the other resources' presenters' (deprecated keys the SDK types omit): not checked here.
// One endpoint subscribed to every event type receives what a run of SDK calls and control actions causes.
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {webhooks} from '@polar-sh/sdk/2026-10'
import {afterAll, beforeAll, expect, it} from 'vitest'

import {control} from '../helpers/emulator.js'
import {sdkFields, useContract} from './harness.js'
import {WEBHOOK_EVENTS} from '../../src/client/webhook-events.js'
import {scaled} from '../helpers/machine.js'

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

async function waitFor(types: string[], timeoutMs = scaled(15_000)): Promise<void> {
  const started = Date.now()
  while (types.some((t) => !typesReceived().has(t)) && Date.now() - started < timeoutMs) await new Promise((r) => setTimeout(r, 100))
}

it('every delivery passes validateEvent, for each event type the emulator sends', {timeout: scaled(60_000)}, async () => {
  const endpoint = await h.polar.webhooks.createWebhookEndpoint({url: receiverUrl, format: 'raw', events: [...WEBHOOK_EVENTS]})
  expect(endpoint.api_version).toBe('2026-10')
  const polar = h.polar
  const anonymous = h.client('2026-10', '')

  // Catalog events.
  const benefit = await polar.benefits.create({type: 'custom', description: 'Webhook perk', properties: {note: 'n'}})
  await polar.benefits.update(benefit.id, {type: 'custom', description: 'Webhook perk 2'})
  const product = await polar.products.create({name: 'Webhook Plan', recurring_interval: 'month', prices: [{amount_type: 'fixed', price_amount: 1500}]})
  await polar.products.updateBenefits(product.id, {benefits: [benefit.id]})
  await polar.products.update(product.id, {description: 'changed'})

  // Customer events.
  const customer = await polar.customers.create({email: 'webhook.customer@example.com'})
  await polar.customers.update(customer.id, {name: 'Webhook Customer'})

  // A checkout that becomes a paid order, a subscription and a benefit grant.
  const checkout = await polar.checkouts.create({products: [product.id], customer_id: customer.id})
  await polar.checkouts.update(checkout.id, {customer_name: 'Webhook Customer'})
  await anonymous.checkouts.clientConfirm(checkout.client_secret, {customer_billing_address: {country: 'US'}})
  await waitFor(['order.paid', 'benefit_grant.created'])
  const order = (await polar.orders.list({customer_id: customer.id})).items[0]!
  await polar.orders.update(order.id, {billing_name: 'Webhook Customer'})
  await polar.refunds.create({order_id: order.id, reason: 'customer_request', amount: 100})

  // Subscription life cycle: cancel, uncancel, renew, a failed renewal, revoke.
  const subscription = (await polar.subscriptions.list({customer_id: customer.id})).items[0]!
  await polar.subscriptions.update(subscription.id, {cancel_at_period_end: true})
  await polar.subscriptions.update(subscription.id, {cancel_at_period_end: false})
  expect((await control(h.env, 'POST', `subscriptions/${subscription.id}/renew`)).status).toBeLessThan(300)
  expect((await control(h.env, 'POST', `subscriptions/${subscription.id}/fail-payment`)).status).toBeLessThan(300)
  await polar.subscriptions.revoke(subscription.id)

  // Seats of the seeded seat-based subscription: one assigned, its invitation (read from the control surface, as
  // the service e-mails it) claimed, one revoked.
  const seatProduct = (await polar.products.list({query: 'Team Seats'})).items[0]!
  const seated = (await polar.subscriptions.list({product_id: seatProduct.id})).items.find((s) => s.seats !== null)!
  const seat = await polar.customerSeats.assignSeat({subscription_id: seated.id, email: 'webhook.seat@example.com'})
  const invitation = await control(h.env, 'GET', `customer-seats/${seat.id}/invitation`)
  expect((await anonymous.customerSeats.getClaimInfo(invitation.body.invitation_token)).can_claim).toBe(true)
  const claimed = await anonymous.customerSeats.claimSeat({invitation_token: invitation.body.invitation_token})
  expect(claimed.seat.status).toBe('claimed')
  expect((await polar.customerSeats.revokeSeat(seat.id)).status).toBe('revoked')

  // Organization and the customer's deletion last.
  await polar.organizations.update(h.env.organizationId, {name: 'Acme Webhooks'})
  await polar.customers.delete(customer.id)

  const expected = [
    'benefit.created',
    'benefit.updated',
    'product.created',
    'product.updated',
    'customer.created',
    'customer.updated',
    'customer.deleted',
    'customer.state_changed',
    'member.created',
    'member.deleted',
    'checkout.created',
    'checkout.updated',
    'order.created',
    'order.updated',
    'order.paid',
    'order.refunded',
    'refund.created',
    'subscription.created',
    'subscription.active',
    'subscription.updated',
    'subscription.canceled',
    'subscription.uncanceled',
    'subscription.cycled',
    'subscription.past_due',
    'subscription.revoked',
    'benefit_grant.created',
    'benefit_grant.revoked',
    'organization.updated',
    'customer_seat.assigned',
    'customer_seat.claimed',
    'customer_seat.revoked',
  ]
  await waitFor(expected)
  expect([...typesReceived()].sort()).toEqual(expect.arrayContaining(expected))

  // Every single delivery: the signature and the type, checked by the SDK (1.0.1 knows subscription.cycled);
  // the body's keys against the SDK's declared payload type of the event.
  const failures: string[] = []
  const payloadType = (type: string) =>
    `Webhook${type
      .split(/[._]/)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('')}Payload`
  for (const d of received) {
    const headers = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)]))
    const type = JSON.parse(d.body).type as string
    try {
      const event = await webhooks.validateEvent(d.body, headers, endpoint.secret)
      expect(event.type).toBe(type)
      // the version of the payload, in its header too (server/polar/webhook/tasks.py)
      expect(headers['webhook-api-version'], `${type} webhook-api-version`).toBe(JSON.parse(d.body).api_version)
      const envelope = sdkFields('2026-10', payloadType(type))
        ?.map((f) => f.name)
        .sort()
      expect(Object.keys(JSON.parse(d.body)).sort(), `${type} payload keys`).toEqual(envelope)
    } catch (error) {
      failures.push(`${type}: ${(error as Error).message.slice(0, 400)}`)
    }
  }
  expect(failures).toEqual([])

  // A wrong secret is refused: the check is real.
  const first = received[0]!
  await expect(
    webhooks.validateEvent(first.body, Object.fromEntries(Object.entries(first.headers).map(([k, v]) => [k, String(v)])), 'whsec_wrong'),
  ).rejects.toThrow()
})
