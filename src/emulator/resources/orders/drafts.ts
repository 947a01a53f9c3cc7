// Draft orders and their off-session charges (server/polar/order: create_draft_order, finalize_order):
// POST /orders/ makes a draft of a one-time, fixed-price (or free) product for a customer, with its tax
// and no invoice number (`order.created`); POST /orders/{id}/finalize charges the customer's saved
// payment method at once: the order is paid, gets its invoice number, its benefits are granted
// (`order.updated`, `order.paid`). A failed finalize leaves the draft as it was.
import {z} from '../../core/zod.js'

import {domainError, ruleValidation} from '../../core/errors.js'
import {checkOrganization, emit, ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {finder, pathId} from '../../core/toolkit.js'
import {metadataSchema, parse} from '../../core/validate.js'
import {validateCustomFieldData} from '../custom-fields/data.js'
import {savedCardOf} from '../payments/derive.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import {buildOrder, invoiceNumber} from './build.js'
import * as present from './present.js'

const findOrder = finder('orders')

const orderCreate = z.object({
  organization_id: z.uuid().nullish(),
  customer_id: z.uuid(),
  product_id: z.uuid(),
  currency: z.string().nullish(),
  amount: z.number().int().min(0).nullish(),
  description: z.string().max(500).nullish(),
  metadata: metadataSchema.optional(),
  custom_field_data: z.record(z.string(), z.unknown()).optional(),
})

const orderFinalize = z.object({payment_method_id: z.uuid().nullish()}).nullish()

/** The processor's bounds of a positive charge, in the smallest unit (as the service's checks, for every currency). */
const MINIMUM_AMOUNT = 50
const MAXIMUM_AMOUNT = 99_999_999

const money = (amount: number, currency: string) => new Intl.NumberFormat('en-US', {style: 'currency', currency: currency.toUpperCase()}).format(amount / 100)

/** The service's refusal of a draft order for an organization that has not opted in (403). */
function offSessionChargesNotEnabled(ctx: Ctx) {
  const id = ctx.store.data.organization.id
  return domainError(403, 'OffSessionChargesNotEnabled', `Off-session charges are not enabled for this organization (${id}). Contact Polar support to opt in.`)
}

const productRefused = (msg: string, input: string) => ruleValidation(['body', 'product_id'], msg, input)

/** The product's price to charge, or the service's 422: one-time, no seats, only fixed (or free) prices. */
function chargeablePrice(product: ProductRecord, currency: string, asked: boolean): PriceRecord {
  if (product.recurring_interval) {
    throw productRefused('Subscription products are not supported by the off-session charge API. Use a one-time product.', product.id)
  }
  const active = product.prices.filter((p) => !p.is_archived)
  if (active.some((p) => p.amount_type === 'seat_based'))
    throw productRefused('Seat-based products are not supported by the off-session charge API.', product.id)
  const fixed = active.filter((p) => p.amount_type !== 'metered_unit')
  if (fixed.length === 0) throw productRefused('Product has no chargeable static prices.', product.id)
  if (fixed.some((p) => p.amount_type !== 'fixed')) throw productRefused('Off-session charges only support fixed-price products.', product.id)
  const price = fixed.find((p) => p.price_currency === currency)
  if (!price) {
    const msg = asked
      ? `Product has no price in currency '${currency}'.`
      : `Product is not priced in the organization's default currency ('${currency}'); specify a currency to charge in.`
    throw ruleValidation(['body', 'currency'], msg, asked ? currency : null)
  }
  return price
}

function checkAmount(amount: number | null | undefined, currency: string): void {
  if (amount === null || amount === undefined || amount === 0) return
  if (amount < MINIMUM_AMOUNT) {
    throw ruleValidation([
      {
        type: 'greater_than_equal',
        loc: ['body', 'amount'],
        msg: `Amount must be at least ${money(MINIMUM_AMOUNT, currency)}.`,
        input: amount,
        ctx: {ge: MINIMUM_AMOUNT},
      },
    ])
  }
  if (amount > MAXIMUM_AMOUNT) {
    throw ruleValidation([
      {
        type: 'less_than_equal',
        loc: ['body', 'amount'],
        msg: `Amount must be at most ${money(MAXIMUM_AMOUNT, currency)}.`,
        input: amount,
        ctx: {le: MAXIMUM_AMOUNT},
      },
    ])
  }
}

function createDraft(ctx: Ctx): Reply {
  const input = parse(orderCreate, ctx.body)
  checkOrganization(ctx, input.organization_id)
  if (!ctx.store.data.organization.off_session_charges_enabled) throw offSessionChargesNotEnabled(ctx)
  const product = ctx.store.get('products', input.product_id)
  if (!product) throw productRefused('Product does not exist.', input.product_id)
  const currency = input.currency?.toLowerCase() ?? 'usd'
  const price = chargeablePrice(product, currency, input.currency != null)
  const customer = ctx.store.get('customers', input.customer_id)
  if (!customer || customer.deleted_at) throw ruleValidation(['body', 'customer_id'], 'Customer does not exist.', input.customer_id)
  checkAmount(input.amount, currency)
  const customFields = validateCustomFieldData(
    (id) => ctx.store.get('custom_fields', id),
    product.attached_custom_fields,
    (input.custom_field_data ?? {}) as never,
    false,
  )
  // the tax of a draft is computed once and kept: without the customer's billing address it cannot be
  if (!customer.billing_address) {
    throw ruleValidation(
      ['body', 'customer_id'],
      'Tax could not be calculated for this order. The customer needs a complete, valid billing address before an off-session charge can be created.',
      input.customer_id,
    )
  }
  const amount = input.amount ?? (price.amount_type === 'fixed' ? price.price_amount : 0)
  const order = ctx.store.write(() => {
    const o = buildOrder(ctx.store.data, {
      now: ctx.now,
      customerId: customer.id,
      product,
      price,
      status: 'draft',
      billingReason: 'purchase',
      billingName: customer.billing_name,
      billingAddress: customer.billing_address,
      metadata: input.metadata ?? {},
      lines: [{label: input.description ?? product.name, amount, priceId: price.id}],
      invoiceNumber: false,
    })
    o.custom_field_data = customFields
    ctx.store.insert('orders', o)
    return o
  })
  const body = present.order(ctx.view, order)
  emit(ctx.env, 'order.created', body)
  return ok(body, 201)
}

const paymentFailed = () => domainError(402, 'PaymentFailed', 'Payment failed with reason: missing_payment_method.')

function finalize(ctx: Ctx): Reply {
  const id = pathId(ctx)
  const input = parse(orderFinalize, ctx.body)
  const draft = findOrder(ctx, id)
  if (draft.status !== 'draft') {
    const status = present.orderStatus(draft, ctx.now)
    throw domainError(412, 'OrderNotDraft', `Order ${draft.id} is not in draft status (current: ${status}). Only draft orders can be modified or finalized.`)
  }
  if (!ctx.store.data.organization.off_session_charges_enabled) throw offSessionChargesNotEnabled(ctx)
  // the payment method asked for, which must be the customer's, else the customer's default one
  const card = savedCardOf(ctx.view, draft.customer_id)
  if (card === null || (input?.payment_method_id && input.payment_method_id !== card)) throw paymentFailed()
  // the card's issuer may decline, or ask for an authentication no one is there to give
  const outcome = ctx.store.data.card_outcomes[draft.customer_id]
  if (outcome === 'decline') throw domainError(402, 'PaymentFailed', 'Payment failed with reason: card_error.')
  if (outcome === 'authentication_required') {
    throw domainError(
      402,
      'PaymentActionRequired',
      `Order ${draft.id} payment requires customer authentication (e.g. 3DS challenge); off-session charge cannot complete.`,
    )
  }
  ctx.store.write(() => {
    const o = findOrder(ctx, id)
    const at = new Date(ctx.now).toISOString()
    o.status = 'pending'
    o.paid_at = at
    o.modified_at = at
    o.invoice_number = invoiceNumber(ctx.store.data)
  })
  // the charge succeeds at once: the sweep marks it paid and raises order.updated and order.paid (and grants)
  ctx.env.settle()
  return ok(present.order(ctx.view, findOrder(ctx, id)))
}

export function registerDrafts(r: Router): void {
  r.post('/orders/', 'organization', createDraft)
  r.post('/orders/:id/finalize', 'organization', finalize)
}
