// Checkouts, their public client routes, checkout links and the checkout page
// (api-facts §3.1, §4.7). Confirming a checkout creates the customer, order and subscription.
import {z} from 'zod'

import {buildOrder, priceAmount, taxRate} from '../domain/orders.js'
import {domainError, HttpError, notFound, ruleValidation, type ValidationIssue} from '../errors.js'
import {emit, noContent, ok, type Ctx, type Reply, type Router} from '../http.js'
import {token, TOKEN_PREFIXES, uuid} from '../ids.js'
import {byField, listRows, textSearch} from '../list.js'
import type {
  Address, CheckoutLinkRecord, CheckoutRecord, CustomerRecord, OrderRecord, PriceRecord, ProductRecord, SubscriptionRecord,
} from '../model.js'
import * as present from '../present.js'
import {addressSchema, metadataSchema, parse, pathUuid} from '../validate.js'
import {billingChanges, customerByExternalId, customerById, emitCustomerChange} from './customers.js'
import {addInterval} from '../domain/periods.js'
import {emitCustomerStateChanged} from './subscriptions.js'
import {applicableDiscount, discountAmount} from './discounts.js'

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000
const MAX_AMOUNT = 99_999_999
const STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'] as const

const httpUrl = () => z.url({protocol: /^https?$/})
const amount = () => z.int().min(0).max(MAX_AMOUNT)

// Customer fields a checkout can be prefilled or updated with.
const customerFields = {
  customer_name: z.string().nullish(),
  customer_email: z.email().nullish(),
  customer_billing_name: z.string().nullish(),
  customer_billing_address: addressSchema.nullish(),
  customer_tax_id: z.string().nullish(),
  is_business_customer: z.boolean().nullish(),
}

const checkoutCreate = z.object({
  products: z.array(z.uuid()).min(1),
  ...customerFields,
  customer_id: z.uuid().nullish(),
  external_customer_id: z.string().nullish(),
  /** Deprecated alias of `external_customer_id`. */
  customer_external_id: z.string().nullish(),
  customer_metadata: metadataSchema.default({}),
  metadata: metadataSchema.default({}),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
  require_billing_address: z.boolean().default(false),
  allow_discount_codes: z.boolean().default(true),
  is_business_customer: z.boolean().default(false),
  amount: amount().nullish(),
  currency: z.string().regex(/^[a-z]{3}$/).nullish(),
  discount_id: z.uuid().nullish(),
})
type CheckoutCreate = z.output<typeof checkoutCreate>

const checkoutUpdate = z.object({
  product_id: z.uuid().nullish(),
  amount: amount().nullish(),
  ...customerFields,
  customer_metadata: metadataSchema.nullish(),
  metadata: metadataSchema.nullish(),
  discount_id: z.uuid().nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
})

const publicUpdate = z.object({
  product_id: z.uuid().nullish(),
  amount: amount().nullish(),
  ...customerFields,
  discount_code: z.string().nullish(),
})

const checkoutConfirm = publicUpdate.extend({confirmation_token_id: z.string().nullish()})

/** What any of the three update bodies may carry; absent keys are left alone. */
type AnyUpdate = z.output<typeof publicUpdate> & Partial<z.output<typeof checkoutUpdate>>

const linkCreate = z.object({
  products: z.array(z.uuid()).min(1),
  payment_processor: z.literal('stripe').optional(),
  label: z.string().nullish(),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
  allow_discount_codes: z.boolean().default(true),
  require_billing_address: z.boolean().default(false),
  discount_id: z.uuid().nullish(),
  metadata: metadataSchema.default({}),
})

const linkUpdate = z.object({
  products: z.array(z.uuid()).min(1).nullish(),
  label: z.string().nullish(),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
  allow_discount_codes: z.boolean().nullish(),
  require_billing_address: z.boolean().nullish(),
  discount_id: z.uuid().nullish(),
  metadata: metadataSchema.nullish(),
})

