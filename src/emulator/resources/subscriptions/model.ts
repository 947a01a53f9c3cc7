// Subscriptions: stored records and their collections in the store.
import type {EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    subscriptions: SubscriptionRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({subscriptions: [] as SubscriptionRecord[]})

export type SubscriptionStatus = 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused'

export interface SubscriptionRecord {
  id: string
  created_at: string
  modified_at: string | null
  amount: number
  currency: string
  recurring_interval: 'day' | 'week' | 'month' | 'year'
  recurring_interval_count: number
  status: SubscriptionStatus
  current_period_start: string
  current_period_end: string
  trial_start: string | null
  trial_end: string | null
  cancel_at_period_end: boolean
  canceled_at: string | null
  started_at: string | null
  ends_at: string | null
  ended_at: string | null
  /** When a failed renewal payment made it past_due (absent in stores saved before it was kept). */
  past_due_at?: string | null
  customer_id: string
  product_id: string
  discount_id: string | null
  /** Start of the first period the discount was applied to (its repetitions count from there); not shown. */
  discount_applied_at?: string | null
  checkout_id: string | null
  /** The custom field data of the checkout that made the subscription (absent: none). */
  custom_field_data?: Record<string, unknown>
  customer_cancellation_reason: string | null
  customer_cancellation_comment: string | null
  metadata: Metadata
  price_ids: string[]
  /** The seats of a seat-based subscription (absent or null: not seat-based). */
  seats?: number | null
  /** A seats change that applies at the start of the next period (`proration_behavior: next_period`). */
  pending_update?: {id: string; created_at: string; seats: number} | null
  /** Where an imported subscription came from, once its cutover made it live (the emulator's control route). */
  migrated_from?: {provider: string; provider_subscription_id: string} | null
}

/** A subscription that currently gives access: active, or in its trial. */
export const isActiveSubscription = (s: SubscriptionRecord) => s.status === 'active' || s.status === 'trialing'
