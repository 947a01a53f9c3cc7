// Granting a product's benefits to a customer (and issuing license keys for license-key benefits).
import {uuid, type Random} from '../../core/ids.js'
import type {BenefitGrantRecord, BenefitRecord} from './model.js'
import type {LicenseKeyRecord} from '../license-keys/model.js'
import type {Store} from '../../core/store.js'
import {recordSystemEvent} from '../events/log.js'

const KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** A license key value like `TILL-7K2M-...`, with the benefit's prefix. */
export function licenseKeyValue(prefix: string, random: Random = Math.random): string {
  const chunk = () => Array.from({length: 4}, () => KEY_ALPHABET[Math.floor(random() * KEY_ALPHABET.length)]).join('')
  return `${prefix}-${chunk()}-${chunk()}-${chunk()}-${chunk()}`
}

/** A license key row for a license-key benefit's grant. */
export function newLicenseKey(benefit: BenefitRecord, customerId: string, at: string, random?: Random): LicenseKeyRecord {
  const props = benefit.properties as {prefix?: string; activations?: {limit?: number} | null; limit_usage?: number | null}
  return {
    id: uuid(random),
    created_at: at,
    modified_at: null,
    customer_id: customerId,
    benefit_id: benefit.id,
    key: licenseKeyValue(props.prefix || 'TILL', random),
    status: 'granted',
    limit_activations: props.activations?.limit ?? null,
    usage: 0,
    limit_usage: props.limit_usage ?? null,
    validations: 0,
    last_validated_at: null,
    expires_at: null,
  }
}

/**
 * Grants each benefit of the product that the customer does not hold yet. Call inside a store write.
 * Returns the new grants (for `benefit_grant.created` events).
 */
export function grantProductBenefits(
  store: Store,
  source: {customerId: string; productId: string | null; orderId?: string | null; subscriptionId?: string | null},
  at: string,
): BenefitGrantRecord[] {
  const product = source.productId ? store.get('products', source.productId) : undefined
  if (!product) return []
  const held = new Set(
    store
      .where('benefit_grants', 'customer_id', source.customerId)
      .filter((g) => g.revoked_at === null)
      .map((g) => g.benefit_id),
  )
  const created: BenefitGrantRecord[] = []
  for (const benefitId of product.benefit_ids) {
    const benefit = store.get('benefits', benefitId)
    if (!benefit || benefit.is_deleted || held.has(benefitId)) continue
    const grant: BenefitGrantRecord = {
      id: uuid(),
      created_at: at,
      modified_at: null,
      granted_at: at,
      revoked_at: null,
      subscription_id: source.subscriptionId ?? null,
      order_id: source.orderId ?? null,
      customer_id: source.customerId,
      benefit_id: benefitId,
      properties: {},
    }
    if (benefit.type === 'license_keys') {
      const key = store.insert('license_keys', newLicenseKey(benefit, source.customerId, at))
      grant.properties = {license_key_id: key.id, display_key: `****-${key.key.slice(-4)}`}
    }
    created.push(store.insert('benefit_grants', grant))
    recordGrantEvents(store, grant, benefit, at)
  }
  return created
}

/** The system events of a new grant: `benefit.granted`, and `meter.credited` for a meter credit. */
export function recordGrantEvents(store: Store, grant: BenefitGrantRecord, benefit: BenefitRecord, at: string): void {
  recordSystemEvent(store, 'benefit.granted', grant.customer_id, at, {benefit_id: benefit.id, benefit_grant_id: grant.id, benefit_type: benefit.type})
  if (benefit.type === 'meter_credit') {
    const p = benefit.properties as {meter_id?: string; units?: number; rollover?: boolean}
    recordSystemEvent(store, 'meter.credited', grant.customer_id, at, {meter_id: p.meter_id, units: p.units ?? 0, rollover: p.rollover ?? false})
  }
}
