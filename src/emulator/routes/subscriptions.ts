// Subscriptions: list, read, the PATCH actions of api-facts §4.6, and DELETE (= revoke now).
// `findSubscription`, `cancelAtPeriodEnd`, `revokeSubscription` and `revokeGrants` are shared
// with the portal, customers and refunds routes.
import {z} from 'zod'

import {domainError, HttpError, notFound, requestValidation, ruleValidation} from '../errors.js'
import {emit, ok, type Ctx, type Router} from '../http.js'
import {after, before, byField, listRows} from '../list.js'
import type {BenefitGrantRecord, OrderRecord, PriceRecord, ProductRecord, SubscriptionRecord, SubscriptionStatus} from '../model.js'
import {grantProductBenefits} from '../domain/grants.js'
import {recordSystemEvent} from '../domain/usage.js'
import {addInterval} from '../domain/periods.js'
import {buildOrder, priceAmount} from '../domain/orders.js'
import {uuid} from '../ids.js'
import * as present from '../present.js'
import {metadataSchema, parse, pathUuid} from '../validate.js'

export const CANCELLATION_REASONS = [
  'customer_service', 'low_quality', 'missing_features', 'switched_service', 'too_complex', 'too_expensive', 'unused', 'other',
] as const
const STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'] as const

const datetime = () => z.iso.datetime({offset: true, local: true})
const proration = z.enum(['invoice', 'prorate', 'next_period', 'reset'])
const cancelFields = {
  customer_cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  customer_cancellation_comment: z.string().nullish(),
}

// The PATCH body is one of these shapes (api-facts §4.6), told apart by their required key; a body
// with none of those keys is the general update, strict so a misspelt action is reported, not ignored.
const revokeSchema = z.object({revoke: z.literal(true), ...cancelFields})
const cancelSchema = z.object({cancel_at_period_end: z.boolean(), ...cancelFields})
const seatsSchema = z.object({seats: z.int().min(1), proration_behavior: proration.nullish()})
const periodSchema = z.object({current_billing_period_end: datetime()})
const pauseSchema = z.object({pause_at_period_end: z.boolean(), resumes_at: datetime().nullish()})
const resumeSchema = z.object({resume: z.literal(true)})
const pendingSchema = z.object({pending_update: z.null()})
const createSchema = z.object({
  product_id: z.uuid(),
  customer_id: z.uuid().nullish(),
  external_customer_id: z.string().min(1).nullish(),
  metadata: metadataSchema.default({}),
})
const generalSchema = z
  .object({
    product_id: z.uuid().nullish(),
    proration_behavior: proration.nullish(),
    discount_id: z.uuid().nullish(),
    trial_end: z.union([z.literal('now'), datetime()]).nullish(),
    metadata: metadataSchema.nullish(),
  })
  .strict()
const SHAPES = [
  ['revoke', revokeSchema], ['cancel_at_period_end', cancelSchema], ['seats', seatsSchema],
  ['current_billing_period_end', periodSchema], ['pause_at_period_end', pauseSchema], ['resume', resumeSchema],
  ['pending_update', pendingSchema],
] as const
type GeneralUpdate = z.output<typeof generalSchema>
type Update = z.output<(typeof SHAPES)[number][1]> | GeneralUpdate

/** Parses with the shape whose key the body has, so errors point at that shape's fields. */
function parseUpdate(body: unknown): Update {
  const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
  const shape = SHAPES.find(([key]) => keys.includes(key))
  return shape ? parse(shape[1] as z.ZodType<Update>, body) : parse(generalSchema, body)
}

const BILLABLE: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due']
const ACTIVE: readonly SubscriptionStatus[] = ['active', 'trialing']
const REVOKED: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired', 'unpaid']
const isActive = (s: SubscriptionRecord) => ACTIVE.includes(s.status)
const isRevoked = (s: SubscriptionRecord) => REVOKED.includes(s.status)
/** "Canceled" in the service's sense: revoked, or set to end at the period end. */
const isCanceled = (s: SubscriptionRecord) => isRevoked(s) || s.cancel_at_period_end

const iso = (ms: number) => new Date(ms).toISOString()

