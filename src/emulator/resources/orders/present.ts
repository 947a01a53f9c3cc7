// Orders (and their invoices): stored records -> wire shapes (server/polar/order/schemas.py).
import {embeddedDiscount} from '../discounts/present.js'
import {type View, embedded} from '../../core/present.js'
import type {OrderRecord} from './model.js'
import {orderAmounts, orderStatus} from './amounts.js'
import type {PriceRecord, ProductRecord} from '../products/model.js'
import {customer} from '../customers/present.js'
import {price, productCore} from '../products/present.js'
import {subscriptionCore} from '../subscriptions/present.js'
import type {Presented} from '../../core/present.js'

export {orderAmounts, orderStatus}

export const isInvoiceGenerated = (o: OrderRecord, now: number) => o.invoice_ready_at !== null && Date.parse(o.invoice_ready_at) <= now

function findPrice(v: View, priceId: string | null): {price: PriceRecord; product: ProductRecord} | undefined {
  if (!priceId) return undefined
  for (const p of v.store.all('products')) {
    const found = p.prices.find((x) => x.id === priceId)
    if (found) return {price: found, product: p}
  }
  return undefined
}

/** Newer than the document: SDK 1.0.1's orders carry `units`; and the service's hidden deprecated keys. */
interface NewerOrderKeys {
  units: number | null
  amount: number
  from_balance_amount: number
  product_price_id: string | null
  product_price: unknown
  user_id: string
  user: {id: string; email: string; public_name: string} | null
}

export function order(v: View, o: OrderRecord): Presented<'Order'> & NewerOrderKeys {
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
    receipt_number: status === 'draft' || status === 'pending' ? null : (o.invoice_number?.replace(/-(\d+)$/, '-R$1') ?? null),
    is_invoice_generated: isInvoiceGenerated(o, v.now),
    seats: null,
    units: null,
    customer_id: o.customer_id,
    product_id: o.product_id,
    discount_id: o.discount_id,
    subscription_id: o.subscription_id,
    checkout_id: o.checkout_id,
    next_payment_attempt_at: o.next_payment_attempt_at ?? null,
    metadata: o.metadata,
    custom_field_data: (o.custom_field_data ?? {}) as Presented<'Order'>['custom_field_data'],
    platform_fee_amount: 0,
    platform_fee_currency: null,
    customer: embedded(c ? customer(v, c) : null),
    product: embedded(p ? productCore(v, p) : null),
    discount: embeddedDiscount(v, o.discount_id) as Presented<'Order'>['discount'],
    subscription: s ? subscriptionCore(s) : null,
    items: o.items.map((i) => ({...i, start_timestamp: i.start_timestamp ?? null, end_timestamp: i.end_timestamp ?? null})),
    description: o.items.map((i) => i.label).join(', ') || (p?.name ?? ''),
    // hidden deprecated keys, same values as their replacements
    amount: amounts.net_amount,
    from_balance_amount: o.applied_balance_amount,
    product_price_id: firstPrice,
    product_price: deprecatedPrice ? price(deprecatedPrice.price, deprecatedPrice.product) : null,
    user_id: o.customer_id,
    user: c ? {id: c.id, email: c.email ?? '', public_name: c.name ?? c.email ?? ''} : null,
  }
}
