// Stored records -> the API's wire shapes (api-facts §4), deprecated fields included
// beside their replacements with the same values (spec §2, §9).
import type {
  BenefitGrantRecord, BenefitRecord, CheckoutLinkRecord, CheckoutRecord, CustomerRecord, CustomerSessionRecord, CustomFieldRecord, DiscountRecord, DisputeRecord,
  LicenseKeyActivationRecord, LicenseKeyRecord, OrderRecord, OrderStatus, Organization, PriceRecord, ProductRecord,
  RefundRecord, SubscriptionRecord, WebhookEndpointRecord,
} from './model.js'
import type {Store} from './store.js'

/** What presenters need: the environment's store, the clock and the public addresses. */
export interface View {
  store: Store
  now: number
  /** The service origin, e.g. `http://127.0.0.1:4010` (API under `/v1`). */
  origin: string
}

const orgId = (v: View) => v.store.data.organization.id

export function organization(o: Organization) {
  return {
    id: o.id,
    created_at: o.created_at,
    modified_at: o.modified_at,
    name: o.name,
    slug: o.slug,
    avatar_url: o.avatar_url,
    email: o.email,
    website: o.website,
    socials: [],
    status: 'active',
    details_submitted_at: o.created_at,
    proration_behavior: 'prorate',
    allow_customer_updates: true,
    default_presentment_currency: 'usd',
    sso_enforced: false,
    default_tax_behavior: 'location',
    customer_portal_settings: {usage: {show: true}, subscription: {update_seats: true, update_plan: true}},
    account_id: null,
    payout_account_id: null,
    capabilities: {checkout_payments: true, subscription_renewals: true, payouts: false, refunds: true, api_access: true, dashboard_access: true},
    feature_settings: {issue_funding_enabled: false, seat_based_pricing_enabled: false, member_model_enabled: false},
    subscription_settings: {allow_multiple_subscriptions: false, allow_customer_updates: true, proration_behavior: 'prorate', benefit_revocation_grace_period: 0, prevent_trial_abuse: false},
    notification_settings: {new_order: true, new_subscription: true},
    customer_email_settings: {order_confirmation: true, subscription_cancellation: true, subscription_confirmation: true, subscription_cycled: true, subscription_past_due: true, subscription_revoked: true, subscription_uncanceled: true, subscription_updated: true, subscription_cycled_after_trial: true, subscription_paused: true, subscription_resumed: true, subscription_renewal_reminder: true, subscription_trial_conversion_reminder: true},
  }
}

export function price(p: PriceRecord, product: ProductRecord) {
  const base = {
    id: p.id,
    created_at: p.created_at,
    modified_at: p.modified_at,
    source: p.source,
    amount_type: p.amount_type,
    price_currency: p.price_currency,
    tax_behavior: p.tax_behavior,
    is_archived: p.is_archived,
    product_id: p.product_id,
    // hidden deprecated keys of non-legacy prices
    type: product.recurring_interval ? 'recurring' : 'one_time',
    recurring_interval: product.recurring_interval,
  }
  return p.amount_type === 'fixed'
    ? {...base, price_amount: p.price_amount}
    : {...base, minimum_amount: p.minimum_amount, maximum_amount: p.maximum_amount, preset_amount: p.preset_amount}
}

export function benefit(v: View, b: BenefitRecord) {
  return {
    id: b.id,
    created_at: b.created_at,
    modified_at: b.modified_at,
    type: b.type,
    description: b.description,
    selectable: b.selectable,
    deletable: b.deletable,
    is_deleted: b.is_deleted,
    organization_id: orgId(v),
    metadata: b.metadata,
    visibility: b.visibility,
    visibility_configurable: true,
    properties: b.properties,
  }
}

export function productCore(v: View, p: ProductRecord) {
  return {
    id: p.id,
    created_at: p.created_at,
    modified_at: p.modified_at,
    trial_interval: null,
    trial_interval_count: null,
    name: p.name,
    description: p.description,
    visibility: p.visibility,
    recurring_interval: p.recurring_interval,
    recurring_interval_count: p.recurring_interval_count,
    meter_interval: null,
    meter_interval_count: null,
    is_recurring: p.recurring_interval !== null,
    is_archived: p.is_archived,
    organization_id: orgId(v),
    metadata: p.metadata,
  }
}

