// License keys and their activations: stored records -> the API's wire shapes (api-facts §4).
import {type View, orgId} from '../../core/present.js'
import type {LicenseKeyActivationRecord, LicenseKeyRecord} from './model.js'
import {customer} from '../customers/present.js'
import type {CustomerRecord} from '../customers/model.js'

export function licenseKey(v: View, k: LicenseKeyRecord) {
  const c = v.store.get('customers', k.customer_id)
  return {
    id: k.id,
    created_at: k.created_at,
    modified_at: k.modified_at,
    organization_id: orgId(v),
    customer_id: k.customer_id,
    customer: c ? licenseKeyCustomer(v, c) : null,
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

/** The key holder as a license key shows it (LicenseKeyCustomer, which requires `first_user_event_at` too). */
function licenseKeyCustomer(v: View, c: CustomerRecord) {
  return customer(v, c)
}
