// The invoice rule (server/polar/order/service.py; API version 2025-06-02): billing name and address
// are editable until the invoice is generated, then PATCH is refused (422) and a second POST is 409.
// The same on the Core API and on the Customer Portal.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief, expectDomainError, expectResourceNotFound, expectValidationError} from '../helpers/expect.js'
import {waitUntil} from '../helpers/machine.js'

const INVOICE_DELAY_MS = 200

interface Surface {
  name: string
  /** Path prefix of the order endpoints. */
  prefix: string
  /** Token for requests on the order of `customerId`. */
  token: (customerId: string) => Promise<string>
}

describe('invoice rule', () => {
  let emulator: Emulator
  let env: EnvHandle
  let orders: Json[]
  const taken = new Set<string>()

  /** A seeded order matching `test` that no other test in this file used. */
  function pick(test: (o: Json) => boolean, what: string): Json {
    const found = orders.find((o) => !taken.has(o.id) && test(o))
    expect(found, `a seeded order: ${what}`).toBeDefined()
    taken.add(found.id)
    return found
  }
  const invoiceable = (o: Json) => o.status === 'paid' && !o.is_invoice_generated && o.billing_name !== null && o.billing_address !== null

  beforeAll(async () => {
    emulator = await startEmulator({invoiceDelay: `${INVOICE_DELAY_MS}ms`})
    env = emulator.production
    orders = await listAll(env, '/orders/')
  })
  afterAll(() => emulator?.stop())

  const surfaces: Surface[] = [
    {name: 'Core API', prefix: '/orders', token: async () => emulator.production.token},
    {
      name: 'Customer Portal',
      prefix: '/customer-portal/orders',
      token: async (customerId) => {
        const res = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: customerId}})
        expect(res.status, brief(res)).toBe(201)
        return res.body.token
      },
    },
  ]

  describe.each(surfaces)('$name', (surface) => {
    it('edit billing, generate, fetch the PDF, then billing is frozen and a second POST is 409', async () => {
      const order = pick(invoiceable, 'paid, billing details, no invoice')
      const token = await surface.token(order.customer_id)
      const path = `${surface.prefix}/${order.id}`

      // Before generation: billing details are editable (country and state kept, `orders:update`).
      const address = {...order.billing_address, line1: `${surface.name} Street 7`, city: 'Changedville'}
      const patched = await api(env, 'PATCH', path, {token, body: {billing_name: `${surface.name} Buyer`, billing_address: address}})
      expect(patched.status, brief(patched)).toBe(200)
      expect(patched.body.billing_name).toBe(`${surface.name} Buyer`)
      expect(patched.body.billing_address).toMatchObject({line1: address.line1, city: 'Changedville', country: order.billing_address.country})
      const reread = await api(env, 'GET', `/orders/${order.id}`)
      expect(reread.body.billing_name).toBe(`${surface.name} Buyer`)
      expect(reread.body.billing_address.line1).toBe(address.line1)

      // No invoice yet.
      const missing = await api(env, 'GET', `${path}/invoice`, {token})
      expectDomainError(missing, 404, 'InvoiceDoesNotExist', `No invoice exists for order ${order.id}.`)

      // Generate: 202, the document exists after the invoice delay.
      const generated = await api(env, 'POST', `${path}/invoice`, {token})
      expect(generated.status, brief(generated)).toBe(202)
      let invoice = await api(env, 'GET', `${path}/invoice`, {token})
      await waitUntil(async () => (invoice = await api(env, 'GET', `${path}/invoice`, {token})).status === 200, INVOICE_DELAY_MS + 5000)
      expect(invoice.status, brief(invoice)).toBe(200)
      expect(Object.keys(invoice.body)).toEqual(['url'])
      expect(invoice.body.url).toMatch(/^https?:\/\//)
      const after = await api(env, 'GET', `/orders/${order.id}`)
      expect(after.body.is_invoice_generated).toBe(true)

      const pdf = await fetch(invoice.body.url)
      expect(pdf.status).toBe(200)
      expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/)
      const bytes = Buffer.from(await pdf.arrayBuffer())
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
      expect(bytes.length).toBeGreaterThan(200)

      // After generation: billing details are frozen.
      for (const body of [{billing_name: 'Too Late'}, {billing_address: {...address, line1: 'Too Late 1'}}]) {
        const refused = await api(env, 'PATCH', path, {token, body})
        const entry = expectValidationError(refused, 'PolarRequestValidationError')
        expect(entry.loc[0]).toBe('body')
        expect(entry.msg).toBe('This field cannot be updated after the invoice is generated.')
      }
      const unchanged = await api(env, 'GET', `/orders/${order.id}`)
      expect(unchanged.body.billing_name).toBe(`${surface.name} Buyer`)
      expect(unchanged.body.billing_address.line1).toBe(address.line1)

      // A second POST is accepted as a no-op (`orders:generate_invoice`): 202, the order unchanged.
      const before = await api(env, 'GET', path, {token})
      expect((await api(env, 'POST', `${path}/invoice`, {token})).status).toBe(202)
      expect((await api(env, 'GET', path, {token})).body).toEqual(before.body)
      // The first invoice is still there.
      expect((await api(env, 'GET', `${path}/invoice`, {token})).status).toBe(200)
    })

    it('a seeded order with an invoice already generated: GET works, PATCH 422, POST 202 (a no-op)', async () => {
      const order = pick((o) => o.is_invoice_generated && o.billing_name !== null, 'invoice generated')
      const token = await surface.token(order.customer_id)
      const path = `${surface.prefix}/${order.id}`
      const invoice = await api(env, 'GET', `${path}/invoice`, {token})
      expect(invoice.status, brief(invoice)).toBe(200)
      expect(typeof invoice.body.url).toBe('string')
      expectValidationError(await api(env, 'PATCH', path, {token, body: {billing_name: 'Late Edit'}}), 'PolarRequestValidationError')
      expect((await api(env, 'POST', `${path}/invoice`, {token})).status).toBe(202)
    })

    it('an order without billing details: POST invoice is 422 MissingInvoiceBillingDetails', async () => {
      const order = pick((o) => o.status === 'paid' && o.billing_name === null && !o.is_invoice_generated, 'paid, no billing details')
      const token = await surface.token(order.customer_id)
      const res = await api(env, 'POST', `${surface.prefix}/${order.id}/invoice`, {token})
      expectDomainError(res, 422, 'MissingInvoiceBillingDetails', 'Billing name and address are required to generate an invoice for this order.')
      expectDomainError(await api(env, 'GET', `${surface.prefix}/${order.id}/invoice`, {token}), 404, 'InvoiceDoesNotExist')
    })

    it('a draft or void order: POST invoice is 409 OrderNotEligibleForInvoice', async () => {
      for (const status of ['draft', 'void']) {
        const order = pick((o) => o.status === status, `a ${status} order`)
        const token = await surface.token(order.customer_id)
        expectDomainError(await api(env, 'POST', `${surface.prefix}/${order.id}/invoice`, {token}), 409, 'OrderNotEligibleForInvoice')
      }
    })

    it('an unknown order id is 404 ResourceNotFound on every invoice endpoint', async () => {
      const token = await surface.token(orders[0].customer_id)
      const path = `${surface.prefix}/${unknownId()}`
      expectResourceNotFound(await api(env, 'GET', `${path}/invoice`, {token}))
      expectResourceNotFound(await api(env, 'POST', `${path}/invoice`, {token}))
      expectResourceNotFound(await api(env, 'PATCH', path, {token, body: {billing_name: 'Nobody'}}))
    })
  })

  it('the invoice link needs its signature', async () => {
    const order = orders.find((o) => o.is_invoice_generated)
    const invoice = await api(env, 'GET', `/orders/${order.id}/invoice`)
    expect(invoice.status, brief(invoice)).toBe(200)
    const tampered = new URL(invoice.body.url)
    tampered.searchParams.set('signature', '0'.repeat(32))
    const res = await fetch(tampered)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})