const usedCache = new WeakMap<View, Set<string>>()

/** Ids of products that orders or subscriptions use (they cannot be deleted); computed once per view. */
function usedProductIds(v: View): Set<string> {
  let used = usedCache.get(v)
  if (!used) {
    used = new Set<string>()
    for (const o of v.store.all('orders')) if (o.product_id) used.add(o.product_id)
    for (const s of v.store.all('subscriptions')) used.add(s.product_id)
    usedCache.set(v, used)
  }
  return used
}

export function product(v: View, p: ProductRecord) {
  return {
    ...productCore(v, p),
    is_deletable: !usedProductIds(v).has(p.id),
    prices: p.prices.map((x) => price(x, p)),
    benefits: p.benefit_ids.map((id) => v.store.get('benefits', id)).filter((b) => b !== undefined).map((b) => benefit(v, b)),
    medias: [],
    attached_custom_fields: (p.attached_custom_fields ?? []).flatMap((a, order) => {
      const field = v.store.get('custom_fields', a.custom_field_id)
      return field ? [{custom_field_id: field.id, custom_field: customField(v, field), order, required: a.required}] : []
    }),
  }
}

export function customField(v: View, f: CustomFieldRecord) {
  return {
    created_at: f.created_at, modified_at: f.modified_at, id: f.id, metadata: f.metadata, type: f.type, slug: f.slug, name: f.name,
    organization_id: orgId(v), properties: f.properties,
  }
}

export function customer(v: View, c: CustomerRecord) {
  return {
    id: c.id,
    created_at: c.created_at,
    modified_at: c.modified_at,
    metadata: c.metadata,
    external_id: c.external_id,
    email: c.email,
    email_verified: c.email_verified,
    type: c.type,
    name: c.name,
    billing_name: c.billing_name,
    billing_address: c.billing_address,
    tax_id: c.tax_id,
    locale: c.locale,
    organization_id: orgId(v),
    default_payment_method_id: null,
    deleted_at: c.deleted_at,
    first_user_event_at: null,
    avatar_url: `https://www.gravatar.com/avatar/${c.id.replaceAll('-', '')}?d=404`,
  }
}

export const isActiveSubscription = (s: SubscriptionRecord) => s.status === 'active' || s.status === 'trialing'

function stateSubscription(s: SubscriptionRecord) {
  return {
    id: s.id,
    created_at: s.created_at,
    modified_at: s.modified_at,
    metadata: s.metadata,
    custom_field_data: {},
    status: s.status,
    amount: s.amount,
    currency: s.currency,
    recurring_interval: s.recurring_interval,
    current_period_start: s.current_period_start,
    current_period_end: s.current_period_end,
    trial_start: s.trial_start,
    trial_end: s.trial_end,
    cancel_at_period_end: s.cancel_at_period_end,
    canceled_at: s.canceled_at,
    started_at: s.started_at,
    ends_at: s.ends_at,
    product_id: s.product_id,
    discount_id: s.discount_id,
    seats: null,
    units: null,
    meters: [],
    // hidden deprecated key
    price_id: s.price_ids[0] ?? null,
  }
}

/** CustomerState: the customer, its active subscriptions, its granted benefits and its meters. */
export function customerState(v: View, c: CustomerRecord) {
  const granted = v.store.all('benefit_grants').flatMap((g) => {
    const benefit = g.customer_id === c.id && g.granted_at !== null && g.revoked_at === null ? v.store.get('benefits', g.benefit_id) : undefined
    if (!benefit || benefit.is_deleted) return []
    return [{
      id: g.id,
      created_at: g.created_at,
      modified_at: g.modified_at,
      granted_at: g.granted_at,
      benefit_id: g.benefit_id,
      benefit_type: benefit.type,
      benefit_metadata: benefit.metadata,
      properties: g.properties,
    }]
  })
  return {
    ...customer(v, c),
    active_subscriptions: v.store.all('subscriptions').filter((s) => s.customer_id === c.id && isActiveSubscription(s)).map(stateSubscription),
    granted_benefits: granted,
    active_meters: [],
  }
}

