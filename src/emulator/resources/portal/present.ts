// What a customer sees in the portal: exactly the fields of the service's portal schemas (CustomerOrder,
// CustomerSubscription, CustomerBenefitGrant, CustomerPortalCustomer, CustomerOrganization), never the
// organization's own data (metadata, external ids, platform fees, benefit configuration).
import {organization as organizationView, type View} from '../../core/present.js'
import type {BenefitGrantRecord, BenefitRecord} from '../benefits/model.js'
import type {CustomerRecord} from '../customers/model.js'
import type {OrderRecord} from '../orders/model.js'
import {order} from '../orders/present.js'
import {defaultMethodId} from '../payments/methods.js'
import type {ProductRecord} from '../products/model.js'
import {price, productCore} from '../products/present.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import {subscription, subscriptionCore} from '../subscriptions/present.js'

/** `source` with only `keys`, in that order (keys it lacks stay absent). */
function pick<T extends object>(source: T, keys: readonly string[]): Record<string, unknown> {
  const record = source as Record<string, unknown>
  return Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]))
}

const TIMESTAMPS = ['id', 'created_at', 'modified_at'] as const

/** The subscription fields every portal view of a subscription carries (CustomerOrderSubscription). */
const SUBSCRIPTION_KEYS = [
  ...TIMESTAMPS,
  'amount',
  'currency',
  'recurring_interval',
  'recurring_interval_count',
  'status',
  'current_period_start',
  'current_period_end',
  'current_meter_period_start',
  'current_meter_period_end',
  'trial_start',
  'trial_end',
  'cancel_at_period_end',
  'canceled_at',
  'started_at',
  'ends_at',
  'ended_at',
  'past_due_at',
  'pause_at_period_end',
  'paused_at',
  'resumes_at',
  'customer_id',
  'product_id',
  'discount_id',
  'checkout_id',
  'seats',
  'units',
  'customer_cancellation_reason',
  'customer_cancellation_comment',
] as const

const ORDER_KEYS = [
  ...TIMESTAMPS,
  'status',
  'paid',
  'subtotal_amount',
  'discount_amount',
  'net_amount',
  'tax_amount',
  'total_amount',
  'applied_balance_amount',
  'due_amount',
  'refunded_amount',
  'refunded_tax_amount',
  'currency',
  'billing_reason',
  'billing_name',
  'billing_address',
  'invoice_number',
  'is_invoice_generated',
  'receipt_number',
  'seats',
  'units',
  'customer_id',
  'product_id',
  'discount_id',
  'subscription_id',
  'checkout_id',
  'next_payment_attempt_at',
  'items',
  'description',
  'refundable_amount',
  'refundable_tax_amount',
] as const

const PRODUCT_KEYS = [
  ...TIMESTAMPS,
  'trial_interval',
  'trial_interval_count',
  'name',
  'description',
  'visibility',
  'recurring_interval',
  'recurring_interval_count',
  'meter_interval',
  'meter_interval_count',
  'is_recurring',
  'is_archived',
  'organization_id',
] as const

const BENEFIT_KEYS = [...TIMESTAMPS, 'type', 'description', 'selectable', 'deletable', 'is_deleted', 'organization_id'] as const

const GRANT_KEYS = [
  ...TIMESTAMPS,
  'granted_at',
  'revoked_at',
  'customer_id',
  'member_id',
  'benefit_id',
  'subscription_id',
  'order_id',
  'is_granted',
  'is_revoked',
  'error',
] as const

/** What a customer may know of each benefit type's configuration (Benefit*SubscriberProperties). */
const SUBSCRIBER_PROPERTIES: Record<BenefitRecord['type'], readonly string[]> = {
  custom: ['note'],
  discord: ['guild_id'],
  github_repository: ['repository_owner', 'repository_name'],
  downloadables: ['active_files'],
  license_keys: ['prefix', 'expires', 'activations', 'limit_usage'],
  meter_credit: ['units', 'rollover', 'meter_id'],
  feature_flag: [],
}

/** CustomerPortalCustomer: what a customer sees of itself. */
export function portalCustomer(v: Pick<View, 'store' | 'now'>, c: CustomerRecord) {
  return {
    id: c.id,
    created_at: c.created_at,
    modified_at: c.modified_at,
    email: c.email,
    email_verified: c.email_verified,
    name: c.name,
    billing_name: c.billing_name,
    billing_address: c.billing_address,
    tax_id: c.tax_id,
    oauth_accounts: {},
    default_payment_method_id: defaultMethodId(v, c),
    type: c.type,
    locale: c.locale,
  }
}

