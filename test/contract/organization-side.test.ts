// Contract (SDK 1.0.1, 2026-10): the organization-side operations through the SDK: draft orders
// and their finalize (with the SDK's error classes for a failed charge and a second finalize), license key
// rotation and product deletion (newer than the document: the SDK is their contract), metrics export,
// and an organization by id. Values are checked, and shapes against the SDK's own types where the
// emulator's answer has nothing the type lacks (orders carry hidden deprecated keys: values only).
import {errors} from '@polar-sh/sdk/2026-10'
import {describe, expect, it} from 'vitest'

import {listAll, unknownId} from '../helpers/emulator.js'
import {expectShape, rejection, useContract} from './harness.js'

const h = useContract()

describe('draft orders', () => {
  it('creates a draft and finalizes it; a customer without a saved card and a second finalize are refused', async () => {
    const products = await listAll(h.env, '/products/')
    const product = products.find((p) => !p.is_recurring && !p.is_archived && p.prices.every((x: {amount_type: string}) => x.amount_type === 'fixed'))
    const payer = (await listAll(h.env, '/customers/')).find((c) => c.billing_address)!
    const methods = await h.polar.customers.listPaymentMethods(payer.id)
    const fresh = await h.polar.customers.create({email: `draft-${Date.now()}@example.com`, billing_address: {country: 'SE'}})

    const draft = await h.polar.orders.create({customer_id: fresh.id, product_id: product.id, amount: 1000, description: 'Credits'})
    expect(draft).toMatchObject({status: 'draft', invoice_number: null, subtotal_amount: 1000, tax_amount: 250})
    const declined = await rejection(h.polar.orders.finalize(draft.id, {}))
    expect(declined).toBeInstanceOf(errors.OrdersFinalize402Error)
    expect(declined.statusCode).toBe(402)
    expect(declined.error).toMatchObject({error: 'PaymentFailed', detail: 'Payment failed with reason: missing_payment_method.'})

    if (methods.items.length > 0) {
      const own = await h.polar.orders.create({customer_id: payer.id, product_id: product.id})
      const paid = await h.polar.orders.finalize(own.id, {payment_method_id: methods.items[0]!.id})
      expect(paid).toMatchObject({id: own.id, status: 'paid', paid: true})
      expect(paid.invoice_number).toMatch(/-\d{4}$/)
      const again = await rejection(h.polar.orders.finalize(own.id, {}))
      expect(again).toBeInstanceOf(errors.OrderNotDraft)
      expect(again.statusCode).toBe(412)
    } else throw new Error('the seeded customer with a billing address has no saved card')
  })
})

describe('newer than the document: the SDK is the contract', () => {
  it('rotates a license key (RotatedLicenseKey); a revoked one is refused (RotateNotPermitted)', async () => {
    const [key, other] = (await h.polar.licenseKeys.list({status: 'granted', limit: 2})).items
    const rotated = await h.polar.licenseKeys.rotate(key!.id)
    expectShape('2026-10', 'RotatedLicenseKey', rotated)
    expect(rotated).toMatchObject({id: key!.id, status: 'granted'})
    expect(rotated.key).not.toBe(key!.key)
    await h.polar.licenseKeys.update(other!.id, {status: 'revoked'})
    const refused = await rejection(h.polar.licenseKeys.rotate(other!.id))
    expect(refused).toBeInstanceOf(errors.RotateNotPermitted)
    expect(refused.statusCode).toBe(400)
    expect(await rejection(h.polar.licenseKeys.rotate(unknownId()))).toBeInstanceOf(errors.ResourceNotFound)
  })

  it('deletes a product nothing uses; one with orders is ProductNotDeletable', async () => {
    const product = await h.polar.products.create({name: 'Disposable', prices: [{amount_type: 'fixed', price_amount: 900, price_currency: 'usd'}]})
    await h.polar.products.delete(product.id)
    expect(await rejection(h.polar.products.get(product.id))).toBeInstanceOf(errors.ResourceNotFound)
    const sold = (await h.polar.orders.list({limit: 1})).items[0]!.product_id!
    const refused = await rejection(h.polar.products.delete(sold))
    expect(refused).toBeInstanceOf(errors.ProductNotDeletable)
    expect(refused.statusCode).toBe(409)
  })
})

describe("a customer's default payment method", () => {
  it('default_payment_method_id names the saved card its list marks is_default, in the core API and the portal', async () => {
    const seeded = (await listAll(h.env, '/customers/')).slice(0, 40)
    let paying = 0
    for (const c of seeded) {
      const methods = (await h.polar.customers.listPaymentMethods(c.id)).items
      const marked = methods.filter((m) => m.is_default).map((m) => m.id)
      expect(marked.length, c.id).toBeLessThanOrEqual(1)
      expect(c.default_payment_method_id ?? null, `customer ${c.id}`).toBe(marked[0] ?? null)
      if (marked.length > 0) paying++
    }
    expect(paying, 'seeded customers with a saved card').toBeGreaterThan(0)
    const payer = seeded.find((c) => c.default_payment_method_id)!
    const session = await h.raw('POST', '/customer-sessions/', {body: {customer_id: payer.id}})
    const me = await h.raw('GET', '/customer-portal/customers/me', {token: session.body.token})
    expect(me.body.default_payment_method_id).toBe(payer.default_payment_method_id)
  })
})

describe('metrics export and an organization by id', () => {
  it("exports the metrics as the service's CSV", async () => {
    const csv = await h.polar.metrics.export({start_date: '2026-01-01', end_date: '2026-03-31', interval: 'month', metrics: ['orders']})
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe('Timestamp,Orders')
    expect(lines.slice(1, -1)).toHaveLength(3)
  })

  it('gets the own organization by id; another is not found', async () => {
    // values only: the document's Organization has fields SDK 1.0.1's 2026-10 type lacks (notification_settings...)
    const org = await h.polar.organizations.get(h.env.organizationId)
    expect(org).toMatchObject({id: h.env.organizationId, slug: 'acme'})
    expect(org.feature_settings?.off_session_charges_enabled).toBe(true)
    expect(await rejection(h.polar.organizations.get(unknownId()))).toBeInstanceOf(errors.ResourceNotFound)
  })

  it("creating an organization with an organization token: the service's 401 Unauthorized (a user's token only), not 405", async () => {
    const refused = await rejection(h.polar.organizations.create({name: 'Another one', slug: 'another-one'}))
    expect(refused.statusCode, String(refused)).toBe(401)
    expect(String((refused as {body?: unknown}).body ?? refused.message)).toContain('Unauthorized')
  })
})
