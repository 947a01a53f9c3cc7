// The audited table of every error the emulator answers (src/emulator/core/service-errors.ts): for each one,
// the request that causes it, against one emulator, answered with the service's name and status, and its
// message where the service's wording is fixed (a template's fixed parts otherwise); whether the document
// declares it is checked against the document; and every error the emulator's resources raise is in the
// table. Every answer is also checked by the contract mode: a departure from the document that is not
// listed in contract-known.ts fails the test.
import {createHash, randomBytes} from 'node:crypto'
import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {Contract} from '../../src/emulator/core/contract.js'
import {SERVICE_ERRORS, type ServiceError} from '../../src/emulator/core/service-errors.js'
import {allowRefusalsInFile, SPEC} from '../helpers/contract.js'
import {
  api,
  chunkedPost,
  control,
  listAll,
  ROOT,
  sleep,
  startEmulator,
  unknownId,
  type ApiOptions,
  type ApiResponse,
  type Emulator,
  type EnvHandle,
  type Json,
} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {scaled} from '../helpers/machine.js'

// some of the requests here are refused by the document on purpose (a malformed body, a missing length)
allowRefusalsInFile()

const ADDRESS = {country: 'US', state: 'US-NY', line1: '1 Main St', city: 'New York', postal_code: '10001'}
const CLI_CLIENT = 'polar_ci_tillEmulatorPublicCliClient000000000147J9IL'
const REDIRECT = 'http://127.0.0.1:45678/oauth/callback'

let emulator: Emulator
let env: EnvHandle
/** The method and path of the last request a case made: the one whose answer is checked. */
let last: {method: string; path: string} = {method: '', path: ''}