const iso = (ms: number) => new Date(ms).toISOString()

/** A PolarRequestValidationError with several issues or a type other than `value_error`. */
const ruleIssues = (detail: ValidationIssue[]) => new HttpError(422, {error: 'PolarRequestValidationError', detail})

// ---------------------------------------------------------------------------------------------
// Products, prices and amounts

/** The products of `ids`, each existing and not archived; otherwise one 422 listing every bad entry. */
function validProducts(ctx: Ctx, ids: string[]): ProductRecord[] {
  const issues: ValidationIssue[] = []
  const products: ProductRecord[] = []
  ids.forEach((id, i) => {
    const p = ctx.store.get('products', id)
    if (!p) issues.push({type: 'value_error', loc: ['body', 'products', i], msg: 'Product does not exist.', input: id})
    else if (p.is_archived) issues.push({type: 'value_error', loc: ['body', 'products', i], msg: 'Product is archived.', input: id})
    else products.push(p)
  })
  if (issues.length > 0) throw ruleIssues(issues)
  return products
}

function activePrice(product: ProductRecord, currency?: string | null): PriceRecord | undefined {
  return product.prices.find((p) => !p.is_archived && (!currency || p.price_currency === currency))
}

function checkCustomAmount(price: PriceRecord, value: number): void {
  if (price.amount_type !== 'custom') return
  if (value < price.minimum_amount) {
    throw ruleIssues([{type: 'greater_than_equal', loc: ['body', 'amount'], msg: 'Amount is below minimum.', input: value, ctx: {ge: price.minimum_amount}}])
  }
  if (price.maximum_amount !== null && value > price.maximum_amount) {
    throw ruleIssues([{type: 'less_than_equal', loc: ['body', 'amount'], msg: 'Amount is above maximum.', input: value, ctx: {le: price.maximum_amount}}])
  }
}

/** Free checkouts need no payment form, no tax and no billing details. */
const isFree = (k: Pick<CheckoutRecord, 'amount' | 'discount_amount'>) => k.amount - k.discount_amount <= 0

/** Tax is 0 for free checkouts and unknown (null) until the billing country is known. */
function checkoutTax(k: CheckoutRecord): number | null {
  if (isFree(k)) return 0
  if (!k.customer_billing_address) return null
  return Math.round(((k.amount - k.discount_amount) * taxRate(k.customer_billing_address)) / 10_000)
}

const hasFullAddress = (a: Address | null | undefined) => Boolean(a?.line1 && a.city && a.postal_code)

// ---------------------------------------------------------------------------------------------
// Finding checkouts

const isExpired = (k: CheckoutRecord, now: number) => Date.parse(k.expires_at) <= now

const statusOf = (ctx: Ctx, k: CheckoutRecord) => present.checkoutStatus(ctx.view, k)

function findCheckout(ctx: Ctx, id: string): CheckoutRecord {
  const k = ctx.store.get('checkouts', id)
  if (!k) throw notFound()
  return k
}

/** Client routes: unknown secret is 404, a checkout past its expiry is 410. */
function findBySecret(ctx: Ctx, secret: string): CheckoutRecord {
  const k = ctx.store.all('checkouts').find((c) => c.client_secret === secret)
  if (!k) throw notFound()
  if (isExpired(k, ctx.now)) throw domainError(410, 'ExpiredCheckoutError', 'This checkout session has expired.')
  return k
}

// ---------------------------------------------------------------------------------------------
// Creating

/** The `[value, format]` tax id of a checkout's customer; 422s at the checkout's own fields. */
function checkoutTaxId(value: string, address: Address | null | undefined): [string, string] {
  if (!address) {
    throw ruleIssues([{type: 'missing', loc: ['body', 'customer_billing_address'], msg: 'Country is required to validate tax ID.', input: null}])
  }
  try {
    return billingChanges(null, {billing_address: address, tax_id: value}).tax_id!
  } catch {
    throw ruleValidation(['body', 'customer_tax_id'], 'Invalid tax ID.', value)
  }
}