const alreadyCanceled = () =>
  domainError(403, 'AlreadyCanceledSubscription', 'This subscription is already canceled or will be at the end of the period.')


/** The subscription `id` (of `customerId` when given); subscriptions that never started are invisible. */
export function findSubscription(ctx: Ctx, id: string, customerId?: string): SubscriptionRecord {
  const s = ctx.store.get('subscriptions', id)
  if (!s || s.started_at === null || (customerId !== undefined && s.customer_id !== customerId)) throw notFound()
  return s
}

/**
 * Sets `revoked_at` on the live grants that `match` selects and revokes their license keys; returns
 * the grants (for `emitGrantsRevoked`). Call inside `store.write`.
 */
export function revokeGrants(ctx: Ctx, match: (g: BenefitGrantRecord) => boolean): BenefitGrantRecord[] {
  const now = iso(ctx.now)
  const revoked = ctx.store.all('benefit_grants').filter((g) => g.revoked_at === null && match(g))
  for (const g of revoked) {
    g.revoked_at = now
    g.modified_at = now
    const benefit = ctx.store.get('benefits', g.benefit_id)
    recordSystemEvent(ctx.store, 'benefit.revoked', g.customer_id, now, {benefit_id: g.benefit_id, benefit_grant_id: g.id, benefit_type: benefit?.type ?? 'custom'})
    const keyId = g.properties.license_key_id
    const key = typeof keyId === 'string' ? ctx.store.get('license_keys', keyId) : undefined
    if (key && key.status === 'granted') {
      key.status = 'revoked'
      key.modified_at = now
    }
  }
  return revoked
}

export function emitGrantsRevoked(ctx: Ctx, grants: BenefitGrantRecord[]): void {
  for (const g of grants) emit(ctx.env, 'benefit_grant.revoked', present.benefitGrant(ctx.view, g))
}

/** `customer.state_changed` carries the CustomerState (api-facts §8.1). */
export function emitCustomerStateChanged(ctx: Ctx, customerId: string): void {
  const customer = ctx.store.get('customers', customerId)
  if (customer) emit(ctx.env, 'customer.state_changed', present.customerState(ctx.view, customer))
}

interface Outcome {
  subscription: SubscriptionRecord
  /** Status and cancellation before the change, to derive the webhooks. */
  before: {status: SubscriptionStatus; canceled: boolean}
  orders: OrderRecord[]
  grants: BenefitGrantRecord[]
}

/** Webhooks after a change, following the service: updated, then uncanceled/canceled/revoked, then state. */
function emitOutcome(ctx: Ctx, {subscription: s, before, orders, grants}: Outcome): void {
  const body = present.subscription(ctx.view, s)
  emit(ctx.env, 'subscription.updated', body)
  const becameRevoked = isRevoked(s) && !REVOKED.includes(before.status)
  if (!isCanceled(s) && before.canceled) emit(ctx.env, 'subscription.uncanceled', body)
  if ((isCanceled(s) && !before.canceled) || (becameRevoked && before.canceled)) emit(ctx.env, 'subscription.canceled', body)
  if (becameRevoked) emit(ctx.env, 'subscription.revoked', body)
  for (const o of orders) emit(ctx.env, 'order.created', present.order(ctx.view, o))
  emitGrantsRevoked(ctx, grants)
  emitCustomerStateChanged(ctx, s.customer_id)
}

/**
 * Runs `change` on the subscription inside a store write. `check` runs first, also inside the write
 * (the store may have reloaded), and must throw before anything is mutated.
 */
function change(
  ctx: Ctx,
  id: string,
  customerId: string | undefined,
  check: (s: SubscriptionRecord) => void,
  apply: (s: SubscriptionRecord, out: Outcome) => void,
): Outcome {
  check(findSubscription(ctx, id, customerId))
  const outcome = ctx.store.write(() => {
    const s = findSubscription(ctx, id, customerId)
    check(s)
    const out: Outcome = {subscription: s, before: {status: s.status, canceled: isCanceled(s)}, orders: [], grants: []}
    apply(s, out)
    s.modified_at = iso(ctx.now)
    return out
  })
  emitOutcome(ctx, outcome)
  return outcome
}

