// Contract: customers (by id and external id, state), customer sessions, organizations, license keys and
// webhook endpoints through the SDK, with the auth errors the SDK types (401, 403-free org token).
import {describe, expect, it} from 'vitest'

import {ResourceNotFound} from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js'
import {HTTPValidationError} from '@polar-sh/sdk-0.49/models/errors/httpvalidationerror.js'

import {unknownId} from '../helpers/emulator.js'
import {collect, rejection, useContract} from './harness-0.49.js'

const h = useContract()

describe('customers', () => {
  it('lists every page (with and without external ids), creates, gets by id and external id, updates, deletes', async () => {
    const {items, totalCount} = await collect(await h.polar.customers.list({limit: 7}))
    expect(items.length).toBe(totalCount)
    expect(items.some((c) => c.externalId)).toBe(true)
    expect(items.some((c) => !c.externalId)).toBe(true)
    expect(items.some((c) => c.type === 'team')).toBe(true)
    expect(items.some((c) => c.type === 'individual')).toBe(true)
    const created = await h.polar.customers.create({
      email: 'contract.customer@example.com',
      name: 'Contract Customer',
      externalId: 'contract-1',
      metadata: {plan: 'x'},
    })
    expect(created.email).toBe('contract.customer@example.com')
    expect(created.externalId).toBe('contract-1')
    expect((await h.polar.customers.get({id: created.id})).name).toBe('Contract Customer')
    expect((await h.polar.customers.getExternal({externalId: 'contract-1'})).id).toBe(created.id)
    const updated = await h.polar.customers.update({id: created.id, customerUpdate: {name: 'Renamed'}})
    expect(updated.name).toBe('Renamed')
    const external = await h.polar.customers.updateExternal({externalId: 'contract-1', customerUpdateExternalID: {metadata: {plan: 'y'}}})
    expect(external.metadata).toEqual({plan: 'y'})
    const state = await h.polar.customers.getState({id: created.id})
    expect(state.id).toBe(created.id)
    expect(state.activeSubscriptions).toEqual([])
    expect((await h.polar.customers.getStateExternal({externalId: 'contract-1'})).id).toBe(created.id)
    await h.polar.customers.delete({id: created.id})
    expect(await rejection(h.polar.customers.get({id: created.id}))).toBeInstanceOf(ResourceNotFound)
  })

  it('a duplicate email is an HTTPValidationError; an unknown token is 401', async () => {
    const first = (await collect(await h.polar.customers.list({limit: 1}))).items[0]!
    const duplicate = await rejection(h.polar.customers.create({email: first.email!}))
    expect(duplicate).toBeInstanceOf(HTTPValidationError)
    const bad = await rejection(h.clientWith(`polar_oat_${'x'.repeat(43)}`).customers.list({}))
    expect((bad as {statusCode?: number}).statusCode).toBe(401)
    // A sandbox token on production is unknown there.
    const other = await rejection(h.clientWith(h.emulator.sandbox.token).products.list({}))
    expect((other as {statusCode?: number}).statusCode).toBe(401)
  })

  it('creates a customer session by id and by external id', async () => {
    const withExternal = (await collect(await h.polar.customers.list({limit: 100}))).items.find((c) => c.externalId)!
    const byId = await h.polar.customerSessions.create({customerId: withExternal.id})
    expect(byId.token).toMatch(/^polar_cst_/)
    expect(byId.customerId).toBe(withExternal.id)
    const byExternal = await h.polar.customerSessions.create({externalCustomerId: withExternal.externalId!})
    expect(byExternal.customer.id).toBe(withExternal.id)
  })
})

describe('organizations', () => {
  it('lists, gets and updates the organization with every field the SDK requires', async () => {
    const list = await collect(await h.polar.organizations.listOrganizations({}))
    expect(list.totalCount).toBe(1)
    const org = await h.polar.organizations.get({id: h.env.organizationId})
    expect(org.slug).toBe('acme')
    expect(org.capabilities.apiAccess).toBe(true)
    expect(org.customerPortalSettings.usage.show).toBe(true)
    const raw = await h.raw('GET', `/organizations/${h.env.organizationId}`)
    for (const key of [
      'account_id',
      'capabilities',
      'sso_enforced',
      'default_tax_behavior',
      'customer_portal_settings',
      'embed_hosts',
      'onboarding_resubmission_requested_at',
    ])
      expect(raw.body, key).toHaveProperty(key)
    // required by the service's schema, newer than SDK 0.49
    expect(raw.body.dispute_settings).toEqual({auto_accept_below_amount: null})
    expect(raw.body.customer_email_settings.payment_method_expiration_reminder).toBe(true)
    expect(raw.body.feature_settings).toMatchObject({dispute_auto_accept_enabled: false, meter_cycling_enabled: false})
    const updated = await h.polar.organizations.update({id: h.env.organizationId, organizationUpdate: {name: 'Acme Contract'}})
    expect(updated.name).toBe('Acme Contract')
  })
})

describe('license keys', () => {
  it('lists every page, gets one, validates it', async () => {
    const {items, totalCount} = await collect(await h.polar.licenseKeys.list({limit: 5}))
    expect(items.length).toBe(totalCount)
    const granted = items.find((k) => k.status === 'granted')!
    const got = await h.polar.licenseKeys.get({id: granted.id})
    expect(got.key).toBe(granted.key)
    const validated = await h.polar.licenseKeys.validate({key: granted.key, organizationId: h.env.organizationId})
    expect(validated.id).toBe(granted.id)
    expect(validated.validations).toBe(got.validations + 1)
  })
})