/** The customer a new checkout is linked to, if any (by id, or by external id when it exists). */
function linkedCustomer(ctx: Ctx, input: CheckoutCreate, externalId: string | null): CustomerRecord | null {
  if (input.customer_id) {
    const c = customerById(ctx, input.customer_id)
    if (!c) throw ruleValidation(['body', 'customer_id'], 'Customer does not exist.', input.customer_id)
    return c
  }
  return (externalId && customerByExternalId(ctx, externalId)) || null
}

/** A checkout row for `products` (first one selected) with the link's or request's settings. */
function newCheckout(ctx: Ctx, products: ProductRecord[], price: PriceRecord, fields: Partial<CheckoutRecord>): CheckoutRecord {
  const product = products[0]!
  const k: CheckoutRecord = {
    id: uuid(),
    created_at: iso(ctx.now),
    modified_at: null,
    status: 'open',
    client_secret: token(TOKEN_PREFIXES.checkout),
    expires_at: iso(ctx.now + CHECKOUT_TTL_MS),
    success_url: null,
    return_url: null,
    amount: priceAmount(price),
    discount_amount: 0,
    tax_amount: null,
    currency: price.price_currency,
    product_ids: products.map((p) => p.id),
    product_id: product.id,
    product_price_id: price.id,
    discount_id: null,
    subscription_id: null,
    customer_id: null,
    external_customer_id: null,
    customer_name: null,
    customer_email: null,
    customer_billing_name: null,
    customer_billing_address: null,
    customer_tax_id: null,
    customer_metadata: {},
    require_billing_address: false,
    allow_discount_codes: true,
    is_business_customer: false,
    metadata: {},
    order_id: null,
    ...fields,
  }
  const discount = k.discount_id ? ctx.store.get('discounts', k.discount_id) : undefined
  k.discount_amount = discount ? discountAmount(discount, k.amount, k.currency) : 0
  k.tax_amount = checkoutTax(k)
  return k
}

/** Validates a create request and returns the row to insert (not inserted yet). */
function planCreate(ctx: Ctx, input: CheckoutCreate): CheckoutRecord {
  const products = validProducts(ctx, input.products)
  const product = products[0]!
  const price = activePrice(product, input.currency)
  if (!price) throw ruleValidation(['body', 'currency'], 'No price available for this currency.', input.currency)
  if (input.amount !== null && input.amount !== undefined) checkCustomAmount(price, input.amount)
  const discount = input.discount_id ? applicableDiscount(ctx, {id: input.discount_id}, product.id, price.price_currency) : null
  if (input.discount_id && !discount) throw ruleValidation(['body', 'discount_id'], 'Discount does not exist.', input.discount_id)
  if (input.customer_tax_id) checkoutTaxId(input.customer_tax_id, input.customer_billing_address)
  const externalId = input.external_customer_id ?? input.customer_external_id ?? null
  const customer = linkedCustomer(ctx, input, externalId)
  const address = input.customer_billing_address ?? null
  const requireAddress =
    input.require_billing_address || hasFullAddress(address) || Boolean(address?.state && !['US', 'CA'].includes(address.country))
  return newCheckout(ctx, products, price, {
    amount: price.amount_type === 'custom' ? (input.amount ?? priceAmount(price)) : priceAmount(price),
    success_url: input.success_url ?? null,
    return_url: input.return_url ?? null,
    customer_id: customer?.id ?? null,
    external_customer_id: externalId,
    customer_name: input.customer_name ?? customer?.name ?? null,
    customer_email: input.customer_email ?? customer?.email ?? null,
    customer_billing_name: input.customer_billing_name ?? null,
    customer_billing_address: address ?? customer?.billing_address ?? null,
    customer_tax_id: input.customer_tax_id ?? customer?.tax_id?.[0] ?? null,
    customer_metadata: input.customer_metadata,
    require_billing_address: requireAddress,
    allow_discount_codes: input.allow_discount_codes,
    is_business_customer: input.is_business_customer,
    metadata: input.metadata,
    discount_id: discount?.id ?? null,
  })
}

