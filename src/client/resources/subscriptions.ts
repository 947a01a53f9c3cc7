// Subscriptions (server/polar/subscription/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Schema, Subscription, SubscriptionCreate, SubscriptionUpdate} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

export const SUBSCRIPTION_STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'] as const
export const CANCELLATION_REASONS = [
  'customer_service',
  'low_quality',
  'missing_features',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
  'other',
] as const
export const PRORATIONS = ['invoice', 'prorate', 'next_period', 'reset'] as const

export interface SubscriptionFilters {
  status?: string[]
  active?: boolean
  customerId?: string[]
  externalCustomerId?: string[]
  productId?: string[]
  cancelAtPeriodEnd?: boolean
  sorting?: string[]
  metadata?: string[]
}

export function listSubscriptions(client: ApiClient, f: SubscriptionFilters, page: PaginateOptions): AsyncGenerator<Subscription> {
  return listItems<Subscription>(
    client,
    '/subscriptions/',
    {
      status: f.status,
      active: f.active,
      customer_id: f.customerId,
      external_customer_id: f.externalCustomerId,
      product_id: f.productId,
      cancel_at_period_end: f.cancelAtPeriodEnd,
      sorting: f.sorting,
      ...metadataQuery(f.metadata),
    },
    page,
  )
}

export const getSubscription = (client: ApiClient, id: string) => client.get<Subscription>(`/subscriptions/${seg(id)}`)

export interface Cancellation {
  reason?: Schema<'CustomerCancellationReason'>
  comment?: string
}

const update = (client: ApiClient, id: string, body: SubscriptionUpdate | UnitsChange) => client.patch<Subscription>(`/subscriptions/${seg(id)}`, body)

const cancellationFields = (c: Cancellation) => ({
  ...(c.reason ? {customer_cancellation_reason: c.reason} : {}),
  ...(c.comment ? {customer_cancellation_comment: c.comment} : {}),
})

/** Ends the subscription at the end of its current period (it stays active until then). */
export const cancelSubscription = (client: ApiClient, id: string, c: Cancellation = {}) =>
  update(client, id, {cancel_at_period_end: true, ...cancellationFields(c)})

/** Undoes a cancellation at period end. */
export const uncancelSubscription = (client: ApiClient, id: string) => update(client, id, {cancel_at_period_end: false})

/** Ends the subscription now and revokes its benefits. */
export const revokeSubscription = (client: ApiClient, id: string, c: Cancellation = {}) => update(client, id, {revoke: true, ...cancellationFields(c)})

/** A change of product, and how the difference is billed. */
export type PlanChange = Schema<'SubscriptionUpdateBase'> & {product_id: string}

/** Moves the subscription to another product; `proration_behavior` says how the difference is billed. */
export const changeSubscriptionProduct = (client: ApiClient, id: string, body: PlanChange) => update(client, id, body)

/**
 * Applies a discount to the subscription (from its next renewal on), or with `null` removes it. The
 * service takes a discount change alone, not with a product change.
 */
export const setSubscriptionDiscount = (client: ApiClient, id: string, discountId: string | null) => update(client, id, {discount_id: discountId})

/** Changes a seat-based subscription's number of seats; `proration_behavior` says how the difference is billed. */
export const updateSubscriptionSeats = (client: ApiClient, id: string, body: Schema<'SubscriptionUpdateSeats'>) => update(client, id, body)

/**
 * A unit-based subscription's new number of units (SubscriptionUpdateUnits, newer than the document:
 * contract/changes/14059-subscription-units.json), billed as `proration_behavior` says.
 */
export interface UnitsChange {
  units: number
  proration_behavior?: Schema<'SubscriptionProrationBehavior'>
}

/** Changes a unit-based subscription's number of units. */
export const updateSubscriptionUnits = (client: ApiClient, id: string, body: UnitsChange) => update(client, id, body)

/** The product and the customer, by id or by external id. */
export type {SubscriptionCreate}

/** Subscribes a customer to a free recurring product (a paid one takes a checkout); 201 with the subscription. */
export const createSubscription = (client: ApiClient, body: SubscriptionCreate) => client.post<Subscription>('/subscriptions/', body)