describe('webhook endpoints', () => {
  it('creates, lists, gets, updates, rotates the secret of and deletes an endpoint', async () => {
    const created = await h.polar.webhooks.createWebhookEndpoint({url: 'https://hooks.example.com/contract', format: 'raw', events: ['order.created']})
    expect(created.url).toBe('https://hooks.example.com/contract')
    expect(created.events).toEqual(['order.created'])
    const list = await collect(await h.polar.webhooks.listWebhookEndpoints({limit: 10}))
    expect(list.items.some((e) => e.id === created.id)).toBe(true)
    expect((await h.polar.webhooks.getWebhookEndpoint({id: created.id})).id).toBe(created.id)
    const updated = await h.polar.webhooks.updateWebhookEndpoint({id: created.id, webhookEndpointUpdate: {events: ['order.created', 'order.paid']}})
    expect(updated.events).toEqual(['order.created', 'order.paid'])
    const rotated = await h.polar.webhooks.resetWebhookEndpointSecret({id: created.id})
    expect(rotated.secret).not.toBe(created.secret)
    await h.polar.webhooks.deleteWebhookEndpoint({id: created.id})
    expect(await rejection(h.polar.webhooks.getWebhookEndpoint({id: created.id}))).toBeInstanceOf(ResourceNotFound)
    const deliveries = await collect(await h.polar.webhooks.listWebhookDeliveries({limit: 10}))
    expect(deliveries.items.length).toBe(deliveries.totalCount)
  })
})

it('unknown ids are ResourceNotFound across resources', async () => {
  expect(await rejection(h.polar.licenseKeys.get({id: unknownId()}))).toBeInstanceOf(ResourceNotFound)
  expect(await rejection(h.polar.customers.get({id: unknownId()}))).toBeInstanceOf(ResourceNotFound)
})

describe('license keys: update and activations', () => {
  it('updates a key, activates it, reads the activation and deactivates it', async () => {
    const {items} = await collect(await h.polar.licenseKeys.list({limit: 100}))
    const key = items.find((k) => k.status === 'granted' && k.limitActivations !== 0)!
    const updated = await h.polar.licenseKeys.update({id: key.id, licenseKeyUpdate: {limitUsage: 500}})
    expect(updated.limitUsage).toBe(500)
    const activation = await h.polar.licenseKeys.activate({key: key.key, organizationId: h.env.organizationId, label: 'contract laptop'})
    expect(activation.licenseKeyId).toBe(key.id)
    expect(activation.label).toBe('contract laptop')
    const read = await h.polar.licenseKeys.getActivation({id: key.id, activationId: activation.id})
    expect(read.id).toBe(activation.id)
    await h.polar.licenseKeys.deactivate({key: key.key, organizationId: h.env.organizationId, activationId: activation.id})
    expect(await rejection(h.polar.licenseKeys.getActivation({id: key.id, activationId: activation.id}))).toBeInstanceOf(ResourceNotFound)
  })
})

describe('more writes', () => {
  it('deletes a customer by external id', async () => {
    const created = await h.polar.customers.create({email: 'contract.external@example.com', externalId: 'contract-del'})
    await h.polar.customers.deleteExternal({externalId: 'contract-del'})
    expect(await rejection(h.polar.customers.get({id: created.id}))).toBeInstanceOf(ResourceNotFound)
  })

  it('creates a subscription to a free recurring product', async () => {
    const products = await collect(await h.polar.products.list({isRecurring: true, isArchived: false, limit: 100}))
    const free = products.items.find((p) => p.prices.some((x) => x.amountType === 'fixed' && 'priceAmount' in x && x.priceAmount === 0))!
    const customer = await h.polar.customers.create({email: 'contract.free@example.com'})
    const created = await h.polar.subscriptions.create({productId: free.id, customerId: customer.id})
    expect(created.productId).toBe(free.id)
    expect(created.customerId).toBe(customer.id)
    expect(created.status).toBe('active')
    expect(created.amount).toBe(0)
  })

  it('redelivers a webhook event (202)', async () => {
    const deliveries = await collect(await h.polar.webhooks.listWebhookDeliveries({limit: 100}))
    if (deliveries.items.length === 0) {
      const r = await h.raw('POST', `/webhooks/events/${crypto.randomUUID()}/redeliver`)
      expect(r.status).toBe(404)
      return
    }
    await h.polar.webhooks.redeliverWebhookEvent({id: deliveries.items[0]!.webhookEvent.id})
  })

  it('reads metrics and their limits', async () => {
    const limits = await h.polar.metrics.limits()
    expect(limits.minDate).toBeInstanceOf(Object)
    const end = new Date()
    const start = new Date(end.getTime() - 90 * 86_400_000)
    const day = (d: Date) => d.toISOString().slice(0, 10)
    const metrics = await h.raw('GET', `/metrics/?start_date=${day(start)}&end_date=${day(end)}&interval=month`)
    expect(metrics.status).toBe(200)
    const {RFCDate} = await import('@polar-sh/sdk-0.49/types/rfcdate.js')
    const viaSdk = await h.polar.metrics.get({startDate: new RFCDate(day(start)), endDate: new RFCDate(day(end)), interval: 'month'})
    expect(viaSdk.periods.length).toBe(metrics.body.periods.length)
    expect(viaSdk.totals.orders).toBe(metrics.body.totals.orders)
  })
})
