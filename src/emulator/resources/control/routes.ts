// The emulator's control surface, outside /v1 (like the control endpoints of other local emulators):
// test-only actions that no API call can cause. Each action is one entry of ACTIONS; adding one (a
// dispute opened, say) is adding an entry. They need the environment's organization token.
//
//   GET  /_emulator/listeners                        open listen streams and how many were ever opened
//   GET  /_emulator/logs?after=ID&wait=S             the requests answered, after a cursor (control/logs.ts)
//   POST /_emulator/listeners/reconnect              every listen stream gets {"type":"reconnect"} now
//   POST /_emulator/orders/{id}/pay                  a pending order's payment completes now
//   POST /_emulator/subscriptions/{id}/renew         the subscription renews now (its discount, while it lasts,
//                                                    applies); its order is paid later
//   POST /_emulator/subscriptions/{id}/fail-payment  it renews now and the payment fails: past_due
//   POST /_emulator/subscriptions/{id}/migrate       the cutover of an imported subscription: subscription.migrated
//                                                    {provider, provider_subscription_id}, subscription.updated
//   POST /_emulator/oauth2/expire-access-tokens      every OAuth access token expires now (refresh tokens stay)
//   POST /_emulator/orders/{id}/dispute              the customer disputes a paid order's payment
//   POST /_emulator/products/refuse {name, times?}   the next create or update of that product gets a 422
//   POST /_emulator/empty                            every object removed: a new organization, as one starts
//   GET  /_emulator/customer-seats/{id}/invitation   the invitation token the service e-mails to a pending seat
//   GET  /_emulator/email-verifications              the pending e-mail changes with their tokens (the e-mails
//                                                    the portal's request would have sent)
//   POST /_emulator/customers/{id}/wallet            a top-up of the customer's wallet {amount, currency?}
//   POST /_emulator/organization/features            turns the organization's features on or off, as support
//                                                    does ({"off_session_charges_enabled": bool})
//   POST /_emulator/customers/{id}/card              how the customer's saved card answers the next off-session
//                                                    charges ({"outcome": "succeed" | "decline" | "authentication_required"})
//   POST /_emulator/webhooks/endpoints/{id}/faults   the endpoint's own delivery faults ({"duplicate": 0.2, ...})
import {z} from '../../core/zod.js'

import {domainError} from '../../core/errors.js'
import {lookup, pathId} from '../../core/toolkit.js'
import {emit, ok, type Ctx, type Handler, type Router} from '../../core/http.js'
import {parse} from '../../core/validate.js'
import {newDispute} from '../disputes/open.js'
import {dispute as presentDispute} from '../disputes/present.js'
import {hasPayment} from '../payments/derive.js'
import {order as presentOrder} from '../orders/present.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {subscription as presentSubscription} from '../subscriptions/present.js'
import {BILLABLE, findSubscription} from '../subscriptions/lifecycle.js'
import {migrateSubscription} from '../subscriptions/migrate.js'
import {cardDeclines, emitRenewal, renewPeriod} from '../subscriptions/cycle.js'
import {hubOf} from '../listen/hub.js'
import {armRefusal} from '../products/refusals.js'
import {pendingVerifications} from '../portal/email-update.js'
import {topUpWallet} from '../portal/wallets.js'
import {setEndpointFaults} from '../webhooks/fault-route.js'
import {LOGS_PATH, readLogs} from './logs.js'

export const CONTROL_PREFIX = '/_emulator'

interface Action {
  method: 'GET' | 'POST'
  path: string
  summary: string
  handler: Handler
}

const iso = (ms: number) => new Date(ms).toISOString()

function payOrder(ctx: Ctx): ReturnType<Handler> {
  const order = lookup(ctx, 'orders', pathId(ctx))
  const id = order.id
  if (order.status !== 'pending' || order.paid_event_sent) throw domainError(409, 'OrderNotPending', `Order ${id} is ${order.status}, not pending.`)
  const reactivated = ctx.store.write(() => {
    const o = ctx.store.get('orders', id)!
    o.paid_at = iso(ctx.now)
    o.next_payment_attempt_at = null
    // a renewal that had failed: its subscription is active again, as when a retry succeeds
    const s = o.subscription_id ? ctx.store.get('subscriptions', o.subscription_id) : undefined
    if (s?.status !== 'past_due' || s.ended_at !== null) return undefined
    Object.assign(s, {status: 'active', past_due_at: null, modified_at: iso(ctx.now)})
    return s
  })
  if (reactivated) {
    const body = presentSubscription(ctx.view, reactivated)
    emit(ctx.env, 'subscription.updated', body)
    emit(ctx.env, 'subscription.active', body)
  }
  // The sweep raises order.updated and order.paid (and grants the benefits) as for any payment.
  ctx.env.settle()
  return ok(presentOrder(ctx.view, ctx.store.get('orders', id)!))
}

