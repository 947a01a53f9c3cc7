// The rules of customer seats (server/polar/customer_seat/service.py), shared by the organization's routes
// and the customer portal's: a seat-based subscription (or order) has `seats` seats; assigning one to an
// e-mail, a customer id or an external customer id takes one (finding or creating the customer for an
// e-mail), with an invitation token valid a day, or claimed at once; claiming the token gives the seat's
// customer the product's benefits and a customer session; revoking frees the seat and takes the benefits
// back. The organization's member model is off (feature_settings), so seats name customers, not members.
import {randomBytes} from '../../core/crypto.js'

import {z} from '../../core/zod.js'

import {domainError, notFound, ruleValidation} from '../../core/errors.js'
import {emit, type Ctx} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import {parse} from '../../core/validate.js'
import {grantProductBenefits} from '../benefits/grants.js'
import * as benefitViews from '../benefits/present.js'
import type {CustomerRecord} from '../customers/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {emitGrantsRevoked, revokeGrants} from '../subscriptions/lifecycle.js'
import {isAssigned, type SeatRecord} from './model.js'
import {customerSeat} from './present.js'

const DAY = 86_400_000

/** What a seat belongs to: a subscription or an order. */
export type Container = {kind: 'subscription'; row: SubscriptionRecord} | {kind: 'order'; row: OrderRecord}

export const assignSchema = z.object({
  subscription_id: z.uuid().nullish(),
  order_id: z.uuid().nullish(),
  email: z.email().nullish(),
  external_customer_id: z.string().nullish(),
  customer_id: z.uuid().nullish(),
  external_member_id: z.string().nullish(),
  member_id: z.uuid().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  immediate_claim: z.boolean().default(false),
})
export const portalAssignSchema = assignSchema.extend({checkout_id: z.uuid().nullish()})
export type Assign = z.output<typeof portalAssignSchema>

const valueError = (msg: string, input: unknown, loc: Array<string | number> = ['body']) => ruleValidation(loc, `Value error, ${msg}`, input)

/** The body of an assignment, with the schema's own checks (pydantic's model validators: the 422s). */
export function parseAssign(body: unknown, portal: boolean): Assign {
  const input: Assign = portal ? parse(portalAssignSchema, body) : parse(assignSchema, body)
  if (input.metadata) {
    if (Object.keys(input.metadata).length > 10) throw valueError('Metadata cannot have more than 10 keys', input.metadata, ['body', 'metadata'])
    if (JSON.stringify(input.metadata).length > 1024) throw valueError('Metadata size cannot exceed 1KB', input.metadata, ['body', 'metadata'])
  }
  const sources = [input.subscription_id, input.order_id, ...(portal ? [input.checkout_id] : [])].filter((x) => x != null).length
  if (sources !== 1) {
    throw valueError(`Exactly one of subscription_id${portal ? ', order_id, or checkout_id' : ' or order_id'} must be provided`, body)
  }
  const legacy = [input.external_customer_id, input.customer_id].filter((x) => x != null).length
  const member = [input.external_member_id, input.member_id].filter((x) => x != null).length
  const email = input.email != null ? 1 : 0
  if (legacy + member + email === 0) {
    throw valueError('At least one of email, external_customer_id, customer_id, external_member_id, or member_id must be provided', body)
  }
  if (legacy > 0 && member > 0) throw valueError('Cannot combine external_customer_id/customer_id with external_member_id/member_id', body)
  if (member > 1) throw valueError('Cannot provide both external_member_id and member_id', body)
  if (legacy > 0 && legacy + email !== 1) throw valueError('Exactly one of email, external_customer_id, or customer_id must be provided', body)
  if (input.member_id != null && email) throw valueError('Cannot combine member_id with email', body)
  return input
}

/** The subscription `id` (of `customerId` when given), or the service's 404. */
export function subscriptionContainer(ctx: Ctx, id: string, customerId?: string): Container {
  const s = ctx.store.get('subscriptions', id)
  if (!s || s.started_at === null || (customerId && s.customer_id !== customerId)) throw notFound('Subscription not found')
  return {kind: 'subscription', row: s}
}

/** The order `id` (of `customerId` when given), or the service's 404. */
export function orderContainer(ctx: Ctx, id: string, customerId?: string): Container {
  const o = ctx.store.get('orders', id)
  if (!o || (customerId && o.customer_id !== customerId)) throw notFound('Order not found')
  return {kind: 'order', row: o}
}

/** How many seats the container was bought with (one-time orders of seats are not emulated: none). */
export const totalSeats = (c: Container): number => (c.kind === 'subscription' ? (c.row.seats ?? 0) : 0)

export const seatsOf = (ctx: Ctx, c: Container): SeatRecord[] =>
  ctx.store.all('customer_seats').filter((s) => (c.kind === 'subscription' ? s.subscription_id === c.row.id : s.order_id === c.row.id))

export const availableSeats = (ctx: Ctx, c: Container): number => Math.max(0, totalSeats(c) - seatsOf(ctx, c).filter(isAssigned).length)