// ---------------------------------------------------------------------------------------------
// Updating (core PATCH, client PATCH and confirm share these rules)

function notOpen(ctx: Ctx, k: CheckoutRecord): HttpError {
  return domainError(403, 'NotOpenCheckout', `Checkout ${k.id} is not open: ${statusOf(ctx, k)}`)
}

/** The product switch of an update: it must be one of the checkout's products and not archived. */
function switchProduct(ctx: Ctx, k: CheckoutRecord, productId: string): Partial<CheckoutRecord> {
  const product = k.product_ids.includes(productId) ? ctx.store.get('products', productId) : undefined
  if (!product) throw ruleValidation(['body', 'product_id'], 'Product is not available in this checkout.', productId)
  if (product.is_archived) throw ruleValidation(['body', 'product_id'], 'Product is archived.', productId)
  const price = activePrice(product)
  if (!price) throw ruleValidation(['body', 'product_id'], 'Product is archived.', productId)
  return {product_id: product.id, product_price_id: price.id, amount: priceAmount(price), currency: price.price_currency}
}

const SIMPLE_KEYS = [
  'customer_name', 'customer_email', 'customer_billing_name', 'is_business_customer', 'customer_metadata', 'metadata',
  'allow_discount_codes', 'require_billing_address', 'success_url', 'return_url',
] as const

/** The checkout after `input`, computed without touching the stored row; throws the service's errors. */
function planUpdate(ctx: Ctx, k: CheckoutRecord, input: AnyUpdate): CheckoutRecord {
  if (statusOf(ctx, k) !== 'open') throw notOpen(ctx, k)
  let next: CheckoutRecord = {...k}
  if (input.product_id) next = {...next, ...switchProduct(ctx, k, input.product_id)}
  const price = ctx.store.get('products', next.product_id)?.prices.find((p) => p.id === next.product_price_id)
  if (input.amount !== null && input.amount !== undefined && price?.amount_type === 'custom') {
    checkCustomAmount(price, input.amount)
    next.amount = input.amount
  }
  if (input.discount_id) {
    const d = applicableDiscount(ctx, {id: input.discount_id}, next.product_id, next.currency)
    if (!d) throw ruleValidation(['body', 'discount_id'], 'Discount does not exist.', input.discount_id)
    next.discount_id = d.id
  }
  if (input.discount_id === null) next.discount_id = null
  if (input.discount_code && k.allow_discount_codes) {
    const d = applicableDiscount(ctx, {code: input.discount_code}, next.product_id, next.currency)
    if (!d) throw ruleValidation(['body', 'discount_code'], 'Discount does not exist.', input.discount_code)
    next.discount_id = d.id
  }
  // a discount that no longer applies (another product or currency) is dropped, as the service does
  const kept = next.discount_id ? applicableDiscount(ctx, {id: next.discount_id}, next.product_id, next.currency) : null
  next.discount_id = kept?.id ?? null
  next.discount_amount = kept ? discountAmount(kept, next.amount, next.currency) : 0
  if (input.customer_billing_address) next.customer_billing_address = input.customer_billing_address
  if (input.customer_tax_id === null) next.customer_tax_id = null
  else if (input.customer_tax_id || next.customer_tax_id) {
    next.customer_tax_id = input.customer_tax_id ?? next.customer_tax_id
    checkoutTaxId(next.customer_tax_id!, next.customer_billing_address)
  }
  for (const key of SIMPLE_KEYS) {
    const value = input[key]
    if (value === undefined || (key === 'customer_email' && k.customer_id !== null)) continue
    ;(next as unknown as Record<string, unknown>)[key] = value ?? defaultOf(key)
  }
  next.tax_amount = checkoutTax(next)
  checkSubscriptionUniqueness(ctx, next)
  return next
}

