// Subscriptions (api-facts §3.1, §4.6).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'

export const SUBSCRIPTION_STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'] as const
export const CANCELLATION_REASONS = [
  'customer_service', 'low_quality', 'missing_features', 'switched_service', 'too_complex', 'too_expensive', 'unused', 'other',
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

export function listSubscriptions(client: ApiClient, f: SubscriptionFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/subscriptions/', {
    status: f.status,
    active: f.active,
    customer_id: f.customerId,
    external_customer_id: f.externalCustomerId,
    product_id: f.productId,
    cancel_at_period_end: f.cancelAtPeriodEnd,
    sorting: f.sorting,
    ...metadataQuery(f.metadata),
  }, page)
}

export const getSubscription = (client: ApiClient, id: string) => client.get<Item>(`/subscriptions/${seg(id)}`)

export interface Cancellation {
  reason?: string
  comment?: string
}

const cancellationFields = (c: Cancellation) => ({
  ...(c.reason ? {customer_cancellation_reason: c.reason} : {}),
  ...(c.comment ? {customer_cancellation_comment: c.comment} : {}),
})

/** Ends the subscription at the end of its current period (it stays active until then). */
export const cancelSubscription = (client: ApiClient, id: string, c: Cancellation = {}) =>
  client.patch<Item>(`/subscriptions/${seg(id)}`, {cancel_at_period_end: true, ...cancellationFields(c)})

/** Undoes a cancellation at period end. */
export const uncancelSubscription = (client: ApiClient, id: string) => client.patch<Item>(`/subscriptions/${seg(id)}`, {cancel_at_period_end: false})

/** Ends the subscription now and revokes its benefits. */
export const revokeSubscription = (client: ApiClient, id: string, c: Cancellation = {}) =>
  client.patch<Item>(`/subscriptions/${seg(id)}`, {revoke: true, ...cancellationFields(c)})

export interface PlanChange {
  product_id: string
  proration_behavior?: string
}

/** Moves the subscription to another product; `proration_behavior` says how the difference is billed. */
export const changeSubscriptionProduct = (client: ApiClient, id: string, body: PlanChange) => client.patch<Item>(`/subscriptions/${seg(id)}`, body)

/**
 * Applies a discount to the subscription (from its next renewal on), or with `null` removes it. The
 * service takes a discount change alone, not with a product change.
 */
export const setSubscriptionDiscount = (client: ApiClient, id: string, discountId: string | null) =>
  client.patch<Item>(`/subscriptions/${seg(id)}`, {discount_id: discountId})

export interface SubscriptionCreate {
  product_id: string
  customer_id?: string
  external_customer_id?: string
  metadata?: Record<string, string>
}

/** Subscribes a customer to a free recurring product (a paid one takes a checkout); 201 with the subscription. */
export const createSubscription = (client: ApiClient, body: SubscriptionCreate) => client.post<Item>('/subscriptions/', body)