function canCancel(s: SubscriptionRecord, immediately: boolean): boolean {
  if (!BILLABLE.includes(s.status) || s.ended_at !== null) return false
  return immediately || (!s.cancel_at_period_end && s.ends_at === null)
}

function setReason(s: SubscriptionRecord, reason?: string | null, comment?: string | null): void {
  if (reason) s.customer_cancellation_reason = reason
  if (comment) s.customer_cancellation_comment = comment
}

/** Cancels at the end of the current period (status unchanged). Emits the webhooks. */
export function cancelAtPeriodEnd(
  ctx: Ctx,
  subscriptionId: string,
  {reason, comment, customerId}: {reason?: string | null; comment?: string | null; customerId?: string},
): SubscriptionRecord {
  return change(
    ctx,
    subscriptionId,
    customerId,
    (s) => {
      if (!canCancel(s, false)) throw alreadyCanceled()
    },
    (s) => {
      s.canceled_at = iso(ctx.now)
      s.cancel_at_period_end = true
      s.ends_at = s.current_period_end
      setReason(s, reason, comment)
    },
  ).subscription
}

/** Cancels now: status `canceled`, benefits revoked. Emits the webhooks. */
export function revokeSubscription(
  ctx: Ctx,
  subscriptionId: string,
  {reason, comment, customerId}: {reason?: string | null; comment?: string | null; customerId?: string} = {},
): SubscriptionRecord {
  return change(
    ctx,
    subscriptionId,
    customerId,
    (s) => {
      if (!canCancel(s, true)) throw alreadyCanceled()
    },
    (s, out) => {
      const now = iso(ctx.now)
      s.status = 'canceled'
      s.canceled_at = now
      s.ends_at = now
      s.ended_at = now
      setReason(s, reason, comment)
      out.grants = revokeGrants(ctx, (g) => g.subscription_id === s.id)
    },
  ).subscription
}

/** Takes back a cancellation at period end. Emits the webhooks. */
export function uncancel(ctx: Ctx, id: string, customerId?: string): Outcome {
  return change(
    ctx,
    id,
    customerId,
    (s) => {
      if (s.ended_at !== null) throw domainError(410, 'ResourceUnavailable', 'Unavailable')
      if (!(BILLABLE.includes(s.status) && s.cancel_at_period_end)) throw domainError(400, 'BadRequest', 'Bad request')
    },
    (s) => {
      s.cancel_at_period_end = false
      s.ends_at = null
      s.canceled_at = null
      s.customer_cancellation_reason = null
      s.customer_cancellation_comment = null
    },
  )
}

function productError(productId: string, msg: string): HttpError {
  return ruleValidation(['body', 'product_id'], msg, productId)
}

/** The product to switch to and its active price, or the service's 422. */
function targetProduct(ctx: Ctx, s: SubscriptionRecord, productId: string): {product: ProductRecord; price: PriceRecord} {
  const product = ctx.store.get('products', productId)
  if (!product) throw productError(productId, 'Product does not exist.')
  if (product.is_archived) throw productError(productId, 'Product is archived.')
  if (!product.recurring_interval) throw productError(productId, 'Product is not recurring.')
  const price = product.prices.find((p) => !p.is_archived && p.price_currency === s.currency)
  if (!price) throw productError(productId, "This product doesn't have a price for the subscription currency.")
  if (price.amount_type === 'custom') throw productError(productId, "Can't update to a product with custom prices.")
  return {product, price}
}

function futureDate(ctx: Ctx, field: string, value: string): number {
  const t = Date.parse(value)
  if (t <= ctx.now) throw requestValidation([{type: 'datetime_future', loc: ['body', field], msg: 'Input should be in the future', input: value}])
  return t
}

