// The PATCH of a subscription (`subscriptions:update`): its body shapes and what each one does.
import {z} from '../../core/zod.js'

import {domainError, type HttpError, requestValidation, ruleValidation} from '../../core/errors.js'
import type {Ctx} from '../../core/http.js'
import {applicableDiscount, renewalDiscount} from '../discounts/apply.js'
import type {DiscountRecord} from '../discounts/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from './model.js'
import {startPeriod, subscriptionOrder} from './bill.js'
import {priceAmount} from '../orders/build.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {
  CANCELLATION_REASONS,
  type Outcome,
  alreadyCanceled,
  cancelAtPeriodEnd,
  change,
  findSubscription,
  isActive,
  isRevoked,
  iso,
  revokeSubscription,
  uncancel,
} from './lifecycle.js'
import {recordSubscriptionCycle} from '../customer-meters/reset.js'
import {applySeats, checkSeats, checkSeatsProration} from './seats.js'
import {unitsSchema, updateUnits} from './units.js'

const datetime = () => z.iso.datetime({offset: true, local: true})
const proration = z.enum(['invoice', 'prorate', 'next_period', 'reset'])
const cancelFields = {
  customer_cancellation_reason: z.enum(CANCELLATION_REASONS).nullish(),
  customer_cancellation_comment: z.string().nullish(),
}