/**
 * A new period from now, with its order: paid after the payment delay, or never when the payment fails (or
 * the customer's card declines): past_due, retried on the service's schedule as the clock moves. A
 * subscription set to cancel at its period's end does not renew (the service ends it then): refused.
 */
function renew(ctx: Ctx, paymentFails: boolean): ReturnType<Handler> {
  const id = pathId(ctx)
  const check = (s: SubscriptionRecord): SubscriptionRecord => {
    if (s.ended_at !== null || !BILLABLE.includes(s.status)) {
      throw domainError(409, 'SubscriptionNotRenewable', `Subscription ${id} is ${s.status}; only a live subscription renews.`)
    }
    if (s.cancel_at_period_end) {
      throw domainError(
        409,
        'SubscriptionNotRenewable',
        `Subscription ${id} is set to cancel at the end of its period (${s.current_period_end}): it ends then instead of renewing. Move the clock past it to end it: till emulator clock advance --to ${s.current_period_end}`,
      )
    }
    return s
  }
  check(findSubscription(ctx, id))
  const renewal = ctx.store.write(() => {
    const s = check(findSubscription(ctx, id))
    const done = renewPeriod(ctx, s, paymentFails || cardDeclines(ctx, s.customer_id))
    if (!done) throw domainError(409, 'SubscriptionNotRenewable', `Subscription ${id} has no price to bill.`)
    return done
  })
  emitRenewal(ctx, renewal)
  return ok({subscription: presentSubscription(ctx.view, renewal.subscription), order: presentOrder(ctx.view, renewal.order)})
}

/** What a client sees when an access token outlives its hour: refused with 401, renewable. */
function expireAccessTokens(ctx: Ctx): ReturnType<Handler> {
  const expired = ctx.store.write(() => {
    let n = 0
    for (const t of ctx.store.all('oauth2_tokens')) {
      if (t.access_revoked_at !== null || Date.parse(t.expires_at) <= ctx.now) continue
      t.expires_at = iso(ctx.now - 1000)
      n++
    }
    return n
  })
  return ok({expired})
}

const disputeBody = z.object({reason: z.string().min(1).default('fraudulent')}).default({reason: 'fraudulent'})

/** A customer disputes the whole paid amount of an order: a dispute awaiting a response for 7 days. */
function openDispute(ctx: Ctx): ReturnType<Handler> {
  const id = pathId(ctx)
  const {reason} = parse(disputeBody, ctx.body ?? undefined)
  const check = () => {
    const order = lookup(ctx, 'orders', id)
    if (!hasPayment(ctx, order)) throw domainError(409, 'OrderNotPaid', `Order ${id} has no payment to dispute.`)
    return order
  }
  check()
  const d = ctx.store.write(() => ctx.store.insert('disputes', newDispute(check(), ctx.now, undefined, reason)))
  return ok(presentDispute(ctx.view, d), 201)
}

const refusal = z.object({name: z.string().min(1), times: z.int().min(1).max(100).default(1)})

function refuseProduct(ctx: Ctx): ReturnType<Handler> {
  const input = parse(refusal, ctx.body)
  armRefusal(ctx.env, input.name, input.times)
  return ok({armed: input})
}

/** Every collection emptied (the organization, its tokens and counters kept): a brand-new organization. */
function empty(ctx: Ctx): ReturnType<Handler> {
  const removed: Record<string, number> = {}
  ctx.store.write(() => {
    const data = ctx.store.data as unknown as Record<string, unknown>
    for (const [name, rows] of Object.entries(data)) {
      if (name === 'tokens' || !Array.isArray(rows) || rows.length === 0) continue
      removed[name] = rows.length
      for (const row of [...rows] as Array<{id: string}>) ctx.store.remove(name as never, row.id)
    }
  })
  return ok({removed})
}

const features = z.object({off_session_charges_enabled: z.boolean().optional()})

function setFeatures(ctx: Ctx): ReturnType<Handler> {
  const input = parse(features, ctx.body)
  const org = ctx.store.write(() => {
    const o = ctx.store.data.organization
    if (input.off_session_charges_enabled !== undefined) o.off_session_charges_enabled = input.off_session_charges_enabled
    return o
  })
  return ok({off_session_charges_enabled: org.off_session_charges_enabled ?? false})
}

const cardOutcome = z.object({outcome: z.enum(['succeed', 'decline', 'authentication_required'])})

function setCardOutcome(ctx: Ctx): ReturnType<Handler> {
  const customer = lookup(ctx, 'customers', pathId(ctx))
  const {outcome} = parse(cardOutcome, ctx.body)
  ctx.store.write(() => {
    const outcomes = {...ctx.store.data.card_outcomes}
    if (outcome === 'succeed') delete outcomes[customer.id]
    else outcomes[customer.id] = outcome
    ctx.store.data.card_outcomes = outcomes
  })
  return ok({customer_id: customer.id, outcome})
}