/** What an explicit `null` resets a field to (non-nullable fields keep their defaults). */
function defaultOf(key: (typeof SIMPLE_KEYS)[number]): unknown {
  switch (key) {
    case 'customer_metadata':
    case 'metadata':
      return {}
    case 'allow_discount_codes':
      return true
    case 'is_business_customer':
    case 'require_billing_address':
      return false
    default:
      return null
  }
}

const BILLABLE = new Set(['active', 'trialing', 'past_due'])

/** One subscription per customer (the organization does not allow several): 403 otherwise. */
function checkSubscriptionUniqueness(ctx: Ctx, k: CheckoutRecord): void {
  const product = ctx.store.get('products', k.product_id)
  if (!product?.recurring_interval || (k.customer_id === null && k.customer_email === null)) return
  const email = k.customer_email?.toLowerCase()
  const owns = (s: SubscriptionRecord) => {
    if (k.customer_id !== null) return s.customer_id === k.customer_id
    const c = ctx.store.get('customers', s.customer_id)
    return c !== undefined && c.deleted_at === null && c.email.toLowerCase() === email
  }
  if (ctx.store.all('subscriptions').some((s) => BILLABLE.has(s.status) && owns(s))) {
    throw domainError(403, 'AlreadyActiveSubscriptionError', 'You already have an active subscription.')
  }
}

/** Runs `planUpdate` against the stored row inside a write and saves the result. */
function saveUpdate(ctx: Ctx, find: () => CheckoutRecord, input: AnyUpdate): CheckoutRecord {
  planUpdate(ctx, find(), input)
  const k = ctx.store.write(() => {
    const row = find()
    Object.assign(row, planUpdate(ctx, row, input), {modified_at: iso(ctx.now)})
    return row
  })
  emit(ctx.env, 'checkout.updated', present.checkout(ctx.view, k))
  return k
}

// ---------------------------------------------------------------------------------------------
// Confirming

/** Fields a confirmation cannot do without (api-facts §4.7); all problems reported at once. */
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
  if (issues.length > 0) throw ruleIssues(issues)
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
    ctx.store.all('customers').find((c) => c.deleted_at === null && c.email.toLowerCase() === email)
  const now = iso(ctx.now)
  if (!existing) {
    const customer = ctx.store.insert('customers', {
      id: uuid(), created_at: now, modified_at: null, metadata: k.customer_metadata, external_id: k.external_customer_id,
      email: k.customer_email!, email_verified: false, type: 'individual', name: k.customer_name,
      billing_name: k.customer_billing_name, billing_address: k.customer_billing_address, tax_id: taxIdOf(k), locale: null, deleted_at: null,
    })
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
  return ctx.store.insert('subscriptions', {
    id: uuid(), created_at: now, modified_at: null, amount: k.amount - k.discount_amount, currency: k.currency,
    recurring_interval: interval, recurring_interval_count: count, status: 'active',
    current_period_start: now, current_period_end: iso(addInterval(ctx.now, interval, count)),
    trial_start: null, trial_end: null, cancel_at_period_end: false, canceled_at: null, started_at: now, ends_at: null, ended_at: null,
    customer_id: customerId, product_id: product.id, discount_id: k.discount_id, checkout_id: k.id,
    customer_cancellation_reason: null, customer_cancellation_comment: null, metadata: k.metadata, price_ids: [price.id],
  })
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
  const discount = k.discount_id ? ctx.store.get('discounts', k.discount_id) : undefined
  if (discount) discount.redemptions_count++
  ctx.store.insert('orders', order)
  Object.assign(k, {status: 'confirmed', order_id: order.id, customer_id: customer.id, modified_at: iso(ctx.now)})
  return {checkout: k, customer, customerEvent: event, order, subscription}
}

