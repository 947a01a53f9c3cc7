// The portal's account and payment routes as the SDK 1.0.1 (2026-10) types them: each answer has exactly
// the keys of its SDK type (nested objects too), so the portal shows a customer no more than its schemas.
import {expect, it} from 'vitest'

import {api, control, listAll, type Json} from '../helpers/emulator.js'
import {expectShape, useContract} from './harness.js'

const h = useContract({paymentDelay: '0s'})

const post = (path: string, body?: unknown) => control(h.env, 'POST', path, body === undefined ? {} : {body})

async function sessionOf(customerId: string): Promise<string> {
  const res = await api(h.env, 'POST', '/customer-sessions/', {body: {customer_id: customerId}})
  expect(res.status, res.text).toBe(201)
  return res.body.token
}

it('the session, payment methods, wallets and the organization page have the SDK types exactly', async () => {
  const orders = await listAll(h.env, '/orders/')
  const paid = orders.find((o) => o.status === 'paid' && o.total_amount > 0)!
  const token = await sessionOf(paid.customer_id)
  const get = async (path: string, name: string) => {
    const res = await h.raw('GET', path, {token})
    expect(res.status, res.text).toBe(200)
    expectShape('2026-10', name, res.body, path)
    return res.body as Json
  }
  await get('/customer-portal/customer-session/user', 'PortalAuthenticatedUser')
  await get('/customer-portal/customer-session/introspect', 'CustomerCustomerSession')
  const methods = await get('/customer-portal/customers/me/payment-methods', 'ListResourceCustomerPaymentMethod')
  for (const m of methods.items) expectShape('2026-10', 'PaymentMethodCard', m)
  const added = await h.raw('POST', '/customer-portal/customers/me/payment-methods', {
    token,
    body: {confirmation_token_id: 'ctoken_amex', set_default: false, return_url: 'https://example.com/'},
  })
  expect(added.status, added.text).toBe(201)
  expectShape('2026-10', 'CustomerPaymentMethodCreateSucceededResponse', added.body)
  const action = await h.raw('POST', '/customer-portal/customers/me/payment-methods', {
    token,
    body: {confirmation_token_id: 'ctoken_3ds', set_default: true, return_url: 'https://example.com/'},
  })
  expectShape('2026-10', 'CustomerPaymentMethodCreateRequiresActionResponse', action.body)

  expect((await post(`customers/${paid.customer_id}/wallet`, {amount: 100})).status).toBe(201)
  const wallets = await get('/customer-portal/wallets/', 'ListResourceCustomerWallet')
  await get(`/customer-portal/wallets/${wallets.items[0].id}`, 'CustomerWallet')
  await get(`/customer-portal/orders/${paid.id}/receipt`, 'CustomerOrderReceipt')
  await get(`/customer-portal/orders/${paid.id}/payment-status`, 'CustomerOrderPaymentStatus')

  const org = (await api(h.env, 'GET', '/organizations/')).body.items[0]
  const page = await h.raw('GET', `/customer-portal/organizations/${org.slug}`, {token: null})
  expectShape('2026-10', 'CustomerOrganizationData', page.body)
})

it("a payment retry's outcome, a rotated key and an e-mail change's new token have the SDK types exactly", async () => {
  const s = (await listAll(h.env, '/subscriptions/', 'status=active')).find((x) => x.amount > 0)!
  const failed = await post(`subscriptions/${s.id}/fail-payment`)
  const token = await sessionOf(s.customer_id)
  const retried = await h.raw('POST', `/customer-portal/orders/${failed.body.order.id}/confirm-payment`, {token, body: {confirmation_token_id: 'ctoken_visa'}})
  expect(retried.status, retried.text).toBe(200)
  expectShape('2026-10', 'CustomerOrderPaymentConfirmation', retried.body)

  const key = (await listAll(h.env, '/license-keys/')).find((k) => k.status === 'granted')!
  const rotated = await h.raw('POST', `/customer-portal/license-keys/${key.id}/rotate`, {token: await sessionOf(key.customer_id)})
  expect(rotated.status, rotated.text).toBe(200)
  expectShape('2026-10', 'RotatedLicenseKey', rotated.body)

  const requested = await h.raw('POST', '/customer-portal/customers/me/email-update/request', {token, body: {email: `shape-${Date.now()}@example.com`}})
  expect(requested.status, requested.text).toBe(202)
  const pending = await control(h.env, 'GET', 'email-verifications')
  const verification = pending.body.items.find((v: Json) => v.customer_id === s.customer_id)
  const verified = await h.raw('POST', '/customer-portal/customers/me/email-update/verify', {token: null, body: {token: verification.token}})
  expect(verified.status, verified.text).toBe(200)
  expectShape('2026-10', 'CustomerEmailUpdateVerifyResponse', verified.body)
})

it("a benefit grant of the customer's own, by id, has the SDK type of its benefit's grant exactly", async () => {
  const benefits = await listAll(h.env, '/benefits/')
  const keys = new Set(benefits.filter((b) => b.type === 'license_keys').map((b) => b.id))
  const g = (await listAll(h.env, '/benefit-grants/')).find((x) => x.is_granted && keys.has(x.benefit_id))!
  const one = await h.raw('GET', `/customer-portal/benefit-grants/${g.id}`, {token: await sessionOf(g.customer_id)})
  expect(one.status, one.text).toBe(200)
  expect(one.body.id).toBe(g.id)
  expectShape('2026-10', 'CustomerBenefitGrantLicenseKeys', one.body)
})