// The PATCH body is one of these shapes, told apart by their required key; a body
// with none of those keys is the general update, strict so a misspelt action is reported, not ignored.
const revokeSchema = z.object({revoke: z.literal(true), ...cancelFields})
const cancelSchema = z.object({cancel_at_period_end: z.boolean(), ...cancelFields})
const seatsSchema = z.object({seats: z.int().min(-2147483648).max(2147483647), proration_behavior: proration.nullish()}).strict()
const periodSchema = z.object({current_billing_period_end: datetime()})
const pauseSchema = z.object({pause_at_period_end: z.boolean(), resumes_at: datetime().nullish()})
const resumeSchema = z.object({resume: z.literal(true)})
const pendingSchema = z.object({pending_update: z.null()})
export const createSchema = z.object({
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
  ['revoke', revokeSchema],
  ['cancel_at_period_end', cancelSchema],
  ['seats', seatsSchema],
  ['units', unitsSchema],
  ['current_billing_period_end', periodSchema],
  ['pause_at_period_end', pauseSchema],
  ['resume', resumeSchema],
  ['pending_update', pendingSchema],
] as const
type GeneralUpdate = z.output<typeof generalSchema>
type Update = z.output<(typeof SHAPES)[number][1]> | GeneralUpdate

/** Parses with the shape whose key the body has, so errors point at that shape's fields. */
export function parseUpdate(body: unknown): Update {
  const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
  const shape = SHAPES.find(([key]) => keys.includes(key))
  return shape ? parse(shape[1] as z.ZodType<Update>, body) : parse(generalSchema, body)
}

export function productError(productId: string, msg: string): HttpError {
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
  if (input.discount_id && !applicableDiscount(ctx, {id: input.discount_id}, s.product_id, s.currency)) {
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
    targetProduct(ctx, s, input.product_id)
  }
}

/** An order of the subscription's customer, billed now and stored (prorations, period resets, trial end). */
function billNow(
  ctx: Ctx,
  s: SubscriptionRecord,
  product: ProductRecord,
  price: PriceRecord,
  amount: number,
  reason: OrderRecord['billing_reason'],
  discount: DiscountRecord | null = null,
): OrderRecord {
  return ctx.store.insert('orders', subscriptionOrder(ctx, s, product, price, amount, reason, discount))
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
  // A trial goes on under the new product only as long as that product's own trial; the emulator's products
  // have none, so the trial ends now and the new product's first period is billed (update_product).
  if (s.status === 'trialing') {
    endTrialNow(ctx, s, out)
    return
  }
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
  if (product && price) out.orders.push(billNow(ctx, s, product, price, s.amount, 'subscription_cycle', renewalDiscount(ctx, s, ctx.now)))
  // the trial's end is a cycle: the subscription's meters start afresh
  recordSubscriptionCycle(ctx.store, s, iso(ctx.now))
}

function applyGeneral(ctx: Ctx, s: SubscriptionRecord, input: GeneralUpdate, out: Outcome): void {
  if (input.metadata) s.metadata = input.metadata
  if (input.discount_id === null) {
    s.discount_id = null
    s.discount_applied_at = null
  } else if (input.discount_id && input.discount_id !== s.discount_id) {
    // the discount applies from the next renewal on (its repetitions count from there), and counts as a redemption
    s.discount_id = input.discount_id
    s.discount_applied_at = null
    const d = ctx.store.get('discounts', input.discount_id)
    if (d) d.redemptions_count++
  }
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

/**
 * A seats change (./seats.ts): `subscription.updated` unless the count asked for is the count it has. The
 * portal's (CustomerSubscriptionUpdateSeats) is the same change, with the organization's proration.
 */
export function updateSeats(ctx: Ctx, id: string, seats: number, proration: string | null | undefined): SubscriptionRecord {
  const check = (s: SubscriptionRecord) => {
    if (isRevoked(s) || s.cancel_at_period_end) throw alreadyCanceled()
    return checkSeats(ctx, s, seats)
  }
  const current = findSubscription(ctx, id)
  checkSeatsProration(proration)
  check(current)
  if ((current.seats ?? 1) === seats && !current.pending_update) return current
  // The organization's default is `prorate` (present.organization).
  const behavior = proration ?? 'prorate'
  return change(
    ctx,
    id,
    undefined,
    (s) => void check(s),
    (s, out) => {
      const price = check(s)
      const {due} = applySeats(ctx, s, seats, behavior, price)
      const product = ctx.store.get('products', s.product_id)
      if (due > 0 && product) out.orders.push(billNow(ctx, s, product, price, due, 'subscription_update'))
    },
  ).subscription
}

/** One PATCH: dispatches on the shape that matched (zod keeps only that shape's keys). */
export function update(ctx: Ctx, id: string, input: Update): SubscriptionRecord {
  if ('revoke' in input) return revokeSubscription(ctx, id, {reason: input.customer_cancellation_reason, comment: input.customer_cancellation_comment})
  if ('cancel_at_period_end' in input) {
    if (!input.cancel_at_period_end) return uncancel(ctx, id).subscription
    return cancelAtPeriodEnd(ctx, id, {reason: input.customer_cancellation_reason, comment: input.customer_cancellation_comment})
  }
  if ('seats' in input) return updateSeats(ctx, id, input.seats, input.proration_behavior)
  if ('units' in input) return updateUnits(ctx, id, input.units, input.proration_behavior)
  if ('current_billing_period_end' in input) {
    const value = input.current_billing_period_end
    return change(
      ctx,
      id,
      undefined,
      (s) => void checkPeriodEnd(ctx, s, value),
      (s) => {
        s.current_period_end = iso(checkPeriodEnd(ctx, s, value))
      },
    ).subscription
  }
  if ('pause_at_period_end' in input) {
    findSubscription(ctx, id)
    throw domainError(400, 'BadRequest', 'Pausing subscriptions is not supported by the emulator.')
  }
  if ('resume' in input) {
    findSubscription(ctx, id)
    // nothing is ever paused here; the service's answer for a subscription that is not (its document names
    // only SubscriptionLocked for a 409: a departure listed in core/contract-known.ts)
    throw domainError(409, 'NotPausedSubscription', 'This subscription is not paused.')
  }
  if ('pending_update' in input) return findSubscription(ctx, id)
  const general = input as GeneralUpdate
  if (Object.values(general).every((v) => v === undefined)) return findSubscription(ctx, id)
  return change(
    ctx,
    id,
    undefined,
    (s) => checkGeneral(ctx, s, general),
    (s, out) => applyGeneral(ctx, s, general, out),
  ).subscription
}