function confirm(ctx: Ctx, secret: string, input: AnyUpdate): CheckoutRecord {
  const find = () => findBySecret(ctx, secret)
  checkConfirmable(ctx, planUpdate(ctx, find(), input))
  const done = ctx.store.write(() => {
    const row = find()
    const next = planUpdate(ctx, row, input)
    checkConfirmable(ctx, next)
    Object.assign(row, next)
    return applyConfirm(ctx, row)
  })
  // A customer change also reports the customer's state (with the new subscription).
  if (done.customerEvent) emitCustomerChange(ctx, done.customerEvent, done.customer)
  else if (done.subscription) emitCustomerStateChanged(ctx, done.customer.id)
  if (done.subscription) {
    const body = present.subscription(ctx.view, done.subscription)
    emit(ctx.env, 'subscription.created', body)
    emit(ctx.env, 'subscription.active', body)
  }
  emit(ctx.env, 'order.created', present.order(ctx.view, done.order))
  emit(ctx.env, 'checkout.updated', present.checkout(ctx.view, done.checkout))
  return done.checkout
}

// ---------------------------------------------------------------------------------------------
// Checkout links

function findLink(ctx: Ctx, id: string): CheckoutLinkRecord {
  const link = ctx.store.get('checkout_links', id)
  if (!link) throw notFound()
  return link
}

const linkDiscountError = (id: string) => ruleValidation(['body', 'discount_id'], 'Discount does not exist or is not applicable to this product.', id)

/** A link's discount must exist, be redeemable and apply to each of its products (in its price's currency). */
function linkDiscount(ctx: Ctx, id: string, productIds: string[]): string {
  const applies = productIds.every((pid) => {
    const price = activePrice(ctx.store.get('products', pid)!)
    return price !== undefined && applicableDiscount(ctx, {id}, pid, price.price_currency) !== null
  })
  if (!applies) throw linkDiscountError(id)
  return id
}

/** Metadata a checkout-link visit may add from its query string. */
const LINK_QUERY_METADATA = ['reference_id', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term']

/** Opens a checkout from a link and redirects to it (the link's public `url`). */
function redirectFromLink(ctx: Ctx): Reply {
  const link = ctx.store.all('checkout_links').find((l) => l.client_secret === ctx.params.id)
  if (!link) throw notFound()
  const products = link.product_ids.map((id) => ctx.store.get('products', id)).filter((p) => p !== undefined && !p.is_archived) as ProductRecord[]
  const price = products[0] && activePrice(products[0])
  if (!price) throw ruleValidation(['body', 'products'], 'No valid products.', link.product_ids)
  const metadata = {...link.metadata}
  for (const key of LINK_QUERY_METADATA) {
    const value = ctx.query.get(key)
    if (value && !(key in metadata)) metadata[key] = value
  }
  const k = ctx.store.write(() =>
    ctx.store.insert(
      'checkouts',
      newCheckout(ctx, products, price, {
        success_url: link.success_url, return_url: link.return_url, allow_discount_codes: link.allow_discount_codes,
        require_billing_address: link.require_billing_address, metadata,
        discount_id: link.discount_id && applicableDiscount(ctx, {id: link.discount_id}, price.product_id, price.price_currency) ? link.discount_id : null,
      }),
    ),
  )
  const body = present.checkout(ctx.view, k)
  emit(ctx.env, 'checkout.created', body)
  return {status: 307, headers: {location: body.url}, body: null}
}

// ---------------------------------------------------------------------------------------------
// The checkout page

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{color:#666}label{display:block;margin:.6rem 0}
input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1.2rem}#error{color:#b00020}</style>
</head><body>${body}</body></html>`
}

const CONFIRM_SCRIPT = `document.getElementById('confirm').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = new FormData(event.target)
  const body = {customer_email: form.get('email'), customer_name: form.get('name') || null}
  if (form.get('country')) body.customer_billing_address = {country: String(form.get('country')).toUpperCase()}
  const res = await fetch(event.target.dataset.action, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
  if (res.ok) location.reload()
  else document.getElementById('error').textContent = JSON.stringify((await res.json()).detail)
})`

function checkoutPage(ctx: Ctx): Reply {
  const k = ctx.store.all('checkouts').find((c) => c.client_secret === ctx.params.client_secret)
  const html = (status: number, data: string): Reply => ({status, raw: {contentType: 'text/html; charset=utf-8', data}})
  if (!k) return html(404, page('Checkout not found', '<h1>Checkout not found</h1>'))
  const product = ctx.store.get('products', k.product_id)
  const status = statusOf(ctx, k)
  const total = k.amount - k.discount_amount + (k.tax_amount ?? 0)
  const org = ctx.store.data.organization.name
  const form =
    status !== 'open'
      ? ''
      : `<form id="confirm" data-action="/v1/checkouts/client/${encodeURIComponent(k.client_secret)}/confirm">