/** SeatsList: every seat of the container (revoked ones too), and how many are free. */
export function seatsList(ctx: Ctx, c: Container) {
  return {seats: seatsOf(ctx, c).map((s) => customerSeat(ctx.view, s)), available_seats: availableSeats(ctx, c), total_seats: totalSeats(c)}
}

const seatNotAvailable = (c: Container, reason?: string) => domainError(400, 'SeatNotAvailable', reason ?? `No available seats for ${c.row.id}`)

/** The seat member's customer: found by id, external id or e-mail; an unknown e-mail becomes a new customer. */
function seatCustomer(ctx: Ctx, input: Assign): CustomerRecord {
  const live = ctx.store.all('customers').filter((c) => c.deleted_at === null)
  if (input.customer_id) {
    const c = live.find((x) => x.id === input.customer_id)
    if (!c) throw domainError(404, 'CustomerNotFound', `Customer not found: ${input.customer_id}`)
    return c
  }
  if (input.external_customer_id) {
    const c = live.find((x) => x.external_id === input.external_customer_id)
    if (!c) throw domainError(404, 'CustomerNotFound', `Customer not found: ${input.external_customer_id}`)
    return c
  }
  const email = input.email!
  const known = live.find((x) => x.email?.toLowerCase() === email.toLowerCase())
  if (known) return known
  const now = new Date(ctx.now).toISOString()
  return ctx.store.insert('customers', {
    id: uuid(),
    created_at: now,
    modified_at: null,
    metadata: {},
    external_id: null,
    email,
    email_verified: false,
    type: 'individual',
    name: null,
    billing_name: null,
    billing_address: null,
    tax_id: null,
    locale: null,
    deleted_at: null,
  })
}

const productOf = (c: Container): string | null => c.row.product_id

/** Grants the product's benefits to a claimed seat's customer; returns the new grants. Call inside a write. */
function grantSeat(ctx: Ctx, seat: SeatRecord, c: Container) {
  return grantProductBenefits(
    ctx.store,
    {customerId: seat.customer_id!, productId: productOf(c), subscriptionId: seat.subscription_id, orderId: seat.order_id},
    new Date(ctx.now).toISOString(),
  )
}

/** Assigns one of the container's seats (the service's `assign_seat`); emits customer_seat.assigned, or .claimed at once. */
export function assignSeat(ctx: Ctx, c: Container, input: Assign): SeatRecord {
  if (c.kind === 'order' && c.row.status === 'pending') throw seatNotAvailable(c, 'Order must be paid before assigning seats')
  // the member model is off: a member id names a member of the billing customer, and there are none
  if (input.member_id) throw domainError(404, 'MemberNotFound', `Member not found: ${input.member_id}`)
  if (input.external_member_id && !input.email) throw domainError(404, 'MemberNotFound', `Member not found: ${input.external_member_id}`)
  const {seat, grants} = ctx.store.write(() => {
    if (availableSeats(ctx, c) <= 0) throw seatNotAvailable(c)
    const customer = seatCustomer(ctx, input)
    const held = seatsOf(ctx, c).find((s) => s.customer_id === customer.id && isAssigned(s))
    if (held)
      throw domainError(400, 'SeatAlreadyAssigned', `Seat already assigned to customer ${input.email ?? input.external_customer_id ?? input.customer_id}`)
    const now = new Date(ctx.now).toISOString()
    const fields = {
      status: input.immediate_claim ? ('claimed' as const) : ('pending' as const),
      customer_id: customer.id,
      email: customer.email,
      invitation_token: input.immediate_claim ? null : randomBytes(32).toString('base64url'),
      invitation_token_expires_at: input.immediate_claim ? null : new Date(ctx.now + DAY).toISOString(),
      claimed_at: input.immediate_claim ? now : null,
      revoked_at: null,
      seat_metadata: (input.metadata ?? {}) as SeatRecord['seat_metadata'],
    }
    // a revoked seat of the container is given out again before a new one is made
    const revoked = seatsOf(ctx, c).find((s) => s.status === 'revoked')
    const seat = revoked
      ? Object.assign(revoked, fields, {modified_at: now})
      : ctx.store.insert('customer_seats', {
          id: uuid(),
          created_at: now,
          modified_at: null,
          subscription_id: c.kind === 'subscription' ? c.row.id : null,
          order_id: c.kind === 'order' ? c.row.id : null,
          ...fields,
        })
    return {seat, grants: input.immediate_claim ? grantSeat(ctx, seat, c) : []}
  })
  emit(ctx.env, input.immediate_claim ? 'customer_seat.claimed' : 'customer_seat.assigned', customerSeat(ctx.view, seat))
  for (const g of grants) emit(ctx.env, 'benefit_grant.created', benefitViews.benefitGrant(ctx.view, g))
  return seat
}

