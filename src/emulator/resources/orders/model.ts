// Orders (and their invoices): stored records and their collections in the store.
import type {Address, EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    orders: OrderRecord[]
    /** Counter behind invoice numbers (`<ORG>-0001`). */
    invoice_counter: number
    /**
     * How a customer's saved card answers an off-session charge, by customer id, as the control surface set
     * it (absent: it succeeds): declined, or needing the customer to authenticate (3-D Secure).
     */
    card_outcomes: Record<string, 'decline' | 'authentication_required'>
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({orders: [] as OrderRecord[], invoice_counter: 0, card_outcomes: {}})

export interface OrderItemRecord {
  id: string
  created_at: string
  modified_at: string | null
  label: string
  amount: number
  tax_amount: number
  proration: boolean
  product_price_id: string | null
  /** The period a subscription's line covers (absent in stores saved before it was kept). */
  start_timestamp?: string | null
  end_timestamp?: string | null
}

export type OrderStatus = 'draft' | 'pending' | 'paid' | 'refunded' | 'partially_refunded' | 'void'

export interface OrderRecord {
  id: string
  created_at: string
  modified_at: string | null
  /** Stored status. `pending` orders become `paid` once `paid_at` is reached (evaluated lazily). */
  status: OrderStatus
  /** When a pending order counts as paid; null if it never will by itself. */
  paid_at: string | null
  billing_reason: 'purchase' | 'subscription_create' | 'subscription_cycle' | 'subscription_update'
  currency: string
  subtotal_amount: number
  discount_amount: number
  tax_amount: number
  applied_balance_amount: number
  refunded_amount: number
  refunded_tax_amount: number
  billing_name: string | null
  billing_address: Address | null
  /** Null while the order is a draft: assigned when it is finalized. */
  invoice_number: string | null
  /** Set by POST /invoice; the document exists from `invoice_ready_at` on. */
  invoice_requested_at: string | null
  invoice_ready_at: string | null
  customer_id: string
  product_id: string | null
  discount_id: string | null
  subscription_id: string | null
  checkout_id: string | null
  /** The custom field data of the checkout that made the order (absent: none). */
  custom_field_data?: Record<string, unknown>
  metadata: Metadata
  items: OrderItemRecord[]
  /** Set once `order.paid` was sent for a pending order that became paid. */
  paid_event_sent?: boolean
  /** Set once `order.updated` was sent for the finished invoice. */
  invoice_event_sent?: boolean
  /** The next automatic retry of a renewal payment that failed (the service's dunning); absent or null: none. */
  next_payment_attempt_at?: string | null
  /** The failed automatic payments of the order so far, the renewal's own included. */
  failed_payments?: number
  /** Payment retries the customer started in the portal (the service allows five). */
  customer_retries?: number
}
