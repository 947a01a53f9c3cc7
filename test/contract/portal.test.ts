// Contract: the Customer Portal through the SDK with a customer session, and the key-subset check over
// every portal answer (the SDK strips unknown keys, so organization-side data would pass parsing).
import {describe, expect, it} from 'vitest'

import {ResourceNotFound} from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js'
import {AlreadyCanceledSubscription} from '@polar-sh/sdk-0.49/models/errors/alreadycanceledsubscription.js'
import {CustomerPortalCustomer$inboundSchema} from '@polar-sh/sdk-0.49/models/components/customerportalcustomer.js'
import {CustomerOrder$inboundSchema} from '@polar-sh/sdk-0.49/models/components/customerorder.js'
import {CustomerSubscription$inboundSchema} from '@polar-sh/sdk-0.49/models/components/customersubscription.js'
import {ListResourceCustomerBenefitGrant$inboundSchema} from '@polar-sh/sdk-0.49/models/components/listresourcecustomerbenefitgrant.js'
import {CustomerOrganizationData$inboundSchema} from '@polar-sh/sdk-0.49/models/components/customerorganizationdata.js'
import {CustomerCustomerSession$inboundSchema} from '@polar-sh/sdk-0.49/models/components/customercustomersession.js'

import {listAll, unknownId, type Json} from '../helpers/emulator.js'
import {collect, expectKeysSubset, rejection, useContract} from './harness-0.49.js'
import {expectShape} from './harness.js'

const h = useContract()

/** A seeded customer with orders, subscriptions and benefit grants, and a session for it. */
async function richCustomer(): Promise<{id: string; token: string}> {
  const grants: Json[] = await listAll(h.env, '/benefit-grants/', 'limit=100')
  const counts = new Map<string, number>()
  for (const g of grants) if (g.is_granted) counts.set(g.customer_id, (counts.get(g.customer_id) ?? 0) + 1)
  const id = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
  return {id, token: await h.customerSession(id)}
}