function checkGeneral(ctx: Ctx, s: SubscriptionRecord, input: GeneralUpdate): void {
  if (input.discount_id) {
    throw ruleValidation(['body', 'discount_id'], 'Discount does not exist, is not applicable to this product or is not redeemable.', input.discount_id)
  }
  if (input.trial_end) {
    if (!isActive(s)) throw domainError(403, 'InactiveSubscription', `Subscription ${s.id} is not active.`)
    if (input.trial_end === 'now') {
      if (s.status !== 'trialing') throw ruleValidation(['body', 'trial_end'], 'The subscription is not currently trialing.', input.trial_end)
    } else if (futureDate(ctx, 'trial_end', input.trial_end) <= Date.parse(s.current_period_end) && s.status !== 'trialing') {
      throw ruleValidation(['body', 'trial_end'], 'Trial end must be after the current period end.', input.trial_end)
    }
  }
  if (input.product_id) {
    if (isRevoked(s) || s.cancel_at_period_end) throw alreadyCanceled()
    if (s.status === 'trialing') throw domainError(403, 'TrialingSubscription', 'This subscription is currently in a trial period and cannot be updated.')
    targetProduct(ctx, s, input.product_id)
  }
}

/** An order of the subscription's customer, billed now (prorations, period resets, trial end). */
function billNow(ctx: Ctx, s: SubscriptionRecord, product: ProductRecord, price: PriceRecord, amount: number, reason: OrderRecord['billing_reason']): OrderRecord {
  const customer = ctx.store.get('customers', s.customer_id)
  const order = buildOrder(ctx.store.data, {
    now: ctx.now,
    customerId: s.customer_id,
    product,
    price,
    amount,
    billingReason: reason,
    subscriptionId: s.id,
    billingName: customer?.billing_name ?? customer?.name ?? null,
    billingAddress: customer?.billing_address ?? null,
    paymentDelayMs: ctx.env.options.paymentDelayMs,
  })
  return ctx.store.insert('orders', order)
}

function startPeriod(s: SubscriptionRecord, now: number): void {
  s.current_period_start = iso(now)
  s.current_period_end = iso(addInterval(now, s.recurring_interval, s.recurring_interval_count))
}

function changeProduct(ctx: Ctx, s: SubscriptionRecord, productId: string, behavior: string | null | undefined, out: Outcome): void {
  const {product, price} = targetProduct(ctx, s, productId)
  const oldAmount = s.amount
  const intervalChanged = product.recurring_interval !== s.recurring_interval || (product.recurring_interval_count ?? 1) !== s.recurring_interval_count
  s.product_id = product.id
  s.price_ids = [price.id]
  s.amount = priceAmount(price)
  s.recurring_interval = product.recurring_interval!
  s.recurring_interval_count = product.recurring_interval_count ?? 1
  // The organization's default is `prorate` (present.organization).
  const behaviour = behavior ?? 'prorate'
  if (intervalChanged || behaviour === 'reset') {
    startPeriod(s, ctx.now)
    out.orders.push(billNow(ctx, s, product, price, s.amount, 'subscription_update'))
  } else if (behaviour === 'invoice') {
    const start = Date.parse(s.current_period_start)
    const end = Date.parse(s.current_period_end)
    const remaining = end > start ? Math.max(0, Math.min(1, (end - ctx.now) / (end - start))) : 0
    const due = Math.round((s.amount - oldAmount) * remaining)
    if (due > 0) out.orders.push(billNow(ctx, s, product, price, due, 'subscription_update'))
  }
}

function endTrialNow(ctx: Ctx, s: SubscriptionRecord, out: Outcome): void {
  s.trial_end = iso(ctx.now)
  s.status = 'active'
  startPeriod(s, ctx.now)
  const product = ctx.store.get('products', s.product_id)
  const price = product?.prices.find((p) => s.price_ids.includes(p.id))
  if (product && price) out.orders.push(billNow(ctx, s, product, price, s.amount, 'subscription_cycle'))
}

function applyGeneral(ctx: Ctx, s: SubscriptionRecord, input: GeneralUpdate, out: Outcome): void {
  if (input.metadata) s.metadata = input.metadata
  if (input.discount_id === null) s.discount_id = null
  if (input.trial_end === 'now') endTrialNow(ctx, s, out)
  else if (input.trial_end) {
    s.status = 'trialing'
    s.trial_start ??= iso(ctx.now)
    s.trial_end = s.current_period_end = new Date(input.trial_end).toISOString()
  }
  if (input.product_id) changeProduct(ctx, s, input.product_id, input.proration_behavior, out)
}