/** BenefitSubscriberOrganization: the organization as its customers see it. */
export function subscriberOrganization(v: View) {
  return pick(organizationView(v.store.data.organization), [...TIMESTAMPS, 'name', 'slug', 'avatar_url', 'proration_behavior', 'allow_customer_updates'])
}

/** CustomerOrganization: the subscriber view plus the portal settings. */
export function customerOrganization(v: View) {
  return {
    ...subscriberOrganization(v),
    customer_portal_settings: organizationView(v.store.data.organization).customer_portal_settings,
  }
}

/** BenefitPublic: a product's benefit as a customer sees it (no properties, no metadata). */
export const publicBenefit = (v: View, b: BenefitRecord) => ({...pick(benefitBase(v, b), BENEFIT_KEYS)})

function benefitBase(v: View, b: BenefitRecord) {
  return {...b, organization_id: v.store.data.organization.id}
}

/** A price without the hidden deprecated keys (`type`, `recurring_interval`) the public schemas do not list. */
export function publicPrice<T extends object>(p: T): Omit<T, 'type' | 'recurring_interval'> {
  const {type: _type, recurring_interval: _interval, ...rest} = p as T & {type?: unknown; recurring_interval?: unknown}
  return rest
}

/** CustomerProduct (and CustomerOrderProduct / CustomerSubscriptionProduct with `organization`). */
export function customerProduct(v: View, p: ProductRecord, withOrganization = true) {
  const benefits = p.benefit_ids.map((id) => v.store.get('benefits', id)).filter((b) => b !== undefined)
  return {
    ...pick(productCore(v, p), PRODUCT_KEYS),
    prices: p.prices.map((x) => publicPrice(price(x, p))),
    benefits: benefits.map((b) => publicBenefit(v, b)),
    medias: [],
    ...(withOrganization ? {organization: customerOrganization(v)} : {}),
  }
}

/** Benefit*Subscriber: a granted benefit with what its holder may know of it. */
export function subscriberBenefit(v: View, b: BenefitRecord) {
  const properties = b.properties as Record<string, unknown>
  const shown = b.type === 'downloadables' ? {active_files: activeFiles(properties)} : pick(properties, SUBSCRIBER_PROPERTIES[b.type])
  return {...pick(benefitBase(v, b), BENEFIT_KEYS), organization: subscriberOrganization(v), properties: shown}
}

/** The files of a downloadables benefit that are not archived. */
function activeFiles(properties: Record<string, unknown>): string[] {
  const files = Array.isArray(properties.files) ? (properties.files as string[]) : []
  const archived = (properties.archived ?? {}) as Record<string, boolean>
  return files.filter((f) => !archived[f])
}

export function portalGrant(v: View, g: BenefitGrantRecord) {
  const c = v.store.get('customers', g.customer_id)
  const b = v.store.get('benefits', g.benefit_id)
  const view = {...g, is_granted: g.granted_at !== null && g.revoked_at === null, is_revoked: g.revoked_at !== null, member_id: null, error: null}
  return {
    ...pick(view, GRANT_KEYS),
    customer: c ? portalCustomer(v, c) : null,
    benefit: b ? subscriberBenefit(v, b) : null,
    properties: g.properties,
  }
}

export function portalOrder(v: View, o: OrderRecord) {
  const p = o.product_id ? v.store.get('products', o.product_id) : undefined
  const s = o.subscription_id ? v.store.get('subscriptions', o.subscription_id) : undefined
  return {
    ...pick(order(v, o), ORDER_KEYS),
    product: p ? customerProduct(v, p) : null,
    subscription: s ? pick(subscriptionCore(s), SUBSCRIPTION_KEYS) : null,
  }
}

export function portalSubscription(v: View, s: SubscriptionRecord) {
  const full = subscription(v, s)
  const p = v.store.get('products', s.product_id)
  return {
    ...pick(full, SUBSCRIPTION_KEYS),
    product: p ? customerProduct(v, p) : null,
    prices: full.prices.map(publicPrice),
    meters: full.meters,
    pending_update: full.pending_update,
  }
}