export const ACTIONS: Action[] = [
  {
    method: 'GET',
    path: '/listeners',
    summary: 'Open listen streams, and how many were opened since the emulator started.',
    handler: (ctx) => ok({listeners: hubOf(ctx.env).size, streams_opened: hubOf(ctx.env).opened}),
  },
  {
    method: 'GET',
    path: LOGS_PATH,
    summary: 'The last 1,000 requests answered, oldest first, after ?after=ID; ?wait=S holds the answer until one comes.',
    handler: readLogs,
  },
  {
    method: 'POST',
    path: '/listeners/reconnect',
    summary: 'Send {"type":"reconnect"} to every listen stream and close it, as the service does after 10 minutes.',
    handler: (ctx) => ok({reconnected: hubOf(ctx.env).reconnectAll()}),
  },
  {method: 'POST', path: '/orders/:id/pay', summary: "Complete a pending order's payment now.", handler: payOrder},
  {
    method: 'POST',
    path: '/subscriptions/:id/renew',
    summary: 'Renew a subscription now: a new period and its order, paid after the payment delay.',
    handler: (ctx) => renew(ctx, false),
  },
  {
    method: 'POST',
    path: '/oauth2/expire-access-tokens',
    summary: 'Every live OAuth access token expires now; their refresh tokens still work.',
    handler: expireAccessTokens,
  },
  {method: 'POST', path: '/orders/:id/dispute', summary: 'Open a dispute on a paid order\'s payment (body: optional {"reason"}).', handler: openDispute},
  {
    method: 'POST',
    path: '/products/refuse',
    summary: 'Refuse the next create or update of the product named {name} with a 422 ({times} times, default 1).',
    handler: refuseProduct,
  },
  {
    method: 'GET',
    path: '/customer-seats/:id/invitation',
    summary: "A pending seat's invitation as the service e-mails it: its token (for claim-info and claim) and when it expires.",
    handler: (ctx) => {
      const seat = lookup(ctx, 'customer_seats', pathId(ctx))
      if (seat.status !== 'pending' || !seat.invitation_token)
        throw domainError(409, 'SeatNotPending', `Seat ${seat.id} is ${seat.status}: it has no invitation.`)
      return ok({email: seat.email, invitation_token: seat.invitation_token, invitation_token_expires_at: seat.invitation_token_expires_at})
    },
  },
  {
    method: 'POST',
    path: '/empty',
    summary: 'Remove every object of this environment, keeping the organization and its tokens: a new, empty organization.',
    handler: empty,
  },
  {
    method: 'POST',
    path: '/organization/features',
    summary: 'Turn features of the organization on or off, as Polar support does: {"off_session_charges_enabled": bool}.',
    handler: setFeatures,
  },
  {
    method: 'POST',
    path: '/customers/:id/card',
    summary: 'How the customer\'s saved card answers off-session charges from now on: {"outcome": "succeed" | "decline" | "authentication_required"}.',
    handler: setCardOutcome,
  },
  {
    method: 'POST',
    path: '/subscriptions/:id/fail-payment',
    summary: 'Renew a subscription now with a payment that fails: the order stays pending, the subscription goes past_due.',
    handler: (ctx) => renew(ctx, true),
  },
  {
    method: 'POST',
    path: '/subscriptions/:id/migrate',
    summary:
      'The cutover of a subscription imported from another provider: {"provider", "provider_subscription_id"}; ' +
      'sends subscription.migrated and subscription.updated.',
    handler: migrateSubscription,
  },
  {
    method: 'GET',
    path: '/email-verifications',
    summary: 'The pending e-mail changes of the portal, with the token each verification e-mail would carry.',
    handler: (ctx) => ok({items: pendingVerifications(ctx)}),
  },
  {
    method: 'POST',
    path: '/customers/:id/wallet',
    summary: 'Top up a customer\'s wallet: {"amount": cents, "currency": "usd"}; the wallet is made on its first top-up.',
    handler: topUpWallet,
  },
  {
    method: 'POST',
    path: '/webhooks/endpoints/:id/faults',
    summary:
      'Set the delivery faults of one endpoint: {"duplicate", "reorder", "fail_first", "drop"} (0-1), "delay" (2s) or "delay_ms"; {"inherit": true} goes back to the emulator\'s.',
    handler: setEndpointFaults,
  },
]

export function register(r: Router): void {
  for (const a of ACTIONS) r.addAbsolute(a.method, `${CONTROL_PREFIX}${a.path}`, 'organization', a.handler)
  r.addAbsolute('GET', `${CONTROL_PREFIX}/`, 'organization', () =>
    ok({actions: ACTIONS.map((a) => ({method: a.method, path: `${CONTROL_PREFIX}${a.path}`, summary: a.summary}))}),
  )
}