function checkPeriodEnd(ctx: Ctx, s: SubscriptionRecord, value: string): number {
  if (isRevoked(s)) throw alreadyCanceled()
  if (!isActive(s)) throw domainError(403, 'InactiveSubscription', `Subscription ${s.id} is not active.`)
  if (s.cancel_at_period_end) throw alreadyCanceled()
  const t = futureDate(ctx, 'current_billing_period_end', value)
  if (t < Date.parse(s.current_period_end)) {
    throw ruleValidation(['body', 'current_billing_period_end'], 'New period end is earlier than the current period end', value)
  }
  return t
}

/** One PATCH: dispatches on the shape that matched (zod keeps only that shape's keys). */
function update(ctx: Ctx, id: string, input: Update): SubscriptionRecord {
  if ('revoke' in input) return revokeSubscription(ctx, id, {reason: input.customer_cancellation_reason, comment: input.customer_cancellation_comment})
  if ('cancel_at_period_end' in input) {
    if (!input.cancel_at_period_end) return uncancel(ctx, id).subscription
    return cancelAtPeriodEnd(ctx, id, {reason: input.customer_cancellation_reason, comment: input.customer_cancellation_comment})
  }
  if ('seats' in input) {
    const s = findSubscription(ctx, id)
    if (isRevoked(s) || s.cancel_at_period_end) throw alreadyCanceled()
    throw domainError(400, 'NotASeatBasedSubscription', 'This subscription does not support seat-based pricing.')
  }
  if ('current_billing_period_end' in input) {
    const value = input.current_billing_period_end
    return change(ctx, id, undefined, (s) => void checkPeriodEnd(ctx, s, value), (s) => {
      s.current_period_end = iso(checkPeriodEnd(ctx, s, value))
    }).subscription
  }
  if ('pause_at_period_end' in input) {
    findSubscription(ctx, id)
    throw domainError(400, 'BadRequest', 'Pausing subscriptions is not supported by the emulator.')
  }
  if ('resume' in input) {
    findSubscription(ctx, id)
    throw domainError(400, 'BadRequest', 'This subscription is not paused.')
  }
  if ('pending_update' in input) return findSubscription(ctx, id)
  const general = input as GeneralUpdate
  if (Object.values(general).every((v) => v === undefined)) return findSubscription(ctx, id)
  return change(ctx, id, undefined, (s) => checkGeneral(ctx, s, general), (s, out) => applyGeneral(ctx, s, general, out)).subscription
}

function externalId(ctx: Ctx, s: SubscriptionRecord): string | null {
  return ctx.store.get('customers', s.customer_id)?.external_id ?? null
}