/** The status an order has at `now`: a pending order with a reached `paid_at` is paid. */
export function orderStatus(o: OrderRecord, now: number): OrderStatus {
  return o.status === 'pending' && o.paid_at !== null && Date.parse(o.paid_at) <= now ? 'paid' : o.status
}

export const isInvoiceGenerated = (o: OrderRecord, now: number) => o.invoice_ready_at !== null && Date.parse(o.invoice_ready_at) <= now

export function orderAmounts(o: OrderRecord) {
  const net = o.subtotal_amount - o.discount_amount
  const total = net + o.tax_amount
  return {
    subtotal_amount: o.subtotal_amount,
    discount_amount: o.discount_amount,
    net_amount: net,
    tax_amount: o.tax_amount,
    total_amount: total,
    applied_balance_amount: o.applied_balance_amount,
    due_amount: Math.max(0, total + o.applied_balance_amount),
    refunded_amount: o.refunded_amount,
    refunded_tax_amount: o.refunded_tax_amount,
    refundable_amount: Math.max(0, net + o.applied_balance_amount - o.refunded_amount),
    refundable_tax_amount: Math.max(0, o.tax_amount - o.refunded_tax_amount),
  }
}

function findPrice(v: View, priceId: string | null): {price: PriceRecord; product: ProductRecord} | undefined {
  if (!priceId) return undefined
  for (const p of v.store.all('products')) {
    const found = p.prices.find((x) => x.id === priceId)
    if (found) return {price: found, product: p}
  }
  return undefined
}

function subscriptionCore(s: SubscriptionRecord) {
  return {
    id: s.id,
    created_at: s.created_at,
    modified_at: s.modified_at,
    amount: s.amount,
    currency: s.currency,
    recurring_interval: s.recurring_interval,
    recurring_interval_count: s.recurring_interval_count,
    status: s.status,
    current_period_start: s.current_period_start,
    current_period_end: s.current_period_end,
    current_meter_period_start: null,
    current_meter_period_end: null,
    trial_start: s.trial_start,
    trial_end: s.trial_end,
    cancel_at_period_end: s.cancel_at_period_end,
    canceled_at: s.canceled_at,
    started_at: s.started_at,
    ends_at: s.ends_at,
    ended_at: s.ended_at,
    past_due_at: s.status === 'past_due' ? s.modified_at : null,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    customer_id: s.customer_id,
    product_id: s.product_id,
    discount_id: s.discount_id,
    checkout_id: s.checkout_id,
    seats: null,
    units: null,
    customer_cancellation_reason: s.customer_cancellation_reason,
    customer_cancellation_comment: s.customer_cancellation_comment,
    metadata: s.metadata,
    custom_field_data: {},
  }
}

export function order(v: View, o: OrderRecord) {
  const status = orderStatus(o, v.now)
  const c = v.store.get('customers', o.customer_id)
  const p = o.product_id ? v.store.get('products', o.product_id) : undefined
  const s = o.subscription_id ? v.store.get('subscriptions', o.subscription_id) : undefined
  const firstPrice = o.items[0]?.product_price_id ?? null
  const deprecatedPrice = findPrice(v, firstPrice)
  const amounts = orderAmounts(o)
  return {
    id: o.id,
    created_at: o.created_at,
    modified_at: o.modified_at,
    status,
    paid: status === 'paid' || status === 'refunded' || status === 'partially_refunded',
    ...amounts,
    currency: o.currency,
    billing_reason: o.billing_reason,
    billing_name: o.billing_name,
    billing_address: o.billing_address,
    invoice_number: o.invoice_number,
    receipt_number: status === 'draft' || status === 'pending' ? null : o.invoice_number.replace(/-(\d+)$/, '-R$1'),
    is_invoice_generated: isInvoiceGenerated(o, v.now),
    seats: null,
    units: null,
    customer_id: o.customer_id,
    product_id: o.product_id,
    discount_id: o.discount_id,
    subscription_id: o.subscription_id,
    checkout_id: o.checkout_id,
    next_payment_attempt_at: null,
    metadata: o.metadata,
    custom_field_data: {},
    platform_fee_amount: 0,
    platform_fee_currency: null,
    customer: c ? customer(v, c) : null,
    product: p ? productCore(v, p) : null,
    discount: discountBase(v, o.discount_id),
    subscription: s ? subscriptionCore(s) : null,
    items: o.items.map((i) => ({...i})),
    description: o.items.map((i) => i.label).join(', ') || (p?.name ?? ''),
    // hidden deprecated keys, same values as their replacements
    amount: amounts.net_amount,
    from_balance_amount: o.applied_balance_amount,
    product_price_id: firstPrice,
    product_price: deprecatedPrice ? price(deprecatedPrice.price, deprecatedPrice.product) : null,
    user_id: o.customer_id,
    user: c ? {id: c.id, email: c.email, public_name: c.name ?? c.email} : null,
  }
}

