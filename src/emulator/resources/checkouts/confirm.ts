// Confirming a checkout (`checkouts:client_confirm`): the customer, the subscription and the order it creates.
import {buildOrder} from '../orders/build.js'
import {ruleValidation, type ValidationIssue} from '../../core/errors.js'
import {emit, type Ctx} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import type {CheckoutRecord} from './model.js'
import type {CustomerRecord} from '../customers/model.js'
import type {OrderRecord} from '../orders/model.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import * as present from './present.js'
import * as orderViews from '../orders/present.js'
import * as subscriptionViews from '../subscriptions/present.js'
import {customerByExternalId, customerById, emitCustomerChange} from '../customers/routes.js'
import {emitMember, ensureOwner, ownerOf} from '../members/rules.js'
import {addInterval} from '../subscriptions/periods.js'
import {emitCustomerStateChanged} from '../subscriptions/lifecycle.js'
import {type AnyUpdate, checkoutTaxId, findBySecret, hasFullAddress, isFree, iso, planUpdate} from './rules.js'
import {resetSubscriptionMeters} from '../customer-meters/reset.js'

/** Fields a confirmation cannot do without (server/polar/checkout/schemas.py); all problems reported at once. */
function checkConfirmable(ctx: Ctx, k: CheckoutRecord): void {
  const issues: ValidationIssue[] = []
  const missing = (field: string) => issues.push({type: 'missing', loc: ['body', field], msg: 'Field is required.', input: null})
  const price = ctx.store.get('products', k.product_id)?.prices.find((p) => p.id === k.product_price_id)
  if (!price || price.is_archived) {
    issues.push({type: 'value_error', loc: ['body', 'product_price_id'], msg: 'Price is archived.', input: k.product_price_id})
  }
  if (!k.customer_email) missing('customer_email')
  if (!isFree(k)) {
    if (!k.customer_name) missing('customer_name')
    if (!k.customer_billing_address) missing('customer_billing_address')
  }
  if ((k.require_billing_address || k.is_business_customer) && !hasFullAddress(k.customer_billing_address)) {
    issues.push({type: 'value_error', loc: ['body', 'customer_billing_address'], msg: 'Full billing address is required.', input: k.customer_billing_address})
  }
  if (issues.length > 0) throw ruleValidation(issues)
}

const taxIdOf = (k: CheckoutRecord) => (k.customer_tax_id ? checkoutTaxId(k.customer_tax_id, k.customer_billing_address) : null)

interface Confirmed {
  checkout: CheckoutRecord
  customer: CustomerRecord
  customerEvent: 'created' | 'updated' | null
  order: OrderRecord
  subscription: SubscriptionRecord | null
}

/** The checkout's customer: its linked one, or the one with its external id or email, or a new one. */
function confirmCustomer(ctx: Ctx, k: CheckoutRecord): {customer: CustomerRecord; event: Confirmed['customerEvent']} {
  const email = k.customer_email!.toLowerCase()
  const existing =
    (k.customer_id ? customerById(ctx, k.customer_id) : undefined) ??
    (k.external_customer_id ? customerByExternalId(ctx, k.external_customer_id) : undefined) ??
    ctx.store.all('customers').find((c) => c.deleted_at === null && c.email?.toLowerCase() === email)
  const now = iso(ctx.now)
  if (!existing) {
    const customer = ctx.store.insert('customers', {
      id: uuid(),
      created_at: now,
      modified_at: null,
      metadata: k.customer_metadata,
      external_id: k.external_customer_id,
      email: k.customer_email!,
      email_verified: false,
      type: 'individual',
      name: k.customer_name,
      billing_name: k.customer_billing_name,
      billing_address: k.customer_billing_address,
      tax_id: taxIdOf(k),
      locale: null,
      deleted_at: null,
    })
    ensureOwner(ctx, customer) // every new customer gets its owner member
    return {customer, event: 'created'}
  }
  const updates: Partial<CustomerRecord> = {}
  if (existing.external_id === null && k.external_customer_id) updates.external_id = k.external_customer_id
  if (existing.name === null && k.customer_name) updates.name = k.customer_name
  if (k.customer_billing_name && k.customer_billing_name !== existing.billing_name) updates.billing_name = k.customer_billing_name
  if (k.customer_billing_address && JSON.stringify(k.customer_billing_address) !== JSON.stringify(existing.billing_address)) {
    updates.billing_address = k.customer_billing_address
  }
  const taxId = taxIdOf(k)
  if (taxId && taxId[0] !== existing.tax_id?.[0]) updates.tax_id = taxId
  if (Object.keys(updates).length === 0) return {customer: existing, event: null}
  Object.assign(existing, updates, {modified_at: now})
  return {customer: existing, event: 'updated'}
}