function call(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse> {
  last = {method, path: new URL(/^https?:/.test(path) ? path : `${env.url}${path}`).pathname}
  return api(env, method, path, options)
}

/** A call of the emulator's control routes (`/_emulator/...`), which the service does not have. */
function ctl(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse> {
  last = {method, path: `/_emulator/${path}`}
  return control(env, method, path, options)
}

const created = async (method: string, path: string, body: unknown, options: ApiOptions = {}): Promise<Json> => {
  const res = await api(env, method, path, body === undefined ? options : {body, ...options})
  expect([200, 201], `${method} ${path}: ${brief(res)}`).toContain(res.status)
  return res.body
}

const form = (fields: Record<string, string>): ApiOptions => ({
  token: null,
  headers: {'content-type': 'application/x-www-form-urlencoded'},
  rawBody: new URLSearchParams(fields).toString(),
})

/** A customer session token of `customerId`. */
const session = async (customerId: string): Promise<string> => (await created('POST', '/customer-sessions/', {customer_id: customerId})).token

/** Waits until `test` holds of GET `path` (a condition, not a time). */
async function until(path: string, test: (body: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + scaled(15_000)
  for (;;) {
    const res = await api(env, 'GET', path)
    if (res.status === 200 && test(res.body)) return res.body
    if (Date.now() > deadline) throw new Error(`GET ${path}: the condition never held (${brief(res)})`)
    await sleep(25)
  }
}

/** A subscription of 3 seats, none assigned, to a new seat-based product of 1 to 3 seats. */
async function seatSubscription(): Promise<Json> {
  const tag = randomBytes(3).toString('hex')
  const product = await created('POST', '/products/', {
    name: `Seats ${tag}`,
    recurring_interval: 'month',
    prices: [{amount_type: 'seat_based', price_currency: 'usd', seat_tiers: {tiers: [{min_seats: 1, max_seats: 3, price_per_seat: 1000}]}}],
  })
  const checkout = await created('POST', '/checkouts/', {products: [product.id]})
  const confirm = await api(env, 'POST', `/checkouts/client/${checkout.client_secret}/confirm`, {
    token: null,
    body: {customer_email: `seats-${tag}@example.com`, customer_name: 'Seat Buyer', customer_billing_address: {country: 'US'}},
  })
  expect(confirm.status, brief(confirm)).toBe(200)
  const list = await until(`/subscriptions/?product_id=${product.id}`, (b) => b.items.length === 1)
  const three = await api(env, 'PATCH', `/subscriptions/${list.items[0].id}`, {body: {seats: 3}})
  expect(three.status, brief(three)).toBe(200)
  return three.body
}

/** A subscription renewed with a failed payment: its pending order, which the customer may retry. */
async function failedRenewal(): Promise<Json> {
  const subscriptions = await listAll(env, '/subscriptions/', 'status=active&cancel_at_period_end=false')
  const s = subscriptions.find((x: Json) => x.amount > 0 && x.seats === null && !x.pending_update && !taken.has(x.id))
  taken.add(s.id)
  const res = await control(env, 'POST', `subscriptions/${s.id}/fail-payment`)
  expect(res.status, brief(res)).toBe(200)
  const orders = await until(`/orders/?subscription_id=${s.id}&sorting=-created_at`, (b) => b.items[0]?.status === 'pending')
  return orders.items[0]
}

/** Seeded objects a case uses, so that no two cases use the same one. */
const taken = new Set<string>()
const pick = (items: Json[], test: (x: Json) => boolean, what: string): Json => {
  const found = items.find((x) => !taken.has(x.id) && test(x))
  expect(found, what).toBeDefined()
  taken.add(found.id)
  return found
}

/** The CLI client's tokens for the scope `openid products:read`: an authorization code with PKCE, consented and exchanged. */
async function signedIn(): Promise<ApiResponse> {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const fields = {response_type: 'code', client_id: CLI_CLIENT, redirect_uri: REDIRECT, state: 's', scope: 'openid products:read'}
  const consent = await api(
    env,
    'POST',
    `${new URL(env.url).origin}/oauth2/authorize`,
    form({...fields, code_challenge: challenge, code_challenge_method: 'S256', action: 'allow'}),
  )
  const code = new URL(consent.headers.get('location')!).searchParams.get('code')!
  return api(
    env,
    'POST',
    '/oauth2/token',
    form({grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: CLI_CLIENT, code_verifier: verifier}),
  )
}

/** The request that causes each error of the table, by `name status`. */
const CASES: Record<string, () => Promise<ApiResponse>> = {
  'Unauthorized 401': () => call('GET', '/products/', {token: null}),
  'invalid_token 401': () => call('GET', '/products/', {token: `polar_oat_${'A'.repeat(43)}`}),
  'insufficient_scope 403': async () => {
    const tokens = await signedIn()
    return call('GET', '/orders/', {token: tokens.body.access_token})
  },
  'RequestValidationError 422': () => call('POST', '/customers/', {body: {email: 42}}),
  'PolarRequestValidationError 422': async () => {
    const orders = await listAll(env, '/orders/', 'status=paid')
    const order = pick(orders, (o) => o.refundable_amount > 0, 'a paid order')
    return call('POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: order.refundable_amount + 1}})
  },
  'LengthRequired 411': async () => {
    last = {method: 'POST', path: '/v1/customers/'}
    const res = await chunkedPost(env, '/customers/', ['{"email":', '"x@example.com"}'])
    return {status: res.status, headers: new Headers(), body: res.body, text: JSON.stringify(res.body)}
  },
  'RequestBodyTooLarge 413': () => call('POST', '/customers/', {rawBody: `{"email":"a@example.com","name":"${'x'.repeat(10 * 1024 * 1024)}"}`}),
  'ResourceNotFound 404': () => call('GET', `/products/${unknownId()}`),
  'NotPermitted 403': async () => {
    const customers = await listAll(env, '/customers/')
    const individual = pick(customers, (c) => c.type === 'individual', 'an individual customer')
    return call('GET', '/customer-portal/members', {token: await session(individual.id)})
  },
  'BadRequest 400': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active&cancel_at_period_end=false'), () => true, 'an active subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {cancel_at_period_end: false}})
  },
  'ResourceUnavailable 410': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=canceled'), (x) => x.ended_at !== null, 'an ended subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {cancel_at_period_end: false}})
  },
  'InvoiceDoesNotExist 404': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => !o.is_invoice_generated, 'a paid order without an invoice')
    return call('GET', `/orders/${order.id}/invoice`)
  },
  'OrderNotEligibleForInvoice 409': async () => {
    const draft = await draftOrder()
    return call('POST', `/orders/${draft.id}/invoice`)
  },
  'MissingInvoiceBillingDetails 422': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => !o.is_invoice_generated && !o.billing_address, 'a paid order without an address')
    return call('POST', `/orders/${order.id}/invoice`)
  },
  'OrderNotDraft 412': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), () => true, 'a paid order')
    return call('POST', `/orders/${order.id}/finalize`, {body: {}})
  },
  'OffSessionChargesNotEnabled 403': async () => {
    const draft = await draftOrder()
    await control(env, 'POST', 'organization/features', {body: {off_session_charges_enabled: false}})
    try {
      return await call('POST', `/orders/${draft.id}/finalize`, {body: {}})
    } finally {
      await control(env, 'POST', 'organization/features', {body: {off_session_charges_enabled: true}})
    }
  },
  'PaymentFailed 402': async () => {
    const customer = await created('POST', '/customers/', {email: `card-less-${randomBytes(3).toString('hex')}@example.com`, billing_address: ADDRESS})
    const draft = await draftOrder(customer.id)
    return call('POST', `/orders/${draft.id}/finalize`, {body: {}})
  },
  'PaymentActionRequired 402': async () => {
    const payer = await payingCustomer()
    const draft = await draftOrder(payer.id)
    await control(env, 'POST', `customers/${payer.id}/card`, {body: {outcome: 'authentication_required'}})
    return call('POST', `/orders/${draft.id}/finalize`, {body: {}})
  },
  'OrderNotEligibleForRetry 422': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => o.subscription_id !== null, 'a paid renewal')
    return call('POST', `/customer-portal/orders/${order.id}/confirm-payment`, {
      token: await session(order.customer_id),
      body: {confirmation_token_id: 'ctoken_visa'},
    })
  },
  'PaymentRetryValidationError 422': async () => {
    const order = await failedRenewal()
    return call('POST', `/customer-portal/orders/${order.id}/confirm-payment`, {token: await session(order.customer_id), body: {}})
  },
  'ManualRetryLimitExceeded 429': async () => {
    const order = await failedRenewal()
    const token = await session(order.customer_id)
    const retry = () =>
      call('POST', `/customer-portal/orders/${order.id}/confirm-payment`, {token, body: {confirmation_token_id: 'ctoken_declined'}, noRetry: true})
    for (let i = 0; i < 5; i++) expect((await retry()).status).toBe(200)
    return retry()
  },
  'RefundedAlready 403': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=refunded'), () => true, 'a refunded order')
    return call('POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: 1}})
  },
  'RevokeSubscriptionBenefitsProhibited 400': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => o.subscription_id !== null && o.refundable_amount > 0, 'a paid renewal')
    return call('POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: 1, revoke_benefits: true}})
  },
  'RefundUnknownPayment 404': async () => {
    const draft = await draftOrder()
    return call('POST', '/refunds/', {body: {order_id: draft.id, reason: 'other', amount: 1}})
  },
  'DisputeNotOpenError 409': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => o.total_amount > 0, 'a paid order')
    const dispute = await ctl('POST', `orders/${order.id}/dispute`)
    expect([200, 201], brief(dispute)).toContain(dispute.status)
    await created('POST', `/disputes/${dispute.body.id}/accept`, undefined)
    return call('POST', `/disputes/${dispute.body.id}/accept`)
  },
  'ExpiredCheckoutError 410': async () => {
    const checkout = pick(await listAll(env, '/checkouts/', 'status=expired'), () => true, 'an expired checkout')
    return call('GET', `/checkouts/client/${checkout.client_secret}`, {token: null})
  },
  'NotOpenCheckout 403': async () => {
    const checkout = pick(await listAll(env, '/checkouts/', 'status=succeeded'), () => true, 'a succeeded checkout')
    return call('PATCH', `/checkouts/${checkout.id}`, {body: {metadata: {a: 'b'}}})
  },
  'AlreadyActiveSubscriptionError 403': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active'), () => true, 'an active subscription')
    const products = await listAll(env, '/products/', 'is_recurring=true&is_archived=false')
    const product = products.find((p: Json) => p.prices.every((x: Json) => x.amount_type === 'fixed'))
    const checkout = await created('POST', '/checkouts/', {products: [product.id], customer_id: s.customer_id})
    return call('POST', `/checkouts/client/${checkout.client_secret}/confirm`, {token: null, body: {customer_billing_address: {country: 'US'}}})
  },
  'AlreadyCanceledSubscription 403': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active&cancel_at_period_end=true'), () => true, 'a subscription ending at its period end')
    const product = (await listAll(env, '/products/', 'is_recurring=true&is_archived=false')).find((p: Json) => p.id !== s.product_id)
    return call('PATCH', `/subscriptions/${s.id}`, {body: {product_id: product.id}})
  },
  'InactiveSubscription 403': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=canceled'), (x) => x.ended_at !== null, 'an ended subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {trial_end: new Date(Date.now() + 40 * 86_400_000).toISOString()}})
  },
  // nothing listens on this emulator's streams
  'NoActiveListener 409': async () => call('POST', `/cli/trigger/${env.organizationId}`, {body: {event: 'order.paid'}}),
  'NotPausedSubscription 409': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active'), () => true, 'an active subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {resume: true}})
  },
  'NotASeatBasedSubscription 400': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active&cancel_at_period_end=false'), (x) => x.seats === null, 'a subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {seats: 2}})
  },
  'NotAUnitBasedSubscription 400': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active&cancel_at_period_end=false'), () => true, 'a subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {units: 3, proration_behavior: 'invoice'}})
  },
  'BelowMinimumSeats 400': async () => call('PATCH', `/subscriptions/${(await seatSubscription()).id}`, {body: {seats: 0}}),
  'AboveMaximumSeats 400': async () => call('PATCH', `/subscriptions/${(await seatSubscription()).id}`, {body: {seats: 4}}),
  'SeatsAlreadyAssigned 400': async () => {
    const s = await seatSubscription()
    for (const n of [1, 2]) await created('POST', '/customer-seats', {subscription_id: s.id, email: `member${n}-${randomBytes(3).toString('hex')}@example.com`})
    return call('PATCH', `/subscriptions/${s.id}`, {body: {seats: 1}})
  },
  'SeatNotAvailable 400': async () => {
    const s = await seatSubscription()
    for (const n of [1, 2, 3])
      await created('POST', '/customer-seats', {subscription_id: s.id, email: `member${n}-${randomBytes(3).toString('hex')}@example.com`})
    return call('POST', '/customer-seats', {body: {subscription_id: s.id, email: `third-${randomBytes(3).toString('hex')}@example.com`}})
  },
  'SeatAlreadyAssigned 400': async () => {
    const s = await seatSubscription()
    const email = `twice-${randomBytes(3).toString('hex')}@example.com`
    await created('POST', '/customer-seats', {subscription_id: s.id, email})
    return call('POST', '/customer-seats', {body: {subscription_id: s.id, email}})
  },
  'SeatNotPending 400': async () => {
    const s = await seatSubscription()
    const seat = await created('POST', '/customer-seats', {
      subscription_id: s.id,
      email: `now-${randomBytes(3).toString('hex')}@example.com`,
      immediate_claim: true,
    })
    return call('POST', `/customer-seats/${seat.id}/resend`)
  },
  'InvalidInvitationToken 400': () => call('POST', '/customer-seats/claim', {token: null, body: {invitation_token: 'not-an-invitation'}}),
  'CustomerNotFound 404': async () => {
    const s = await seatSubscription()
    return call('POST', '/customer-seats', {body: {subscription_id: s.id, customer_id: unknownId()}})
  },
  'MemberNotFound 404': async () => {
    const s = await seatSubscription()
    return call('POST', '/customer-seats', {body: {subscription_id: s.id, member_id: unknownId()}})
  },
  'RotateNotPermitted 400': async () => {
    const key = pick(await listAll(env, '/license-keys/'), (k) => k.status === 'revoked', 'a revoked license key')
    return call('POST', `/license-keys/${key.id}/rotate`)
  },
  'ProductNotDeletable 409': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => o.product_id !== null, 'an order of a product')
    return call('DELETE', `/products/${order.product_id}`)
  },
  'PaymentMethodSetupFailed 400': async () => {
    const customer = await created('POST', '/customers/', {email: `declined-${randomBytes(3).toString('hex')}@example.com`})
    return call('POST', '/customer-portal/customers/me/payment-methods', {
      token: await session(customer.id),
      body: {confirmation_token_id: 'ctoken_declined', set_default: false, return_url: 'https://example.com/back'},
    })
  },
  'CustomerNotReady 403': async () => {
    const customer = await created('POST', '/customers/', {email: `not-ready-${randomBytes(3).toString('hex')}@example.com`})
    return call('POST', '/customer-portal/customers/me/payment-methods/confirm', {
      token: await session(customer.id),
      body: {setup_intent_id: 'seti_unknown', set_default: false},
    })
  },
  'PaymentMethodInUseByActiveSubscription 400': async () => {
    const payer = await payingCustomer((c) => c.active_subscriptions.length > 0)
    const token = await session(payer.id)
    const methods = (await api(env, 'GET', `/customers/${payer.id}/payment-methods`)).body.items
    expect(methods).toHaveLength(1)
    return call('DELETE', `/customer-portal/customers/me/payment-methods/${methods[0].id}`, {token})
  },
  'InvalidCustomerEmailUpdate 401': () => call('POST', '/customer-portal/customers/me/email-update/verify', {token: null, body: {token: 'polar_cev_nothing'}}),
  'invalid_request 400': () => call('POST', '/oauth2/token', form({client_id: CLI_CLIENT})),
  'unsupported_grant_type 400': () => call('POST', '/oauth2/token', form({grant_type: 'password', client_id: CLI_CLIENT})),
  'invalid_client 400': () => call('POST', '/oauth2/token', form({grant_type: 'authorization_code', code: 'x', client_id: 'polar_ci_nobody'})),
  'invalid_grant 400': () =>
    call('POST', '/oauth2/token', form({grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT, client_id: CLI_CLIENT})),
  'invalid_scope 400': async () => {
    const tokens = await signedIn()
    return call(
      'POST',
      '/oauth2/token',
      form({grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: CLI_CLIENT, scope: 'orders:write'}),
    )
  },
  'unauthorized_client 400': async () => {
    const client = await created('POST', '/oauth2/register', {
      client_name: 'Code only',
      redirect_uris: ['https://example.com/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    })
    return call('POST', '/oauth2/token', form({grant_type: 'refresh_token', refresh_token: 'x', client_id: client.client_id}))
  },
  'NoSuchUpload 404': async () => {
    const url = new URL(await uploadUrl())
    url.searchParams.set('upload_id', unknownId())
    return call('PUT', url.toString(), {token: null, rawBody: 'abcd', headers: {'content-type': 'application/octet-stream'}})
  },
  'SignatureDoesNotMatch 403': async () => {
    const url = new URL(await uploadUrl())
    url.searchParams.set('signature', '0'.repeat(32))
    return call('PUT', url.toString(), {token: null, rawBody: 'abcd', headers: {'content-type': 'application/octet-stream'}})
  },
  'IncompleteBody 400': async () => call('PUT', await uploadUrl(), {token: null, rawBody: 'abc', headers: {'content-type': 'application/octet-stream'}}),
  'BadDigest 400': async () => call('PUT', await uploadUrl(), {token: null, rawBody: 'wxyz', headers: {'content-type': 'application/octet-stream'}}),
  'AccessDenied 403': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), (o) => o.is_invoice_generated, 'an order with an invoice')
    const link = new URL((await api(env, 'GET', `/orders/${order.id}/invoice`)).body.url)
    link.searchParams.set('signature', '0'.repeat(32))
    return call('GET', link.toString(), {token: null})
  },
  'BadRequest 400 emulator': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active'), () => true, 'an active subscription')
    return call('PATCH', `/subscriptions/${s.id}`, {body: {pause_at_period_end: true}})
  },
  'OrderNotPending 409 emulator': async () => {
    const order = pick(await listAll(env, '/orders/', 'status=paid'), () => true, 'a paid order')
    return ctl('POST', `orders/${order.id}/pay`)
  },
  'OrderNotPaid 409 emulator': async () => ctl('POST', `orders/${(await draftOrder()).id}/dispute`),
  'SubscriptionNotRenewable 409 emulator': async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=canceled'), (x) => x.ended_at !== null, 'an ended subscription')
    return ctl('POST', `subscriptions/${s.id}/renew`)
  },
  'SubscriptionNotMigratable 409 emulator': async () => {
    // a subscription migrates once: its second cutover is refused
    const s = pick(await listAll(env, '/subscriptions/', 'status=active'), () => true, 'an active subscription')
    const body = {provider: 'stripe', provider_subscription_id: 'sub_1Twice'}
    expect((await control(env, 'POST', `subscriptions/${s.id}/migrate`, {body})).status).toBe(200)
    return ctl('POST', `subscriptions/${s.id}/migrate`, {body})
  },
  'ClockNotForward 409 emulator': async () => ctl('POST', 'clock/advance', {body: {to: '2000-01-01'}}),
  'InvalidClockTarget 422 emulator': async () => ctl('POST', 'clock/advance', {body: {to: 'next tuesday'}}),
  'InvalidClockDuration 422 emulator': async () => ctl('POST', 'clock/advance', {body: {duration: 'soon'}}),
  'ClockOutOfRange 422 emulator': async () => ctl('POST', 'clock/advance', {body: {duration: '300000y'}}),
  'ClockTooFar 422 emulator': async () => ctl('POST', 'clock/advance', {body: {duration: '200000y'}}),
  'InvalidEventType 422 emulator': async () => ctl('POST', 'clock/advance', {body: {until_next: 'order.payed'}}),
  'InvalidFaults 422 emulator': async () => {
    const endpoint = pick(await listAll(env, '/webhooks/endpoints'), () => true, 'a webhook endpoint')
    return ctl('POST', `webhooks/endpoints/${endpoint.id}/faults`, {body: {delay: 'soon'}})
  },
  // on the sandbox, so that the hour it moves settles nothing the other cases read
  'ClockSettled 409 emulator': async () => {
    const moved = await control(emulator.sandbox, 'POST', 'clock/advance', {body: {duration: '1h'}})
    expect(moved.status, brief(moved)).toBe(200)
    last = {method: 'POST', path: '/_emulator/clock/reset'}
    return control(emulator.sandbox, 'POST', 'clock/reset')
  },
  'SeatNotPending 409 emulator': async () => {
    const s = await seatSubscription()
    const seat = await created('POST', '/customer-seats', {
      subscription_id: s.id,
      email: `claimed-${randomBytes(3).toString('hex')}@example.com`,
      immediate_claim: true,
    })
    return ctl('GET', `customer-seats/${seat.id}/invitation`)
  },
}

