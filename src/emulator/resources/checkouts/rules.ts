// Checkout rules shared by the organization's routes, the client routes and confirmation (server/polar/checkout/):
// request bodies, products and amounts, finding, creating and updating checkouts.
import {z} from '../../core/zod.js'

import {priceAmount, taxRate} from '../orders/build.js'
import {domainError, type HttpError, ruleValidation, type ValidationIssue} from '../../core/errors.js'
import {finder, found} from '../../core/toolkit.js'
import {emit, type Ctx} from '../../core/http.js'
import {token, TOKEN_PREFIXES, uuid} from '../../core/ids.js'
import type {Address} from '../../core/model.js'
import type {CheckoutRecord} from './model.js'
import type {CustomerRecord} from '../customers/model.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import type {SubscriptionRecord} from '../subscriptions/model.js'
import * as present from './present.js'
import {addressSchema, metadataSchema} from '../../core/validate.js'
import {billingChanges, customerByExternalId, customerById} from '../customers/routes.js'
import {applicableDiscount, discountAmount} from '../discounts/apply.js'
import {validateCustomFieldData} from '../custom-fields/data.js'

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000
const MAX_AMOUNT = 99_999_999
export const STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'] as const

export const httpUrl = () => z.url({protocol: /^https?$/})
const amount = () => z.int().min(0).max(MAX_AMOUNT)
const customFieldData = () => z.record(z.string(), z.unknown())

// Customer fields a checkout can be prefilled or updated with.
const customerFields = {
  customer_name: z.string().nullish(),
  customer_email: z.email().nullish(),
  customer_billing_name: z.string().nullish(),
  customer_billing_address: addressSchema.nullish(),
  customer_tax_id: z.string().nullish(),
  is_business_customer: z.boolean().nullish(),
}

export const checkoutCreate = z.object({
  products: z.array(z.uuid()).min(1),
  ...customerFields,
  customer_id: z.uuid().nullish(),
  external_customer_id: z.string().nullish(),
  /** Deprecated alias of `external_customer_id`. */
  customer_metadata: metadataSchema.default({}),
  metadata: metadataSchema.default({}),
  success_url: httpUrl().nullish(),
  return_url: httpUrl().nullish(),
  require_billing_address: z.boolean().default(false),
  allow_discount_codes: z.boolean().default(true),
  is_business_customer: z.boolean().default(false),
  amount: amount().nullish(),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/)
    .nullish(),
  discount_id: z.uuid().nullish(),
  custom_field_data: customFieldData().default({}),
})
type CheckoutCreate = z.output<typeof checkoutCreate>

export const checkoutUpdate = z.object({
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
  custom_field_data: customFieldData().nullish(),
})

export const publicUpdate = z.object({
  product_id: z.uuid().nullish(),
  amount: amount().nullish(),
  ...customerFields,
  discount_code: z.string().nullish(),
  custom_field_data: customFieldData().nullish(),
})

export const checkoutConfirm = publicUpdate.extend({confirmation_token_id: z.string().nullish()})

/** What any of the three update bodies may carry; absent keys are left alone. */
export type AnyUpdate = z.output<typeof publicUpdate> & Partial<z.output<typeof checkoutUpdate>>

export const iso = (ms: number) => new Date(ms).toISOString()

// ---------------------------------------------------------------------------------------------
// Products, prices and amounts

/** The products of `ids`, each existing and not archived; otherwise one 422 listing every bad entry. */
export function validProducts(ctx: Ctx, ids: string[]): ProductRecord[] {
  const issues: ValidationIssue[] = []
  const products: ProductRecord[] = []
  ids.forEach((id, i) => {
    const p = ctx.store.get('products', id)
    if (!p) issues.push({type: 'value_error', loc: ['body', 'products', i], msg: 'Product does not exist.', input: id})
    else if (p.is_archived) issues.push({type: 'value_error', loc: ['body', 'products', i], msg: 'Product is archived.', input: id})
    else products.push(p)
  })
  if (issues.length > 0) throw ruleValidation(issues)
  return products
}

export function activePrice(product: ProductRecord, currency?: string | null): PriceRecord | undefined {
  return product.prices.find((p) => !p.is_archived && (!currency || p.price_currency === currency))
}

function checkCustomAmount(price: PriceRecord, value: number): void {
  if (price.amount_type !== 'custom') return
  if (value < price.minimum_amount) {
    throw ruleValidation([
      {type: 'greater_than_equal', loc: ['body', 'amount'], msg: 'Amount is below minimum.', input: value, ctx: {ge: price.minimum_amount}},
    ])
  }
  if (price.maximum_amount !== null && value > price.maximum_amount) {
    throw ruleValidation([{type: 'less_than_equal', loc: ['body', 'amount'], msg: 'Amount is above maximum.', input: value, ctx: {le: price.maximum_amount}}])
  }
}

/** Free checkouts need no payment form, no tax and no billing details. */
export const isFree = (k: Pick<CheckoutRecord, 'amount' | 'discount_amount'>) => k.amount - k.discount_amount <= 0

