// Checkout sessions and checkout links: stored records -> wire shapes (server/polar/checkout/schemas.py).
import {embeddedDiscount} from '../discounts/present.js'
import {type View, orgId} from '../../core/present.js'
import type {CheckoutLinkRecord, CheckoutRecord} from './model.js'
import type {OrderStatus} from '../orders/model.js'
import {orderStatus} from '../orders/present.js'
import {price, product} from '../products/present.js'

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
  const shownProduct = p ? product(v, p) : null
  const pp = p?.prices.find((x) => x.id === k.product_price_id)
  const net = k.amount - k.discount_amount
  const isFree = pp?.amount_type === 'fixed' && pp.price_amount === 0
  return {
    id: k.id,
    created_at: k.created_at,
    modified_at: k.modified_at,
    custom_field_data: k.custom_field_data ?? {},
    payment_processor: 'stripe',
    status: checkoutStatus(v, k),
    client_secret: k.client_secret,
    url: `${v.origin}/checkout/${k.client_secret}`,
    expires_at: k.expires_at,
    success_url: (k.success_url ?? `${v.origin}/checkout/${k.client_secret}/confirmation`).replace('{CHECKOUT_ID}', k.id),
    return_url: k.return_url,
    embed_origin: null,
    amount: k.amount,
    // a seat-based price is bought at its minimum number of seats (the checkout's seats are not yet chosen here)
    seats: pp?.amount_type === 'seat_based' ? pp.seat_tiers.minimum_seats : null,
    min_seats: pp?.amount_type === 'seat_based' ? pp.seat_tiers.minimum_seats : null,
    max_seats: pp?.amount_type === 'seat_based' ? pp.seat_tiers.maximum_seats : null,
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
    payment_method_type: null,
    billing_address_fields: {country: 'required', state: 'optional', city: 'optional', postal_code: 'optional', line1: 'optional', line2: 'optional'},
    external_customer_id: k.external_customer_id,
    customer_metadata: k.customer_metadata,
    metadata: k.metadata,
    subscription_id: k.subscription_id,
    products: products.map((x) => product(v, x)),
    product: shownProduct,
    product_price: pp && p ? price(pp, p, v.store) : null,
    prices: Object.fromEntries(products.map((x) => [x.id, x.prices.filter((y) => !y.is_archived).map((y) => price(y, x, v.store))])),
    discount: embeddedDiscount(v, k.discount_id),
    // the selected product's custom fields, asked on the checkout
    attached_custom_fields: shownProduct?.attached_custom_fields ?? [],
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
    products: l.product_ids
      .map((id) => v.store.get('products', id))
      .filter((p) => p !== undefined)
      .map((p) => product(v, p)),
    discount: embeddedDiscount(v, l.discount_id),
    url: `${v.origin}/v1/checkout-links/${l.client_secret}/redirect`,
  }
}