/** A new draft order of `customerId` (a new customer with an address by default) for a one-time product. */
async function draftOrder(customerId?: string): Promise<Json> {
  const customer =
    customerId ?? (await created('POST', '/customers/', {email: `draft-${randomBytes(3).toString('hex')}@example.com`, billing_address: ADDRESS})).id
  const products = await listAll(env, '/products/', 'is_recurring=false&is_archived=false')
  const product = products.find((p: Json) => p.prices.every((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0))
  return created('POST', '/orders/', {customer_id: customer, product_id: product.id})
}

/** A seeded customer with one saved card (their first payment's). */
async function payingCustomer(test: (c: Json) => boolean = () => true): Promise<Json> {
  for (const c of await listAll(env, '/customers/')) {
    if (taken.has(c.id) || c.type !== 'individual' || !c.billing_address?.line1) continue
    const methods = (await api(env, 'GET', `/customers/${c.id}/payment-methods`)).body.items
    if (methods.length !== 1) continue
    const state = (await api(env, 'GET', `/customers/${c.id}/state`)).body
    if (!test(state)) continue
    taken.add(c.id)
    return c
  }
  throw new Error('no seeded customer with one saved card')
}

/** The presigned URL of the one part of a new four-byte file whose checksum is that of `abcd`. */
async function uploadUrl(): Promise<string> {
  const sha = createHash('sha256').update('abcd').digest('base64')
  const file = await created('POST', '/files/', {
    name: 'four.txt',
    mime_type: 'text/plain',
    size: 4,
    service: 'downloadable',
    upload: {parts: [{number: 1, chunk_start: 0, chunk_end: 3, checksum_sha256_base64: sha}]},
  })
  return file.upload.parts[0].url
}

const keyOf = (e: ServiceError) => `${e.name} ${e.status}${e.origin === 'emulator' ? ' emulator' : ''}`

/** The fixed parts of a message template, in order: `Order {id} is not pending` -> /^Order .+ is not pending$/. */
const templateOf = (message: string) =>
  new RegExp(
    `^${message
      .split(/\{[a-z_]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  )

/** The error names a documented answer declares (`error`'s const, through references and unions). */
function declaredNames(contract: Contract, schema: unknown, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return []
  seen.add(schema)
  const s = schema as Json
  if (typeof s.$ref === 'string') {
    const target = s.$ref.replace('#/components/schemas/', '')
    return declaredNames(contract, (contract.document.components as Json).schemas[target], seen)
  }
  const own = typeof s.properties?.error?.const === 'string' ? [s.properties.error.const] : []
  return [...own, ...[...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((m: unknown) => declaredNames(contract, m, seen))]
}

describe('the errors the emulator answers, as the service answers them', {timeout: scaled(120_000)}, () => {
  const contract = Contract.load(SPEC)

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '0ms', invoiceDelay: '0ms'})
    env = emulator.production
  })
  afterAll(() => emulator?.stop())

  it('every error a resource of the emulator raises is in the table, and every entry has a case', () => {
    const raised = new Set<string>()
    const dir = join(ROOT, 'src', 'emulator', 'resources')
    for (const file of readdirSync(dir, {recursive: true, encoding: 'utf8'}).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8')
      for (const m of text.matchAll(/domainError\(\s*(\d{3}),\s*'(\w+)'/g)) raised.add(`${m[2]} ${m[1]}`)
    }
    const listed = new Set(SERVICE_ERRORS.map((e) => `${e.name} ${e.status}`))
    expect([...raised].filter((k) => !listed.has(k))).toEqual([])
    expect(SERVICE_ERRORS.map(keyOf).filter((k) => !(k in CASES))).toEqual([])
    expect(Object.keys(CASES).filter((k) => !SERVICE_ERRORS.some((e) => keyOf(e) === k))).toEqual([])
    expect(new Set(SERVICE_ERRORS.map(keyOf)).size).toBe(SERVICE_ERRORS.length)
  })

  // errors the emulator answered and the service does not have: what the service does instead
  it('a product change of a trialing subscription ends the trial and bills the new product (no TrialingSubscription)', async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=trialing'), (x) => !x.cancel_at_period_end, 'a trialing subscription')
    const products = await listAll(env, '/products/', 'is_recurring=true&is_archived=false')
    const product = products.find((p: Json) => p.id !== s.product_id && p.prices.every((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0))
    const res = await call('PATCH', `/subscriptions/${s.id}`, {body: {product_id: product.id}})
    expect(res.status, brief(res)).toBe(200)
    expect(res.body).toMatchObject({product_id: product.id, status: 'active'})
    const orders = await until(`/orders/?subscription_id=${s.id}&sorting=-created_at`, (b) => b.items[0]?.product_id === product.id)
    expect(orders.items[0].subtotal_amount).toBe(product.prices[0].price_amount)
  })

  it('a customer who has a subscription is given a second free one (no AlreadyActiveSubscriptionError)', async () => {
    const s = pick(await listAll(env, '/subscriptions/', 'status=active'), () => true, 'an active subscription')
    const free = await created('POST', '/products/', {
      name: `Free ${randomBytes(3).toString('hex')}`,
      recurring_interval: 'month',
      prices: [{amount_type: 'fixed', price_amount: 0, price_currency: 'usd'}],
    })
    const res = await call('POST', '/subscriptions/', {body: {product_id: free.id, customer_id: s.customer_id}})
    expect(res.status, brief(res)).toBe(201)
    expect(res.body).toMatchObject({product_id: free.id, customer_id: s.customer_id, status: 'active'})
  })

  it.each(SERVICE_ERRORS.map((e) => [keyOf(e), e] as const))('%s', async (_key, e) => {
    const res = await CASES[keyOf(e)]!()
    expect(res.status, brief(res)).toBe(e.status)
    expect(res.body?.error, brief(res)).toBe(e.name)
    const detail = e.origin === 'oauth' ? res.body.error_description : res.body.detail
    if (e.message !== null) expect(detail).toMatch(templateOf(e.message))
    if (e.message === null && e.origin === 'service' && e.status === 422) expect(Array.isArray(detail)).toBe(true)
    // whether the document declares the name for this status on the operation answered
    const found = last.path.startsWith('/v1/') ? contract.find(last.method, last.path) : null
    const answer = found?.operation.responses[String(e.status)]
    const names = declaredNames(contract, answer?.content?.['application/json']?.schema)
    const declared = e.status === 422 && e.message === null ? found !== null : names.includes(e.name)
    expect(declared, `${last.method} ${last.path} declares ${names.join(', ') || 'nothing'} for ${e.status}`).toBe(e.documented)
  })
})