export function subscription(v: View, s: SubscriptionRecord) {
  const c = v.store.get('customers', s.customer_id)
  const p = v.store.get('products', s.product_id)
  const prices = p ? p.prices.filter((x) => s.price_ids.includes(x.id)).map((x) => price(x, p)) : []
  return {
    ...subscriptionCore(s),
    customer: c ? customer(v, c) : null,
    product: p ? product(v, p) : null,
    discount: discountBase(v, s.discount_id),
    prices,
    meters: [],
    pending_update: null,
    // hidden deprecated keys
    price_id: prices[0]?.id ?? null,
    price: prices[0] ?? null,
    user_id: s.customer_id,
    user: c ? {id: c.id, email: c.email, public_name: c.name ?? c.email} : null,
  }
}

export function refund(v: View, r: RefundRecord) {
  return {
    id: r.id,
    created_at: r.created_at,
    modified_at: r.modified_at,
    metadata: r.metadata,
    status: r.status,
    reason: r.reason,
    amount: r.amount,
    tax_amount: r.tax_amount,
    currency: r.currency,
    organization_id: orgId(v),
    order_id: r.order_id,
    subscription_id: r.subscription_id,
    customer_id: r.customer_id,
    revoke_benefits: r.revoke_benefits,
    dispute: null,
  }
}

const PAID = new Set<OrderStatus>(['paid', 'partially_refunded', 'refunded'])

/**
 * A checkout's status at `now`: an open checkout past `expires_at` is expired, and a confirmed one
 * has succeeded once its order is paid (both evaluated lazily, like the order's own status).
 */
export function checkoutStatus(v: View, k: CheckoutRecord): CheckoutRecord['status'] {
  if (k.status === 'open' && Date.parse(k.expires_at) <= v.now) return 'expired'
  const order = k.status === 'confirmed' && k.order_id ? v.store.get('orders', k.order_id) : undefined
  return order && PAID.has(orderStatus(order, v.now)) ? 'succeeded' : k.status
}