export function register(r: Router): void {
  r.get('/subscriptions/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.all('subscriptions').filter((s) => s.started_at !== null),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            product_id: byField('uuid', (s: SubscriptionRecord) => s.product_id),
            customer_id: byField('uuid', (s: SubscriptionRecord) => s.customer_id),
            external_customer_id: byField('string', (s: SubscriptionRecord) => externalId(ctx, s)),
            discount_id: byField('uuid', (s: SubscriptionRecord) => s.discount_id),
            active: {type: 'bool', match: (s: SubscriptionRecord, [v]) => (v ? isActive(s) : isRevoked(s))},
            status: byField(STATUSES, (s: SubscriptionRecord) => s.status),
            cancel_at_period_end: byField('bool', (s: SubscriptionRecord) => s.cancel_at_period_end),
            customer_cancellation_reason: byField(CANCELLATION_REASONS, (s: SubscriptionRecord) => s.customer_cancellation_reason),
            canceled_at_after: after((s: SubscriptionRecord) => s.canceled_at),
            canceled_at_before: before((s: SubscriptionRecord) => s.canceled_at),
            started_after: after((s: SubscriptionRecord) => s.started_at),
            started_before: before((s: SubscriptionRecord) => s.started_at),
          },
          sorts: {
            customer: (s) => ctx.store.get('customers', s.customer_id)?.email.toLowerCase(),
            status: (s) => s.status,
            started_at: (s) => s.started_at,
            current_period_end: (s) => s.current_period_end,
            ended_at: (s) => s.ended_at,
            ends_at: (s) => s.ends_at,
            amount: (s) => s.amount,
            product: (s) => ctx.store.get('products', s.product_id)?.name.toLowerCase(),
            discount: (s) => s.discount_id,
          },
          defaultSort: ['-started_at'],
          metadata: (s) => s.metadata,
        },
        (s) => present.subscription(ctx.view, s),
      ),
    ),
  )

  // Only free recurring products can be subscribed to directly (api-facts §3.1); paid ones go through checkouts.
  r.post('/subscriptions/', 'organization', (ctx) => {
    const input = parse(createSchema, ctx.body)
    if (!input.customer_id && !input.external_customer_id) {
      throw requestValidation([
        {type: 'missing', loc: ['body', 'customer_id'], msg: 'Field required', input: null},
        {type: 'missing', loc: ['body', 'external_customer_id'], msg: 'Field required', input: null},
      ])
    }
    const created = ctx.store.write(() => {
      const customer = input.customer_id
        ? ctx.store.get('customers', input.customer_id)
        : ctx.store.all('customers').find((c) => c.external_id === input.external_customer_id)
      if (!customer || customer.deleted_at !== null) {
        const field = input.customer_id ? 'customer_id' : 'external_customer_id'
        throw ruleValidation(['body', field], 'Customer does not exist.', input[field])
      }
      const product = ctx.store.get('products', input.product_id)
      if (!product || product.is_archived) throw productError(input.product_id, 'Product does not exist.')
      const price = product.prices.find((p) => !p.is_archived)
      if (!product.recurring_interval || !price || price.amount_type !== 'fixed' || price.price_amount !== 0) {
        throw productError(input.product_id, 'Only free recurring products can be subscribed to directly; use a checkout for paid ones.')
      }
      if (ctx.store.all('subscriptions').some((x) => x.customer_id === customer.id && BILLABLE.includes(x.status))) {
        throw domainError(403, 'AlreadyActiveSubscriptionError', 'The customer already has an active subscription.')
      }
      const now = ctx.now
      const row: SubscriptionRecord = {
        id: uuid(),
        created_at: iso(now),
        modified_at: null,
        amount: 0,
        currency: price.price_currency,
        recurring_interval: product.recurring_interval,
        recurring_interval_count: product.recurring_interval_count ?? 1,
        status: 'active',
        current_period_start: iso(now),
        current_period_end: iso(addInterval(now, product.recurring_interval, product.recurring_interval_count ?? 1)),
        trial_start: null,
        trial_end: null,
        cancel_at_period_end: false,
        canceled_at: null,
        started_at: iso(now),
        ends_at: null,
        ended_at: null,
        customer_id: customer.id,
        product_id: product.id,
        discount_id: null,
        checkout_id: null,
        customer_cancellation_reason: null,
        customer_cancellation_comment: null,
        metadata: input.metadata,
        price_ids: [price.id],
      }
      ctx.store.insert('subscriptions', row)
      const grants = grantProductBenefits(ctx.store, {customerId: customer.id, productId: product.id, subscriptionId: row.id}, row.created_at)
      return {subscription: row, grants}
    })
    const body = present.subscription(ctx.view, created.subscription)
    emit(ctx.env, 'subscription.created', body)
    emit(ctx.env, 'subscription.active', body)
    for (const g of created.grants) emit(ctx.env, 'benefit_grant.created', present.benefitGrant(ctx.view, g))
    emitCustomerStateChanged(ctx, created.subscription.customer_id)
    return ok(body, 201)
  })

  r.get('/subscriptions/:id', 'organization', (ctx) => ok(present.subscription(ctx.view, findSubscription(ctx, pathUuid(ctx.params)))))

  r.patch('/subscriptions/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    const input = parseUpdate(ctx.body)
    return ok(present.subscription(ctx.view, update(ctx, id, input)))
  })

  r.delete('/subscriptions/:id', 'organization', (ctx) => ok(present.subscription(ctx.view, revokeSubscription(ctx, pathUuid(ctx.params)))))
}
