// The checkout as anyone holding its client secret sees it (CheckoutPublic, CheckoutPublicConfirmed):
// exactly the fields of the service's public schema. No metadata, no external customer id, and the
// products' benefits without their configuration (BenefitPublic).
import type {View} from '../../core/present.js'
import {customerProduct, publicPrice, subscriberOrganization} from '../portal/present.js'
import {price} from '../products/present.js'
import type {CheckoutRecord} from './model.js'
import {checkout} from './present.js'

const PUBLIC_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'custom_field_data',
  'payment_processor',
  'status',
  'client_secret',
  'url',
  'expires_at',
  'success_url',
  'return_url',
  'embed_origin',
  'amount',
  'seats',
  'min_seats',
  'max_seats',
  'units',
  'min_units',
  'max_units',
  'discount_amount',
  'net_amount',
  'tax_amount',
  'tax_behavior',
  'total_amount',
  'currency',
  'allow_trial',
  'active_trial_interval',
  'active_trial_interval_count',
  'trial_end',
  'organization_id',
  'product_id',
  'product_price_id',
  'discount_id',
  'allow_discount_codes',
  'require_billing_address',
  'is_discount_applicable',
  'is_free_product_price',
  'is_payment_required',
  'is_payment_setup_required',
  'is_payment_form_required',
  'customer_id',
  'is_business_customer',
  'customer_name',
  'customer_email',
  'customer_ip_address',
  'customer_billing_name',
  'customer_billing_address',
  'customer_tax_id',
  'locale',
  'payment_method_type',
  'payment_processor_metadata',
  'billing_address_fields',
  'product_price',
  'prices',
  'discount',
  'attached_custom_fields',
] as const

export function publicCheckout(v: View, k: CheckoutRecord) {
  const full: Record<string, unknown> = checkout(v, k)
  const shown = Object.fromEntries(PUBLIC_KEYS.filter((key) => key in full).map((key) => [key, full[key]]))
  const products = k.product_ids.map((id) => v.store.get('products', id)).filter((p) => p !== undefined)
  const p = v.store.get('products', k.product_id)
  return {
    ...shown,
    products: products.map((x) => customerProduct(v, x, false)),
    product: p ? customerProduct(v, p, false) : null,
    product_price: (() => {
      const pp = p?.prices.find((x) => x.id === k.product_price_id)
      return pp && p ? publicPrice(price(pp, p)) : null
    })(),
    prices: Object.fromEntries(products.map((x) => [x.id, x.prices.filter((y) => !y.is_archived).map((y) => publicPrice(price(y, x)))])),
    organization: subscriberOrganization(v),
  }
}

/**
 * The answer to a confirmation: the public checkout, `confirmed` even when the payment already went
 * through (the schema's status is that literal), and a portal token for the customer.
 */
export function confirmedCheckout(v: View, k: CheckoutRecord, customerSessionToken: string | null) {
  return {...publicCheckout(v, k), status: 'confirmed' as const, customer_session_token: customerSessionToken}
}