export function checkout(v: View, k: CheckoutRecord) {
  const products = k.product_ids.map((id) => v.store.get('products', id)).filter((p) => p !== undefined)
  const p = v.store.get('products', k.product_id)
  const pp = p?.prices.find((x) => x.id === k.product_price_id)
  const net = k.amount - k.discount_amount
  const isFree = pp?.amount_type === 'fixed' && pp.price_amount === 0
  return {
    id: k.id,
    created_at: k.created_at,
    modified_at: k.modified_at,
    custom_field_data: {},
    payment_processor: 'stripe',
    status: checkoutStatus(v, k),
    client_secret: k.client_secret,
    url: `${v.origin}/checkout/${k.client_secret}`,
    expires_at: k.expires_at,
    success_url: (k.success_url ?? `${v.origin}/checkout/${k.client_secret}/confirmation`).replace('{CHECKOUT_ID}', k.id),
    return_url: k.return_url,
    embed_origin: null,
    amount: k.amount,
    seats: null,
    min_seats: null,
    max_seats: null,
    units: null,
    min_units: null,
    max_units: null,
    discount_amount: k.discount_amount,
    net_amount: net,
    tax_amount: k.tax_amount,
    tax_behavior: null,
    total_amount: net + (k.tax_amount ?? 0),
    currency: k.currency,
    allow_trial: null,
    active_trial_interval: null,
    active_trial_interval_count: null,
    trial_end: null,
    trial_interval: null,
    trial_interval_count: null,
    organization_id: orgId(v),
    product_id: k.product_id,
    product_price_id: k.product_price_id,
    discount_id: k.discount_id,
    allow_discount_codes: k.allow_discount_codes,
    require_billing_address: k.require_billing_address,
    is_discount_applicable: true,
    is_free_product_price: isFree,
    is_payment_required: !isFree,
    is_payment_setup_required: p?.recurring_interval != null && !isFree,
    is_payment_form_required: !isFree,
    customer_id: k.customer_id,
    is_business_customer: k.is_business_customer,
    customer_name: k.customer_name,
    customer_email: k.customer_email,
    customer_ip_address: null,
    customer_billing_name: k.customer_billing_name,
    customer_billing_address: k.customer_billing_address,
    customer_tax_id: k.customer_tax_id,
    payment_processor_metadata: {},
    billing_address_fields: {country: 'required', state: 'optional', city: 'optional', postal_code: 'optional', line1: 'optional', line2: 'optional'},
    external_customer_id: k.external_customer_id,
    customer_metadata: k.customer_metadata,
    metadata: k.metadata,
    subscription_id: k.subscription_id,
    products: products.map((x) => product(v, x)),
    product: p ? product(v, p) : null,
    product_price: pp && p ? price(pp, p) : null,
    prices: Object.fromEntries(products.map((x) => [x.id, x.prices.filter((y) => !y.is_archived).map((y) => price(y, x))])),
    discount: discountBase(v, k.discount_id),
    attached_custom_fields: [],
    // hidden deprecated keys
    subtotal_amount: net,
    customer_external_id: k.external_customer_id,
    customer_billing_address_fields: {country: true, state: false, city: false, postal_code: false, line1: false, line2: false},
  }
}

export function checkoutLink(v: View, l: CheckoutLinkRecord) {
  return {
    id: l.id,
    created_at: l.created_at,
    modified_at: l.modified_at,
    metadata: l.metadata,
    payment_processor: 'stripe',
    client_secret: l.client_secret,
    success_url: l.success_url,
    return_url: l.return_url,
    label: l.label,
    allow_discount_codes: l.allow_discount_codes,
    require_billing_address: l.require_billing_address,
    discount_id: l.discount_id,
    seats: null,
    units: null,
    trial_interval: null,
    trial_interval_count: null,
    organization_id: orgId(v),
    products: l.product_ids.map((id) => v.store.get('products', id)).filter((p) => p !== undefined).map((p) => product(v, p)),
    discount: discountBase(v, l.discount_id),
    url: `${v.origin}/v1/checkout-links/${l.client_secret}/redirect`,
  }
}

export function benefitGrant(v: View, g: BenefitGrantRecord) {
  const c = v.store.get('customers', g.customer_id)
  const b = v.store.get('benefits', g.benefit_id)
  return {
    id: g.id,
    created_at: g.created_at,
    modified_at: g.modified_at,
    granted_at: g.granted_at,
    is_granted: g.granted_at !== null && g.revoked_at === null,
    revoked_at: g.revoked_at,
    is_revoked: g.revoked_at !== null,
    subscription_id: g.subscription_id,
    order_id: g.order_id,
    customer_id: g.customer_id,
    member_id: null,
    benefit_id: g.benefit_id,
    error: null,
    customer: c ? customer(v, c) : null,
    member: null,
    benefit: b ? benefit(v, b) : null,
    properties: g.properties,
  }
}

export function licenseKey(v: View, k: LicenseKeyRecord) {
  const c = v.store.get('customers', k.customer_id)
  return {
    id: k.id,
    created_at: k.created_at,
    modified_at: k.modified_at,
    organization_id: orgId(v),
    customer_id: k.customer_id,
    customer: c ? customer(v, c) : null,
    benefit_id: k.benefit_id,
    key: k.key,
    display_key: `****-${k.key.slice(-6)}`,
    status: k.status,
    limit_activations: k.limit_activations,
    usage: k.usage,
    limit_usage: k.limit_usage,
    validations: k.validations,
    last_validated_at: k.last_validated_at,
    expires_at: k.expires_at,
  }
}

