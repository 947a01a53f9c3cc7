// Stored records of the emulator. They are normalized (ids, not embedded objects);
// `present.ts` turns them into the API's wire shapes (api-facts §4).

export type EnvName = 'production' | 'sandbox'
export type Metadata = Record<string, string | number | boolean>

export interface Address {
  country: string
  line1?: string | null
  line2?: string | null
  postal_code?: string | null
  city?: string | null
  state?: string | null
}

export interface Organization {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  slug: string
  avatar_url: string | null
  email: string | null
  website: string | null
}

export interface TokenRecord {
  token: string
  kind: 'organization' | 'customer'
  /** organization id for `organization`, customer id for `customer` */
  subject_id: string
  created_at: string
  expires_at: string | null
}

export type PriceRecord =
  | (PriceBase & {amount_type: 'fixed'; price_amount: number})
  | (PriceBase & {amount_type: 'custom'; minimum_amount: number; maximum_amount: number | null; preset_amount: number | null})

export interface PriceBase {
  id: string
  created_at: string
  modified_at: string | null
  source: 'catalog' | 'ad_hoc'
  price_currency: string
  tax_behavior: 'location' | 'inclusive' | 'exclusive' | null
  is_archived: boolean
  product_id: string
}

export interface ProductRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  description: string | null
  visibility: 'draft' | 'private' | 'public'
  recurring_interval: 'day' | 'week' | 'month' | 'year' | null
  recurring_interval_count: number | null
  is_archived: boolean
  metadata: Metadata
  prices: PriceRecord[]
  benefit_ids: string[]
  /** Custom checkout fields, in order; absent on products stored before they existed. */
  attached_custom_fields?: Array<{custom_field_id: string; required: boolean}>
}

export interface BenefitRecord {
  id: string
  created_at: string
  modified_at: string | null
  type: 'custom' | 'discord' | 'github_repository' | 'downloadables' | 'license_keys' | 'meter_credit' | 'feature_flag'
  description: string
  selectable: boolean
  deletable: boolean
  is_deleted: boolean
  visibility: 'draft' | 'private' | 'public'
  metadata: Metadata
  properties: Record<string, unknown>
}

export interface CustomerRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  external_id: string | null
  email: string
  email_verified: boolean
  type: 'individual' | 'team'
  name: string | null
  billing_name: string | null
  billing_address: Address | null
  tax_id: [string, string] | null
  locale: string | null
  deleted_at: string | null
}

export interface OrderItemRecord {
  id: string
  created_at: string
  modified_at: string | null
  label: string
  amount: number
  tax_amount: number
  proration: boolean
  product_price_id: string | null
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
  invoice_number: string
  /** Set by POST /invoice; the document exists from `invoice_ready_at` on. */
  invoice_requested_at: string | null
  invoice_ready_at: string | null
  customer_id: string
  product_id: string | null
  discount_id: string | null
  subscription_id: string | null
  checkout_id: string | null
  metadata: Metadata
  items: OrderItemRecord[]
  /** Set once `order.paid` was sent for a pending order that became paid. */
  paid_event_sent?: boolean
  /** Set once `order.updated` was sent for the finished invoice. */
  invoice_event_sent?: boolean
}

export interface RefundRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  status: 'pending' | 'succeeded' | 'failed' | 'canceled'
  reason: string
  comment: string | null
  amount: number
  tax_amount: number
  currency: string
  order_id: string
  subscription_id: string | null
  customer_id: string
  revoke_benefits: boolean
}

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
  customer_id: string
  product_id: string
  discount_id: string | null
  checkout_id: string | null
  customer_cancellation_reason: string | null
  customer_cancellation_comment: string | null
  metadata: Metadata
  price_ids: string[]
}

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

export interface BenefitGrantRecord {
  id: string
  created_at: string
  modified_at: string | null
  granted_at: string | null
  revoked_at: string | null
  subscription_id: string | null
  order_id: string | null
  customer_id: string
  benefit_id: string
  properties: Record<string, unknown>
}

export interface LicenseKeyRecord {
  id: string
  created_at: string
  modified_at: string | null
  customer_id: string
  benefit_id: string
  key: string
  status: 'granted' | 'revoked' | 'disabled'
  limit_activations: number | null
  usage: number
  limit_usage: number | null
  validations: number
  last_validated_at: string | null
  expires_at: string | null
}

export interface LicenseKeyActivationRecord {
  id: string
  created_at: string
  modified_at: string | null
  license_key_id: string
  label: string
  meta: Record<string, string | number | boolean>
  /** Conditions given at activation; a later validate naming this activation must repeat them. */
  conditions?: Record<string, string | number | boolean>
}

