// License keys and their activations: stored records -> wire shapes (server/polar/license_key/schemas.py), as each
// API version has them: 2026-10 adds the key's member (`member_id`, `member`); 2027-01 adds, to the keys
// of a validation and of an activation (ValidatedLicenseKey, GrantedLicenseKey in SDK 1.0.1), the
// subscription and the order the key was granted for.
import {type View, orgId, since} from '../../core/present.js'
import type {LicenseKeyActivationRecord, LicenseKeyRecord} from './model.js'
import {customer} from '../customers/present.js'
import type {CustomerRecord} from '../customers/model.js'
import {orderStatus} from '../orders/present.js'

export function licenseKey(v: View, k: LicenseKeyRecord) {
  const c = v.store.get('customers', k.customer_id)
  return {
    id: k.id,
    created_at: k.created_at,
    modified_at: k.modified_at,
    organization_id: orgId(v),
    customer_id: k.customer_id,
    customer: c ? licenseKeyCustomer(v, c) : null,
    // the emulator has no members (the organization's member model is off): a key never has one
    ...(since(v, '2026-10') ? {member_id: null, member: null} : {}),
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

/** A granted key as a validation or an activation answers it: from 2027-01 with its subscription and order. */
export function grantedLicenseKey(v: View, k: LicenseKeyRecord) {
  if (!since(v, '2027-01')) return licenseKey(v, k)
  const grant = v.store.all('benefit_grants').find((g) => (g.properties as {license_key_id?: string}).license_key_id === k.id)
  const s = grant?.subscription_id ? v.store.get('subscriptions', grant.subscription_id) : undefined
  const o = grant?.order_id ? v.store.get('orders', grant.order_id) : undefined
  const status = o ? orderStatus(o, v.now) : undefined
  return {
    ...licenseKey(v, k),
    subscription_id: s?.id ?? null,
    subscription: s
      ? {
          id: s.id,
          status: s.status,
          current_period_start: s.current_period_start,
          current_period_end: s.current_period_end,
          cancel_at_period_end: s.cancel_at_period_end,
          ends_at: s.ends_at,
        }
      : null,
    order_id: o?.id ?? null,
    order: o ? {id: o.id, created_at: o.created_at, status, paid: status === 'paid' || status === 'refunded' || status === 'partially_refunded'} : null,
  }
}

export function licenseKeyActivation(a: LicenseKeyActivationRecord) {
  return {id: a.id, license_key_id: a.license_key_id, label: a.label, meta: a.meta, created_at: a.created_at, modified_at: a.modified_at}
}

/** LicenseKeyCustomer's fields, in its order (first_user_event_at included: every version requires it). */
const CUSTOMER_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'metadata',
  'external_id',
  'email',
  'email_verified',
  'type',
  'name',
  'billing_name',
  'billing_address',
  'tax_id',
  'locale',
  'organization_id',
  'default_payment_method_id',
  'deleted_at',
  'first_user_event_at',
  'avatar_url',
] as const

/** The key holder as a license key shows it (LicenseKeyCustomer): exactly that schema's fields of the customer. */
function licenseKeyCustomer(v: View, c: CustomerRecord) {
  const full = customer(v, c) as Record<string, unknown>
  return Object.fromEntries(CUSTOMER_KEYS.map((key) => [key, full[key] ?? null]))
}