export function licenseKeyActivation(a: LicenseKeyActivationRecord) {
  return {id: a.id, license_key_id: a.license_key_id, label: a.label, meta: a.meta, created_at: a.created_at, modified_at: a.modified_at}
}

export function webhookEndpoint(v: View, w: WebhookEndpointRecord) {
  return {
    id: w.id,
    created_at: w.created_at,
    modified_at: w.modified_at,
    url: w.url,
    name: w.name,
    format: w.format,
    secret: w.secret,
    organization_id: orgId(v),
    events: w.events,
    enabled: w.enabled,
  }
}

export function customerSession(v: View, s: CustomerSessionRecord) {
  const c = v.store.get('customers', s.customer_id)!
  const org = v.store.data.organization
  const portal = new URL(`${v.origin}/${org.slug}/portal`)
  portal.searchParams.set('customer_session_token', s.token)
  portal.searchParams.set('email', c.email)
  return {
    id: s.id,
    created_at: s.created_at,
    modified_at: s.modified_at,
    token: s.token,
    expires_at: s.expires_at,
    return_url: s.return_url,
    customer_portal_url: portal.toString(),
    customer_id: s.customer_id,
    customer: customer(v, c),
  }
}

/** A discount as the service shows it: percentage or fixed, with the products it is restricted to. */
export function discount(v: View, d: DiscountRecord) {
  const base = {
    duration: d.duration,
    ...(d.duration === 'repeating' ? {duration_in_months: d.duration_in_months} : {}),
    type: d.type,
  }
  const [currency, amount] = Object.entries(d.amounts ?? {})[0] ?? ['usd', 0]
  const kind = d.type === 'percentage' ? {basis_points: d.basis_points} : {amount, currency, amounts: d.amounts}
  return {
    ...base,
    ...kind,
    created_at: d.created_at,
    modified_at: d.modified_at,
    id: d.id,
    metadata: d.metadata,
    name: d.name,
    code: d.code,
    starts_at: d.starts_at,
    ends_at: d.ends_at,
    max_redemptions: d.max_redemptions,
    redemptions_count: d.redemptions_count,
    organization_id: orgId(v),
    products: d.product_ids.map((id) => v.store.get('products', id)).filter((p) => p !== undefined).map((p) => productCore(v, p)),
  }
}

/** The discount embedded in orders, subscriptions and checkouts (no products). */
function discountBase(v: View, id: string | null) {
  const d = id ? v.store.get('discounts', id) : undefined
  if (!d) return null
  const {products: _products, ...base} = discount(v, d)
  return base
}

/** The card payment of a paid order (the emulator's payments are derived from orders). */
export function payment(v: View, o: OrderRecord, id: string, trigger: string | null) {
  const at = o.paid_at ?? o.created_at
  return {
    created_at: at,
    modified_at: null,
    id,
    processor: 'stripe',
    status: 'succeeded',
    amount: orderAmounts(o).total_amount,
    currency: o.currency,
    method: 'card',
    trigger,
    decline_reason: null,
    decline_message: null,
    organization_id: orgId(v),
    checkout_id: o.checkout_id,
    order_id: o.id,
    processor_metadata: {},
    method_metadata: {brand: 'visa', last4: '4242'},
  }
}

const RESOLVED = new Set(['lost', 'won'])
const CLOSED = new Set(['prevented', 'lost', 'won'])

export function dispute(v: View, d: DisputeRecord, paymentId: string) {
  const c = v.store.get('customers', d.customer_id)
  return {
    created_at: d.created_at,
    modified_at: d.modified_at,
    id: d.id,
    status: d.status,
    resolved: RESOLVED.has(d.status),
    closed: CLOSED.has(d.status),
    amount: d.amount,
    tax_amount: d.tax_amount,
    currency: d.currency,
    reason: d.reason,
    evidence_due_by: d.evidence_due_by,
    past_due: d.status === 'needs_response' && d.evidence_due_by !== null && Date.parse(d.evidence_due_by) < v.now,
    order_id: d.order_id,
    payment_id: paymentId,
    customer: c ? customer(v, c) : null,
    case_id: null,
  }
}