describe('customer portal', () => {
  it('reads the customer, lists orders, subscriptions, grants and license keys on every page, values right', async () => {
    const me = await richCustomer()
    const session = {customerSession: me.token}
    const customer = await h.anonymous.customerPortal.customers.get(session)
    expect(customer.id).toBe(me.id)

    const orders = await collect(await h.anonymous.customerPortal.orders.list(session, {limit: 2}))
    expect(orders.items.length).toBe(orders.totalCount)
    expect(orders.items.every((o) => o.customerId === me.id)).toBe(true)
    const withProduct = orders.items.find((o) => o.product !== null)!
    expect(withProduct.product!.organization.slug).toBe('acme')
    const one = await h.anonymous.customerPortal.orders.get(session, {id: withProduct.id})
    expect(one.id).toBe(withProduct.id)

    const subscriptions = await collect(await h.anonymous.customerPortal.subscriptions.list(session, {limit: 2}))
    expect(subscriptions.items.length).toBe(subscriptions.totalCount)
    for (const s of subscriptions.items) expect(s.product.organization.id).toBe(h.env.organizationId)

    const grants = await collect(await h.anonymous.customerPortal.benefitGrants.list(session, {limit: 2}))
    expect(grants.items.length).toBe(grants.totalCount)
    expect(grants.totalCount).toBeGreaterThan(0)
    for (const g of grants.items) {
      expect(g.customer.id).toBe(me.id)
      expect(g.benefit.organization.slug).toBe('acme')
    }

    const keys = await collect(await h.anonymous.customerPortal.licenseKeys.list(session, {limit: 2}))
    expect(keys.items.length).toBe(keys.totalCount)
    if (keys.items[0]) expect((await h.anonymous.customerPortal.licenseKeys.get(session, {id: keys.items[0].id})).id).toBe(keys.items[0].id)
  })

  it('answers ResourceNotFound for an order of another customer, and 401 without a session', async () => {
    const me = await richCustomer()
    const missing = await rejection(h.anonymous.customerPortal.orders.get({customerSession: me.token}, {id: unknownId()}))
    expect(missing).toBeInstanceOf(ResourceNotFound)
    const anonymous = await rejection(h.anonymous.customerPortal.customers.get({customerSession: `polar_cst_${'x'.repeat(43)}`}))
    expect((anonymous as {statusCode?: number}).statusCode).toBe(401)
  })

  it('cancels a subscription at period end through the SDK and uncancels it', async () => {
    const me = await richCustomer()
    const session = {customerSession: me.token}
    const live = (await collect(await h.anonymous.customerPortal.subscriptions.list(session, {active: true, limit: 100}))).items
    const target = live.find((s) => !s.cancelAtPeriodEnd)
    if (!target) return
    const canceled = await h.anonymous.customerPortal.subscriptions.update(session, {id: target.id, customerSubscriptionUpdate: {cancelAtPeriodEnd: true}})
    expect(canceled.cancelAtPeriodEnd).toBe(true)
    const back = await h.anonymous.customerPortal.subscriptions.update(session, {id: target.id, customerSubscriptionUpdate: {cancelAtPeriodEnd: false}})
    expect(back.cancelAtPeriodEnd).toBe(false)
  })

  it('every portal answer carries only keys of the SDK model for it (no metadata, external ids or fees)', async () => {
    const me = await richCustomer()
    const as = {token: me.token}
    const get = async (path: string) => {
      const r = await h.raw('GET', path, as)
      expect(r.status, path).toBe(200)
      return r.body
    }
    expectKeysSubset(CustomerPortalCustomer$inboundSchema, await get('/customer-portal/customers/me'), 'customers/me')
    const orders = await get('/customer-portal/orders/?limit=100')
    expectShape('2026-10', 'ListResourceCustomerOrder', orders, 'orders') // SDK 1.0.1: 0.49's model lacks units and the items' periods
    expect(JSON.stringify(orders)).not.toMatch(/"(metadata|external_id|platform_fee_amount|platform_fee_currency)"/)
    expectShape('2026-10', 'CustomerOrder', await get(`/customer-portal/orders/${orders.items[0].id}`), 'order')
    const subscriptions = await get('/customer-portal/subscriptions/?limit=100')
    expectShape('2026-10', 'ListResourceCustomerSubscription', subscriptions, 'subscriptions')
    expect(JSON.stringify(subscriptions)).not.toMatch(/"(metadata|external_id)"/)
    if (subscriptions.items[0])
      expectShape('2026-10', 'CustomerSubscription', await get(`/customer-portal/subscriptions/${subscriptions.items[0].id}`), 'subscription')
    const grants = await get('/customer-portal/benefit-grants/?limit=100')
    expectKeysSubset(ListResourceCustomerBenefitGrant$inboundSchema, grants, 'benefit-grants')
    // A custom benefit's private note is for its holders; other benefit configuration (Discord tokens) is not.
    expect(JSON.stringify(grants)).not.toMatch(/guild_token|"metadata"/)
    const keys = await get('/customer-portal/license-keys/?limit=100')
    expectShape('2026-04', 'ListResourceLicenseKeyRead', keys, 'license-keys') // SDK 1.0.1: 0.49's model lacks first_user_event_at
    if (keys.items[0]) expectShape('2026-04', 'LicenseKeyWithActivations', await get(`/customer-portal/license-keys/${keys.items[0].id}`), 'license key')
    expectKeysSubset(CustomerCustomerSession$inboundSchema, await get('/customer-portal/customer-session/introspect'), 'introspect')
    const organization = await h.raw('GET', '/customer-portal/organizations/acme', {token: null})
    expectKeysSubset(CustomerOrganizationData$inboundSchema, organization.body, 'organization')
  })

  it('a PATCH of the billing details answers the portal shape', async () => {
    const me = await richCustomer()
    const patched = await h.raw('PATCH', '/customer-portal/customers/me', {token: me.token, body: {billing_name: 'Contract Buyer'}})
    expect(patched.status).toBe(200)
    expect(patched.body.billing_name).toBe('Contract Buyer')
    expectKeysSubset(CustomerPortalCustomer$inboundSchema, patched.body, 'customers/me PATCH')
  })

  it('portal writes through the SDK answer the portal shapes: order billing, invoice, cancel (403 when already canceled)', async () => {
    const me = await richCustomer()
    const session = {customerSession: me.token}
    const orders = (await collect(await h.anonymous.customerPortal.orders.list(session, {limit: 100}))).items
    const paid = orders.find((o) => o.status === 'paid' && o.billingAddress === null)
    if (paid) {
      const updated = await h.anonymous.customerPortal.orders.update(session, {
        id: paid.id,
        customerOrderUpdate: {billingName: 'Portal Buyer', billingAddress: {country: 'DE'}},
      })
      expect(updated.billingName).toBe('Portal Buyer')
      await h.anonymous.customerPortal.orders.generateInvoice(session, {id: paid.id})
      const raw = await h.raw('GET', `/customer-portal/orders/${paid.id}`, {token: me.token})
      expectKeysSubset(CustomerOrder$inboundSchema, raw.body, 'order after PATCH')
    }
    const live = (await collect(await h.anonymous.customerPortal.subscriptions.list(session, {active: true, limit: 100}))).items.find(
      (s) => !s.cancelAtPeriodEnd,
    )
    if (live) {
      const canceled = await h.anonymous.customerPortal.subscriptions.cancel(session, {id: live.id})
      expect(canceled.cancelAtPeriodEnd).toBe(true)
      const again = await h.raw('DELETE', `/customer-portal/subscriptions/${live.id}`, {token: me.token})
      expect(again.status).toBe(403)
      expect(await rejection(h.anonymous.customerPortal.subscriptions.cancel(session, {id: live.id}))).toBeInstanceOf(AlreadyCanceledSubscription)
      const patched = await h.raw('PATCH', `/customer-portal/subscriptions/${live.id}`, {token: me.token, body: {cancel_at_period_end: false}})
      expect(patched.status).toBe(200)
      expectKeysSubset(CustomerSubscription$inboundSchema, patched.body, 'subscription PATCH')
    }
  })

  it('the organization, the session introspection and the unauthenticated license-key routes through the SDK', async () => {
    const me = await richCustomer()
    const org = await h.anonymous.customerPortal.organizations.get({slug: 'acme'})
    expect(org.organization.id).toBe(h.env.organizationId)
    expect(org.products.every((p) => p.isRecurring && !p.isArchived)).toBe(true)
    const introspected = await h.anonymous.customerPortal.customerSession.introspect({customerSession: me.token})
    expect(introspected.expiresAt.getTime()).toBeGreaterThan(Date.now())
    expect(await rejection(h.anonymous.customerPortal.organizations.get({slug: 'no-such-org'}))).toBeInstanceOf(ResourceNotFound)

    const keys = (await collect(await h.anonymous.customerPortal.licenseKeys.list({customerSession: me.token}, {limit: 100}))).items
    const key = keys.find((k) => k.status === 'granted')
    if (!key) return
    // These routes allow 3 requests a second per address (then block it for a minute): keep under that.
    const pace = () => new Promise((resolve) => setTimeout(resolve, 400))
    const validated = await h.anonymous.customerPortal.licenseKeys.validate({key: key.key, organizationId: h.env.organizationId})
    expect(validated.id).toBe(key.id)
    await pace()
    const activated = await h.anonymous.customerPortal.licenseKeys.activate({key: key.key, organizationId: h.env.organizationId, label: 'portal device'})
    expect(activated.licenseKey.id).toBe(key.id)
    await pace()
    await h.anonymous.customerPortal.licenseKeys.deactivate({key: key.key, organizationId: h.env.organizationId, activationId: activated.id})
    await pace()
    // The raw answers of the unauthenticated routes carry only their models' keys.
    const rawValidate = await h.raw('POST', '/customer-portal/license-keys/validate', {
      token: null,
      body: {key: key.key, organization_id: h.env.organizationId},
    })
    expect(rawValidate.status).toBe(200)
    expectShape('2026-04', 'ValidatedLicenseKey', rawValidate.body, 'license key validate')
    await pace()
    const rawActivate = await h.raw('POST', '/customer-portal/license-keys/activate', {
      token: null,
      body: {key: key.key, organization_id: h.env.organizationId, label: 'raw device'},
    })
    expect(rawActivate.status).toBe(200)
    expectShape('2026-04', 'LicenseKeyActivationCreated', rawActivate.body, 'license key activate')
    await pace()
    await h.anonymous.customerPortal.licenseKeys.deactivate({key: key.key, organizationId: h.env.organizationId, activationId: rawActivate.body.id})
  })
})