function newSubscription(ctx: Ctx, k: CheckoutRecord, product: ProductRecord, price: PriceRecord, customerId: string): SubscriptionRecord {
  const interval = product.recurring_interval!
  const count = product.recurring_interval_count ?? 1
  const now = iso(ctx.now)
  const subscription = ctx.store.insert('subscriptions', {
    id: uuid(),
    created_at: now,
    modified_at: null,
    amount: k.amount - k.discount_amount,
    currency: k.currency,
    recurring_interval: interval,
    recurring_interval_count: count,
    status: 'active',
    current_period_start: now,
    current_period_end: iso(addInterval(ctx.now, interval, count)),
    trial_start: null,
    trial_end: null,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: now,
    ends_at: null,
    ended_at: null,
    customer_id: customerId,
    product_id: product.id,
    discount_id: k.discount_id,
    discount_applied_at: k.discount_id ? now : null,
    checkout_id: k.id,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    metadata: k.metadata,
    price_ids: [price.id],
    // a seat-based price: the subscription has the seats the checkout was priced at (its minimum)
    ...(price.amount_type === 'seat_based' ? {seats: price.seat_tiers.minimum_seats} : {}),
    ...(k.custom_field_data ? {custom_field_data: {...k.custom_field_data}} : {}),
  })
  resetSubscriptionMeters(ctx.store, subscription, now)
  return subscription
}

/** Applies the confirmation to the stored checkout (inside a write): customer, subscription, order. */
function applyConfirm(ctx: Ctx, k: CheckoutRecord): Confirmed {
  const product = ctx.store.get('products', k.product_id)!
  const price = product.prices.find((p) => p.id === k.product_price_id)!
  const {customer, event} = confirmCustomer(ctx, k)
  const subscription = product.recurring_interval ? newSubscription(ctx, k, product, price, customer.id) : null
  const order = buildOrder(ctx.store.data, {
    now: ctx.now,
    customerId: customer.id,
    product,
    price,
    amount: k.amount,
    discountAmount: k.discount_amount,
    billingReason: subscription ? 'subscription_create' : 'purchase',
    subscriptionId: subscription?.id ?? null,
    checkoutId: k.id,
    billingName: k.customer_billing_name ?? k.customer_name,
    billingAddress: k.customer_billing_address,
    metadata: k.metadata,
    // Free checkouts are paid at once; paid ones after the emulated payment delay.
    // A free order needs no payment: it is paid at once, through the same settling as paid ones
    // (order.paid, benefit grants, checkout.updated).
    status: 'pending',
    paymentDelayMs: isFree(k) ? 0 : ctx.env.options.paymentDelayMs,
  })
  order.discount_id = k.discount_id
  if (k.custom_field_data) order.custom_field_data = {...k.custom_field_data}
  const discount = k.discount_id ? ctx.store.get('discounts', k.discount_id) : undefined
  if (discount) discount.redemptions_count++
  ctx.store.insert('orders', order)
  Object.assign(k, {status: 'confirmed', order_id: order.id, customer_id: customer.id, modified_at: iso(ctx.now)})
  return {checkout: k, customer, customerEvent: event, order, subscription}
}

/** Confirms the checkout; the customer gets a portal session, whose token the confirmation answer carries. */
export function confirm(ctx: Ctx, secret: string, input: AnyUpdate): {checkout: CheckoutRecord; sessionToken: string} {
  const find = () => findBySecret(ctx, secret)
  checkConfirmable(ctx, planUpdate(ctx, find(), input, true))
  const done = ctx.store.write(() => {
    const row = find()
    const next = planUpdate(ctx, row, input, true)
    checkConfirmable(ctx, next)
    Object.assign(row, next)
    const applied = applyConfirm(ctx, row)
    const session = ctx.store.insert('customer_sessions', {
      id: uuid(),
      created_at: iso(ctx.now),
      modified_at: null,
      token: token(TOKEN_PREFIXES.customer),
      expires_at: iso(ctx.now + ctx.env.options.sessionTtlMs),
      return_url: null,
      customer_id: applied.customer.id,
    })
    return {...applied, sessionToken: session.token}
  })
  // A customer change also reports the customer's state (with the new subscription).
  const owner = done.customerEvent === 'created' ? ownerOf(ctx, done.customer.id) : undefined
  if (owner) emitMember(ctx, 'created', owner)
  if (done.customerEvent) emitCustomerChange(ctx, done.customerEvent, done.customer)
  else if (done.subscription) emitCustomerStateChanged(ctx, done.customer.id)
  if (done.subscription) {
    const body = subscriptionViews.subscription(ctx.view, done.subscription)
    emit(ctx.env, 'subscription.created', body)
    emit(ctx.env, 'subscription.active', body)
  }
  emit(ctx.env, 'order.created', orderViews.order(ctx.view, done.order))
  emit(ctx.env, 'checkout.updated', present.checkout(ctx.view, done.checkout))
  return {checkout: done.checkout, sessionToken: done.sessionToken}
}