export interface WebhookEndpointRecord {
  id: string
  created_at: string
  modified_at: string | null
  url: string
  name: string | null
  format: 'raw' | 'discord' | 'slack'
  secret: string
  events: string[]
  enabled: boolean
}

export interface WebhookEventRecord {
  id: string
  created_at: string
  modified_at: string | null
  type: string
  /** The exact body sent (and signed). */
  payload: string
  last_http_code: number | null
  succeeded: boolean | null
}

export interface WebhookDeliveryRecord {
  id: string
  created_at: string
  modified_at: string | null
  webhook_endpoint_id: string
  webhook_event_id: string
  attempt: number
  succeeded: boolean
  http_code: number | null
  response: string | null
}

export interface DiscountRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  name: string
  code: string | null
  type: 'fixed' | 'percentage'
  duration: 'once' | 'forever' | 'repeating'
  duration_in_months: number | null
  /** Percentage discounts: 1/100 of a percent (2550 = 25.5%). */
  basis_points: number | null
  /** Fixed discounts: minor units by currency. */
  amounts: Record<string, number> | null
  starts_at: string | null
  ends_at: string | null
  max_redemptions: number | null
  redemptions_count: number
  product_ids: string[]
  /** Deleted discounts stay stored (soft delete) but are never shown. */
  deleted_at: string | null
}

export type DisputeStatus = 'prevented' | 'early_warning' | 'needs_response' | 'under_review' | 'lost' | 'won'

export interface DisputeRecord {
  id: string
  created_at: string
  modified_at: string | null
  status: DisputeStatus
  /** Pre-tax amount disputed, and its tax share (minor units). */
  amount: number
  tax_amount: number
  currency: string
  reason: string | null
  evidence_due_by: string | null
  order_id: string
  customer_id: string
}

export interface CustomFieldRecord {
  id: string
  created_at: string
  modified_at: string | null
  metadata: Metadata
  type: 'text' | 'number' | 'date' | 'checkbox' | 'select'
  slug: string
  name: string
  properties: Record<string, unknown>
}

export interface FileRecord {
  id: string
  created_at: string
  modified_at: string | null
  name: string
  path: string
  mime_type: string
  size: number
  service: 'downloadable' | 'product_media' | 'organization_avatar'
  version: string | null
  /** The checksum the creator declared for the whole file, if any. */
  checksum_sha256_base64: string | null
  checksum_sha256_hex: string | null
  checksum_etag: string | null
  is_uploaded: boolean
  last_modified_at: string | null
  upload_id: string
  parts: Array<{number: number; chunk_start: number; chunk_end: number; checksum_sha256_base64: string | null}>
  /** Parts received at their upload URLs: ETag and SHA-256 (base64) of the bytes. */
  received: Record<string, {etag: string; sha256: string}>
}

export interface CustomerSessionRecord {
  id: string
  created_at: string
  modified_at: string | null
  token: string
  expires_at: string
  return_url: string | null
  customer_id: string
}

/** One environment's whole state: what is saved in `<data>/<env>.json`. */
export interface SeedOptions {
  products: number
  customers: number
  orders: number
}

export interface EnvData {
  schema: 1
  environment: EnvName
  /** The sizes this store was seeded with; `till emulator reset` seeds again with them. */
  seed: SeedOptions
  /** Increased by every committed write; lets other processes see the file changed. */
  version: number
  organization: Organization
  tokens: TokenRecord[]
  products: ProductRecord[]
  benefits: BenefitRecord[]
  customers: CustomerRecord[]
  orders: OrderRecord[]
  refunds: RefundRecord[]
  subscriptions: SubscriptionRecord[]
  checkouts: CheckoutRecord[]
  checkout_links: CheckoutLinkRecord[]
  benefit_grants: BenefitGrantRecord[]
  license_keys: LicenseKeyRecord[]
  license_key_activations: LicenseKeyActivationRecord[]
  webhook_endpoints: WebhookEndpointRecord[]
  webhook_events: WebhookEventRecord[]
  webhook_deliveries: WebhookDeliveryRecord[]
  customer_sessions: CustomerSessionRecord[]
  discounts: DiscountRecord[]
  disputes: DisputeRecord[]
  custom_fields: CustomFieldRecord[]
  files: FileRecord[]
  /** Counter behind invoice numbers (`<ORG>-0001`). */
  invoice_counter: number
}

export type CollectionName = {
  [K in keyof EnvData]: EnvData[K] extends Array<{id: string}> ? K : never
}[keyof EnvData]