/** The container a seat belongs to. */
export function containerOf(ctx: Ctx, seat: SeatRecord): Container | undefined {
  const s = seat.subscription_id ? ctx.store.get('subscriptions', seat.subscription_id) : undefined
  if (s) return {kind: 'subscription', row: s}
  const o = seat.order_id ? ctx.store.get('orders', seat.order_id) : undefined
  return o ? {kind: 'order', row: o} : undefined
}

/** A seat of the organization (of a container of `customerId` when given), or the service's 404. */
export function findSeat(ctx: Ctx, id: string, customerId?: string): SeatRecord {
  const seat = ctx.store.get('customer_seats', id)
  const c = seat ? containerOf(ctx, seat) : undefined
  if (!seat || !c || (customerId && c.row.customer_id !== customerId)) throw notFound('Seat not found')
  return seat
}

/** Revokes a seat: its customer loses the product's benefits, and the seat is free again; emits customer_seat.revoked. */
export function revokeSeat(ctx: Ctx, id: string, customerId?: string): SeatRecord {
  findSeat(ctx, id, customerId)
  const result = ctx.store.write(() => {
    const seat = findSeat(ctx, id, customerId)
    if (seat.status === 'revoked') return {seat, grants: [], changed: false}
    const holder = seat.customer_id
    const grants = holder
      ? revokeGrants(ctx, (g) => g.customer_id === holder && (seat.subscription_id ? g.subscription_id === seat.subscription_id : g.order_id === seat.order_id))
      : []
    const now = new Date(ctx.now).toISOString()
    Object.assign(seat, {status: 'revoked', revoked_at: now, modified_at: now, invitation_token: null, customer_id: null, email: null})
    return {seat, grants, changed: true}
  })
  if (result.changed) {
    emit(ctx.env, 'customer_seat.revoked', customerSeat(ctx.view, result.seat))
    emitGrantsRevoked(ctx, result.grants)
  }
  return result.seat
}

/** Sends the invitation of a pending seat again (the e-mail is not emulated): the seat as it is. */
export function resendInvitation(ctx: Ctx, id: string, customerId?: string): SeatRecord {
  const seat = findSeat(ctx, id, customerId)
  if (seat.status !== 'pending') throw domainError(400, 'SeatNotPending', 'Seat is not in pending status')
  if (!seat.invitation_token || !seat.email) throw domainError(400, 'InvalidInvitationToken', 'Invalid or expired invitation token')
  return seat
}

/** The pending seat a live invitation token names. */
function seatByToken(ctx: Ctx, invitation: string): SeatRecord | undefined {
  const seat = ctx.store.all('customer_seats').find((s) => s.invitation_token !== null && s.invitation_token === invitation)
  if (seat?.status !== 'pending') return undefined
  if (seat.invitation_token_expires_at && Date.parse(seat.invitation_token_expires_at) < ctx.now) return undefined
  return seat
}

/** SeatClaimInfo of an invitation: what it is for, and whether it can be claimed (no side effects). */
export function claimInfo(ctx: Ctx, invitation: string) {
  const seat = seatByToken(ctx, invitation)
  const c = seat ? containerOf(ctx, seat) : undefined
  const product = c?.row.product_id ? ctx.store.get('products', c.row.product_id) : undefined
  if (!seat || !product) throw notFound('Invalid or expired invitation token')
  const customer = seat.customer_id ? ctx.store.get('customers', seat.customer_id) : undefined
  const org = ctx.store.data.organization
  return {
    product_name: product.name,
    product_id: product.id,
    organization_name: org.name,
    organization_slug: org.slug,
    customer_email: seat.email ?? customer?.email ?? '',
    can_claim: seat.status === 'pending',
  }
}

/** Claims a seat with its invitation token (single use): benefits granted, a customer session opened; emits customer_seat.claimed. */
export function claimSeat(ctx: Ctx, invitation: string) {
  const invalid = () => domainError(400, 'InvalidInvitationToken', 'Invalid or expired invitation token')
  const result = ctx.store.write(() => {
    const seat = seatByToken(ctx, invitation)
    const c = seat ? containerOf(ctx, seat) : undefined
    if (!seat || !c || !seat.customer_id) throw invalid()
    const now = new Date(ctx.now).toISOString()
    Object.assign(seat, {status: 'claimed', claimed_at: now, modified_at: now, invitation_token: null})
    const grants = grantSeat(ctx, seat, c)
    const session = ctx.store.insert('customer_sessions', {
      id: uuid(),
      created_at: now,
      modified_at: null,
      token: token(TOKEN_PREFIXES.customer),
      expires_at: new Date(ctx.now + ctx.env.options.sessionTtlMs).toISOString(),
      return_url: null,
      customer_id: seat.customer_id,
    })
    return {seat, grants, sessionToken: session.token}
  })
  const body = customerSeat(ctx.view, result.seat)
  emit(ctx.env, 'customer_seat.claimed', body)
  for (const g of result.grants) emit(ctx.env, 'benefit_grant.created', benefitViews.benefitGrant(ctx.view, g))
  return {seat: body, customer_session_token: result.sessionToken}
}
