// Contract: checkouts (core and the public client-secret surface) and checkout links through the SDK;
// the public answers carry only the public schema's keys (no metadata, no benefit configuration).
import {describe, expect, it} from 'vitest'

import {ResourceNotFound} from '@polar-sh/sdk-0.49/models/errors/resourcenotfound.js'

import {unknownId, type Json} from '../helpers/emulator.js'
import {collect, rejection, useContract} from './harness-0.49.js'
import {expectShape} from './harness.js'

const h = useContract()

/** A public product with a paid fixed price and a custom benefit (whose private note must stay private). */
async function paidProduct(): Promise<string> {
  const benefit = await h.polar.benefits.create({type: 'custom', description: 'Secret perk', properties: {note: 'private note for holders'}})
  const product = await h.polar.products.create({name: 'Contract Checkout Item', prices: [{amountType: 'fixed', priceAmount: 4200}]})
  await h.polar.products.updateBenefits({id: product.id, productBenefitsUpdate: {benefits: [benefit.id]}})
  return product.id
}

describe('checkouts', () => {
  it('lists every page, creates one with what was sent, gets and updates it', async () => {
    const all = await collect(await h.polar.checkouts.list({limit: 4}))
    expect(all.items.length).toBe(all.totalCount)
    const productId = await paidProduct()
    const created = await h.polar.checkouts.create({products: [productId], metadata: {campaign: 'contract'}, customerEmail: 'buyer@example.com'})
    expect(created.status).toBe('open')
    expect(created.productId).toBe(productId)
    expect(created.amount).toBe(4200)
    expect(created.metadata).toEqual({campaign: 'contract'})
    expect(created.customerEmail).toBe('buyer@example.com')
    const raw = await h.raw('GET', `/checkouts/${created.id}`)
    expect(raw.body).toHaveProperty('payment_method_type', null)
    const updated = await h.polar.checkouts.update({id: created.id, checkoutUpdate: {customerName: 'Contract Buyer'}})
    expect(updated.customerName).toBe('Contract Buyer')
    expect((await h.polar.checkouts.get({id: created.id})).customerName).toBe('Contract Buyer')
    expect(await rejection(h.polar.checkouts.get({id: unknownId()}))).toBeInstanceOf(ResourceNotFound)
  })

  it('the public checkout has the organization and only the public keys; confirm answers a customer session token', async () => {
    const productId = await paidProduct()
    const created = await h.polar.checkouts.create({products: [productId], metadata: {internal: 'do not show'}})
    const secret = created.clientSecret

    const got = await h.anonymous.checkouts.clientGet({clientSecret: secret})
    expect(got.id).toBe(created.id)
    expect(got.organization.slug).toBe('acme')
    const raw = await h.raw('GET', `/checkouts/client/${secret}`, {token: null})
    expectShape('2026-10', 'CheckoutPublic', raw.body, 'public checkout')
    expect(JSON.stringify(raw.body)).not.toContain('private note for holders')
    expect(raw.body).not.toHaveProperty('metadata')

    const patched = await h.raw('PATCH', `/checkouts/client/${secret}`, {token: null, body: {customer_email: 'public.buyer@example.com'}})
    expect(patched.status).toBe(200)
    expectShape('2026-10', 'CheckoutPublic', patched.body, 'public checkout PATCH')
    const viaSdk = await h.anonymous.checkouts.clientUpdate({clientSecret: secret, checkoutUpdatePublic: {customerName: 'Public Buyer'}})
    expect(viaSdk.customerEmail).toBe('public.buyer@example.com')

    const confirmed = await h.anonymous.checkouts.clientConfirm({
      clientSecret: secret,
      checkoutConfirmStripe: {customerBillingAddress: {country: 'US'}},
    })
    expect(confirmed.status).toBe('confirmed')
    expect(confirmed.customerSessionToken).toMatch(/^polar_cst_/)
    // The token opens the buyer's portal, where the new order shows.
    const orders = await collect(await h.anonymous.customerPortal.orders.list({customerSession: confirmed.customerSessionToken!}, {}))
    expect(orders.items.some((o) => o.productId === productId)).toBe(true)
    // The confirmed checkout read again through the public surface still carries only public keys.
    const again = await h.raw('GET', `/checkouts/client/${secret}`, {token: null})
    expectShape('2026-10', 'CheckoutPublic', again.body, 'confirmed public checkout')
  })

  it('a raw confirm answer carries only the keys of CheckoutPublicConfirmed', async () => {
    const productId = await paidProduct()
    const created = await h.polar.checkouts.create({products: [productId]})
    const confirm = await h.raw('POST', `/checkouts/client/${created.clientSecret}/confirm`, {
      token: null,
      body: {customer_email: 'raw.buyer@example.com', customer_name: 'Raw Buyer', customer_billing_address: {country: 'US'}},
    })
    expect(confirm.status).toBe(200)
    expectShape('2026-10', 'CheckoutPublicConfirmed', confirm.body as Json, 'confirm')
  })

  it('the public checkout of an unknown secret is ResourceNotFound', async () => {
    const missing = await rejection(h.anonymous.checkouts.clientGet({clientSecret: `polar_c_${'a'.repeat(43)}`}))
    expect(missing).toBeInstanceOf(ResourceNotFound)
  })
})

describe('checkout links', () => {
  it('creates, lists every page, gets, updates and deletes a link', async () => {
    const productId = await paidProduct()
    const created = await h.polar.checkoutLinks.create({paymentProcessor: 'stripe', products: [productId], label: 'Contract link', metadata: {src: 'contract'}})
    expect(created.label).toBe('Contract link')
    expect(created.products.map((p) => p.id)).toEqual([productId])
    const all = await collect(await h.polar.checkoutLinks.list({limit: 2}))
    expect(all.items.length).toBe(all.totalCount)
    expect(all.items.some((l) => l.id === created.id)).toBe(true)
    const updated = await h.polar.checkoutLinks.update({id: created.id, checkoutLinkUpdate: {label: 'Contract link 2'}})
    expect(updated.label).toBe('Contract link 2')
    expect((await h.polar.checkoutLinks.get({id: created.id})).label).toBe('Contract link 2')
    await h.polar.checkoutLinks.delete({id: created.id})
    expect(await rejection(h.polar.checkoutLinks.get({id: created.id}))).toBeInstanceOf(ResourceNotFound)
  })
})
