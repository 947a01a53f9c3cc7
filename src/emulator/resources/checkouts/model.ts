// Checkout sessions and checkout links: stored records and their collections in the store.
import type {Address, EnvData, Metadata} from '../../core/model.js'

declare module '../../core/model.js' {
  interface EnvData {
    checkouts: CheckoutRecord[]
    checkout_links: CheckoutLinkRecord[]
  }
}

/** This resource's part of a new (or older, saved before it existed) store. */
export const collections = (): Partial<EnvData> => ({checkouts: [] as CheckoutRecord[], checkout_links: [] as CheckoutLinkRecord[]})

export interface CheckoutRecord {
  id: string
  created_at: string
  modified_at: string | null
  status: 'open' | 'expired' | 'confirmed' | 'succeeded' | 'failed'
  client_secret: string
  expires_at: string
  success_url: string | null
  return_url: string | null
  amount: number
  discount_amount: number
  tax_amount: number | null
  currency: string
  product_ids: string[]
  product_id: string
  product_price_id: string
  discount_id: string | null
  subscription_id: string | null
  customer_id: string | null
  external_customer_id: string | null
  customer_name: string | null
  customer_email: string | null
  customer_billing_name: string | null
  customer_billing_address: Address | null
  customer_tax_id: string | null
  customer_metadata: Metadata
  require_billing_address: boolean
  allow_discount_codes: boolean
  is_business_customer: boolean
  metadata: Metadata
  /** Set when the checkout was confirmed and produced an order. */
  order_id: string | null
  /** Values of the product's custom fields, as validated (absent on checkouts saved before there were any). */
  custom_field_data?: Record<string, unknown>
}

export interface CheckoutLinkRecord {
  id: string
  created_at: string
  modified_at: string | null
  client_secret: string
  label: string | null
  success_url: string | null
  return_url: string | null
  allow_discount_codes: boolean
  require_billing_address: boolean
  discount_id: string | null
  metadata: Metadata
  product_ids: string[]
}