/** Tax is 0 for free checkouts and unknown (null) until the billing country is known. */
function checkoutTax(k: CheckoutRecord): number | null {
  if (isFree(k)) return 0
  if (!k.customer_billing_address) return null
  return Math.round(((k.amount - k.discount_amount) * taxRate(k.customer_billing_address)) / 10_000)
}

export const hasFullAddress = (a: Address | null | undefined) => Boolean(a?.line1 && a.city && a.postal_code)

// ---------------------------------------------------------------------------------------------
// Finding checkouts

const isExpired = (k: CheckoutRecord, now: number) => Date.parse(k.expires_at) <= now

export const statusOf = (ctx: Ctx, k: CheckoutRecord) => present.checkoutStatus(ctx.view, k)

export const findCheckout = finder('checkouts')

/** Client routes: unknown secret is 404, a checkout past its expiry is 410. */
export function findBySecret(ctx: Ctx, secret: string): CheckoutRecord {
  const k = found(ctx.store.all('checkouts').find((c) => c.client_secret === secret))
  if (isExpired(k, ctx.now)) throw domainError(410, 'ExpiredCheckoutError', 'This checkout session has expired.')
  return k
}

// ---------------------------------------------------------------------------------------------
// Creating

/** The `[value, format]` tax id of a checkout's customer; 422s at the checkout's own fields. */
export function checkoutTaxId(value: string, address: Address | null | undefined): [string, string] {
  if (!address) {
    throw ruleValidation([{type: 'missing', loc: ['body', 'customer_billing_address'], msg: 'Country is required to validate tax ID.', input: null}])
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
export function newCheckout(ctx: Ctx, products: ProductRecord[], price: PriceRecord, fields: Partial<CheckoutRecord>): CheckoutRecord {
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
export function planCreate(ctx: Ctx, input: CheckoutCreate): CheckoutRecord {
  const products = validProducts(ctx, input.products)
  const product = products[0]!
  const price = activePrice(product, input.currency)
  if (!price) throw ruleValidation(['body', 'currency'], 'No price available for this currency.', input.currency)
  if (input.amount !== null && input.amount !== undefined) checkCustomAmount(price, input.amount)
  const discount = input.discount_id ? applicableDiscount(ctx, {id: input.discount_id}, product.id, price.price_currency) : null
  if (input.discount_id && !discount) throw ruleValidation(['body', 'discount_id'], 'Discount does not exist.', input.discount_id)
  if (input.customer_tax_id) checkoutTaxId(input.customer_tax_id, input.customer_billing_address)
  // the old `customer_external_id` is not in the published CheckoutCreate: ignored, as the service does
  const externalId = input.external_customer_id ?? null
  const customer = linkedCustomer(ctx, input, externalId)
  const address = input.customer_billing_address ?? null
  // every attached field is optional until the confirmation
  const customFields = validateCustomFieldData((id) => ctx.store.get('custom_fields', id), product.attached_custom_fields, input.custom_field_data, false)
  const requireAddress = input.require_billing_address || hasFullAddress(address) || Boolean(address?.state && !['US', 'CA'].includes(address.country))
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
    ...(Object.keys(customFields).length > 0 ? {custom_field_data: customFields} : {}),
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
  'customer_name',
  'customer_email',
  'customer_billing_name',
  'is_business_customer',
  'customer_metadata',
  'metadata',
  'allow_discount_codes',
  'require_billing_address',
  'success_url',
  'return_url',
] as const

/** The checkout after `input`, computed without touching the stored row; throws the service's errors. */
export function planUpdate(ctx: Ctx, k: CheckoutRecord, input: AnyUpdate, confirming = false): CheckoutRecord {
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
  // given data replaces the stored data; a confirmation enforces the required fields
  if (input.custom_field_data) {
    const product = ctx.store.get('products', next.product_id)
    next.custom_field_data = validateCustomFieldData(
      (id) => ctx.store.get('custom_fields', id),
      product?.attached_custom_fields,
      input.custom_field_data,
      confirming,
    )
  }
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
    return c !== undefined && c.deleted_at === null && c.email?.toLowerCase() === email
  }
  if (ctx.store.all('subscriptions').some((s) => BILLABLE.has(s.status) && owns(s))) {
    throw domainError(403, 'AlreadyActiveSubscriptionError', 'You already have an active subscription.')
  }
}

/** Runs `planUpdate` against the stored row inside a write and saves the result. */
export function saveUpdate(ctx: Ctx, find: () => CheckoutRecord, input: AnyUpdate): CheckoutRecord {
  planUpdate(ctx, find(), input)
  const k = ctx.store.write(() => {
    const row = find()
    Object.assign(row, planUpdate(ctx, row, input), {modified_at: iso(ctx.now)})
    return row
  })
  emit(ctx.env, 'checkout.updated', present.checkout(ctx.view, k))
  return k
}
