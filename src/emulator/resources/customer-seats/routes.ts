// Customer seats: the organization's six operations (`/v1/customer-seats`) and the customer portal's five
// (`/v1/customer-portal/seats`), on the rules of ./service.ts.
import {z} from '../../core/zod.js'

import {domainError, requestValidation, unauthorized} from '../../core/errors.js'
import {ok, type Ctx, type Router} from '../../core/http.js'
import {listRoute, pathId, routeOf} from '../../core/toolkit.js'
import {parse, UUID_RE, uuidIssue} from '../../core/validate.js'
import {portalSubscription} from '../portal/present.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {customerSeat} from './present.js'
import {
  assignSeat,
  claimInfo,
  claimSeat,
  type Container,
  orderContainer,
  parseAssign,
  resendInvitation,
  revokeSeat,
  seatsList,
  subscriptionContainer,
} from './service.js'

/** A UUID query parameter, or the framework's 422. */
function queryUuid(ctx: Ctx, name: string): string | undefined {
  const value = ctx.query.getAll(name).at(-1)
  if (value === undefined || value === '') return undefined
  if (!UUID_RE.test(value)) throw requestValidation([uuidIssue(['query', name], value)])
  return value.toLowerCase()
}

/** The container `?subscription_id=` or `?order_id=` names (the subscription first, as the service reads them). */
function listed(ctx: Ctx, customerId?: string): Container {
  const subscriptionId = queryUuid(ctx, 'subscription_id')
  const orderId = queryUuid(ctx, 'order_id')
  if (subscriptionId) return subscriptionContainer(ctx, subscriptionId, customerId)
  if (orderId) return orderContainer(ctx, orderId, customerId)
  throw domainError(400, 'BadRequest', 'Either subscription_id or order_id must be provided')
}

const claimBody = z.object({invitation_token: z.string()})

function registerCore(r: Router): void {
  const seats = routeOf('customer-seats:list_seats')
  r.get(seats.path, seats.auth, (ctx) => ok(seatsList(ctx, listed(ctx))))

  r.post(seats.path, seats.auth, (ctx) => {
    const input = parseAssign(ctx.body, false)
    const c = input.subscription_id ? subscriptionContainer(ctx, input.subscription_id) : orderContainer(ctx, input.order_id!)
    return ok(customerSeat(ctx.view, assignSeat(ctx, c, input)))
  })

  const one = routeOf('customer-seats:revoke_seat')
  r.delete(one.path, one.auth, (ctx) => ok(customerSeat(ctx.view, revokeSeat(ctx, pathId(ctx, 'seat_id')))))
  const resend = routeOf('customer-seats:resend_invitation')
  r.post(resend.path, resend.auth, (ctx) => ok(customerSeat(ctx.view, resendInvitation(ctx, pathId(ctx, 'seat_id')))))

  // no token: the invitation token is the credential
  const info = routeOf('customer-seats:get_claim_info')
  r.get(info.path, info.auth, (ctx) => ok(claimInfo(ctx, ctx.params.invitation_token ?? '')))
  const claim = routeOf('customer-seats:claim_seat')
  r.post(claim.path, claim.auth, (ctx) => ok(claimSeat(ctx, parse(claimBody, ctx.body).invitation_token)))
}

/** The signed-in customer of a portal route. */
function me(ctx: Ctx): string {
  if (ctx.auth.kind !== 'customer') throw unauthorized()
  return ctx.auth.customerId
}

/** The portal's container of an assignment: a subscription, an order, or what a checkout made, of the signed-in customer. */
function portalContainer(ctx: Ctx, input: {subscription_id?: string | null; order_id?: string | null; checkout_id?: string | null}): Container {
  const customerId = me(ctx)
  if (input.subscription_id) return subscriptionContainer(ctx, input.subscription_id, customerId)
  if (input.order_id) return orderContainer(ctx, input.order_id, customerId)
  const checkoutId = input.checkout_id
  const s = ctx.store.all('subscriptions').find((x) => x.checkout_id === checkoutId && x.customer_id === customerId && x.started_at !== null)
  if (s) return {kind: 'subscription', row: s}
  const o = ctx.store.all('orders').find((x) => x.checkout_id === checkoutId && x.customer_id === customerId)
  if (o) return {kind: 'order', row: o}
  throw domainError(404, 'ResourceNotFound', 'No subscription or order found for this checkout')
}

function registerPortal(r: Router): void {
  const seats = routeOf('customer_portal:seats:list_seats')
  r.get(seats.path, seats.auth, (ctx) => ok(seatsList(ctx, listed(ctx, me(ctx)))))

  r.post(seats.path, seats.auth, (ctx) => {
    const input = parseAssign(ctx.body, true)
    return ok(customerSeat(ctx.view, assignSeat(ctx, portalContainer(ctx, input), input)))
  })

  const one = routeOf('customer_portal:seats:revoke_seat')
  r.delete(one.path, one.auth, (ctx) => ok(customerSeat(ctx.view, revokeSeat(ctx, pathId(ctx, 'seat_id'), me(ctx)))))
  const resend = routeOf('customer_portal:seats:resend_invitation')
  r.post(resend.path, resend.auth, (ctx) => ok(customerSeat(ctx.view, resendInvitation(ctx, pathId(ctx, 'seat_id'), me(ctx)))))

  // the subscriptions in which the signed-in customer holds a claimed seat
  const claimed = (ctx: Ctx): SubscriptionRecord[] => {
    const ids = new Set(
      ctx.store
        .all('customer_seats')
        .filter((s) => s.status === 'claimed' && s.customer_id === me(ctx) && s.subscription_id)
        .map((s) => s.subscription_id),
    )
    return ctx.store.all('subscriptions').filter((s) => ids.has(s.id))
  }
  listRoute(r, 'customer_portal:seats:list_claimed_subscriptions', claimed, {present: portalSubscription, sorts: {}, defaultSort: ['-created_at']})
}

export function register(r: Router): void {
  registerCore(r)
  registerPortal(r)
}