<label>Email <input name="email" type="email" required value="${escapeHtml(k.customer_email ?? '')}"></label>
<label>Name <input name="name" value="${escapeHtml(k.customer_name ?? '')}"></label>
<label>Country (2 letters) <input name="country" maxlength="2" value="${escapeHtml(k.customer_billing_address?.country ?? '')}"></label>
<button type="submit">Pay ${escapeHtml(money(total, k.currency))}</button><p id="error"></p></form>
<script>${CONFIRM_SCRIPT}</script>`
  return html(
    200,
    page(
      `Checkout - ${org}`,
      `<h1>${escapeHtml(org)}</h1>
<dl><dt>Product</dt><dd>${escapeHtml(product?.name ?? '(deleted product)')}</dd>
<dt>Amount</dt><dd>${escapeHtml(money(total, k.currency))}</dd>
<dt>Status</dt><dd id="status">${escapeHtml(status)}</dd></dl>${form}`,
    ),
  )
}

// ---------------------------------------------------------------------------------------------

function externalIdOf(ctx: Ctx, k: CheckoutRecord): string | null {
  return (k.customer_id ? ctx.store.get('customers', k.customer_id)?.external_id : null) ?? k.external_customer_id
}

export function register(r: Router): void {
  r.get('/checkouts/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.all('checkouts'),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            product_id: byField('uuid', (k: CheckoutRecord) => k.product_id),
            customer_id: byField('uuid', (k: CheckoutRecord) => k.customer_id),
            external_customer_id: byField('string', (k: CheckoutRecord) => externalIdOf(ctx, k)),
            status: byField(STATUSES, (k: CheckoutRecord) => statusOf(ctx, k)),
            query: textSearch((k: CheckoutRecord) => k.customer_email),
          },
          sorts: {created_at: (k) => k.created_at, expires_at: (k) => k.expires_at, status: (k) => statusOf(ctx, k)},
          defaultSort: ['-created_at'],
        },
        (k) => present.checkout(ctx.view, k),
      ),
    ),
  )

  r.post('/checkouts/', 'organization', (ctx) => {
    const input = parse(checkoutCreate, ctx.body)
    planCreate(ctx, input)
    const k = ctx.store.write(() => ctx.store.insert('checkouts', planCreate(ctx, input)))
    const body = present.checkout(ctx.view, k)
    emit(ctx.env, 'checkout.created', body)
    return ok(body, 201)
  })

  r.get('/checkouts/:id', 'organization', (ctx) => ok(present.checkout(ctx.view, findCheckout(ctx, pathUuid(ctx.params)))))

  r.patch('/checkouts/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    const input = parse(checkoutUpdate, ctx.body)
    return ok(present.checkout(ctx.view, saveUpdate(ctx, () => findCheckout(ctx, id), input)))
  })

  r.get('/checkouts/client/:client_secret', 'none', (ctx) => ok(present.checkout(ctx.view, findBySecret(ctx, ctx.params.client_secret!))))

  r.patch('/checkouts/client/:client_secret', 'none', (ctx) => {
    const secret = ctx.params.client_secret!
    const input = parse(publicUpdate, ctx.body)
    return ok(present.checkout(ctx.view, saveUpdate(ctx, () => findBySecret(ctx, secret), input)))
  })

  r.post('/checkouts/client/:client_secret/confirm', 'none', (ctx) => {
    const input = parse(checkoutConfirm, ctx.body)
    const secret = ctx.params.client_secret!
    return ok(present.checkout(ctx.view, confirm(ctx, secret, input)))
  })

  r.get('/checkout-links/', 'organization', (ctx) =>
    ok(
      listRows(
        ctx.store.all('checkout_links'),
        ctx.query,
        {
          filters: {
            organization_id: byField('uuid', () => ctx.store.data.organization.id),
            product_id: {type: 'uuid', match: (l: CheckoutLinkRecord, values) => values.some((v) => l.product_ids.includes(String(v)))},
          },
          sorts: {
            created_at: (l) => l.created_at,
            label: (l) => l.label,
            success_url: (l) => l.success_url,
            allow_discount_codes: (l) => l.allow_discount_codes,
          },
          defaultSort: ['created_at'],
          metadata: (l) => l.metadata,
        },
        (l) => present.checkoutLink(ctx.view, l),
      ),
    ),
  )

  r.post('/checkout-links/', 'organization', (ctx) => {
    const input = parse(linkCreate, ctx.body)
    validProducts(ctx, input.products)
    const discountId = input.discount_id ? linkDiscount(ctx, input.discount_id, input.products) : null
    const link = ctx.store.write(() => {
      validProducts(ctx, input.products)
      const now = iso(ctx.now)
      return ctx.store.insert('checkout_links', {
        id: uuid(), created_at: now, modified_at: null, client_secret: token(TOKEN_PREFIXES.checkoutLink),
        label: input.label ?? null, success_url: input.success_url ?? null, return_url: input.return_url ?? null,
        allow_discount_codes: input.allow_discount_codes, require_billing_address: input.require_billing_address,
        discount_id: discountId, metadata: input.metadata, product_ids: input.products,
      })
    })
    return ok(present.checkoutLink(ctx.view, link), 201)
  })

  r.get('/checkout-links/:id', 'organization', (ctx) => ok(present.checkoutLink(ctx.view, findLink(ctx, pathUuid(ctx.params)))))

  r.patch('/checkout-links/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    const input = parse(linkUpdate, ctx.body)
    findLink(ctx, id)
    if (input.products) validProducts(ctx, input.products)
    const current = findLink(ctx, id)
    if (input.discount_id) linkDiscount(ctx, input.discount_id, input.products ?? current.product_ids)
    const link = ctx.store.write(() => {
      const l = findLink(ctx, id)
      if (input.discount_id) l.discount_id = input.discount_id
      if (input.products) l.product_ids = validProducts(ctx, input.products).map((p) => p.id)
      if (input.label !== undefined) l.label = input.label
      if (input.success_url !== undefined) l.success_url = input.success_url
      if (input.return_url !== undefined) l.return_url = input.return_url
      if (input.discount_id === null) l.discount_id = null
      if (typeof input.allow_discount_codes === 'boolean') l.allow_discount_codes = input.allow_discount_codes
      if (typeof input.require_billing_address === 'boolean') l.require_billing_address = input.require_billing_address
      if (input.metadata) l.metadata = input.metadata
      l.modified_at = iso(ctx.now)
      return l
    })
    return ok(present.checkoutLink(ctx.view, link))
  })

  r.delete('/checkout-links/:id', 'organization', (ctx) => {
    const id = pathUuid(ctx.params)
    findLink(ctx, id)
    ctx.store.write(() => ctx.store.remove('checkout_links', id))
    return noContent()
  })

  r.get('/checkout-links/:id/redirect', 'none', redirectFromLink)

  r.addAbsolute('GET', '/checkout/:client_secret', 'none', checkoutPage)
  r.addAbsolute('GET', '/checkout/:client_secret/confirmation', 'none', checkoutPage)
}
