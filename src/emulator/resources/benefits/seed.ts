// Seeded benefits (one of each kind) and the grants (with license keys) of paid orders and live subscriptions.
import type {EnvData} from '../../core/model.js'
import {iso, oldestFirst} from '../../core/seeding.js'
import {uuid, type Random} from '../../core/ids.js'
import type {LicenseKeyRecord} from '../license-keys/model.js'
import {newLicenseKey} from './grants.js'
import type {BenefitGrantRecord, BenefitRecord} from './model.js'

const BENEFITS: Array<Pick<BenefitRecord, 'type' | 'description' | 'properties' | 'metadata'>> = [
  {
    type: 'custom',
    description: 'Priority support',
    properties: {note: 'Write to support@example.com with your order number.'},
    metadata: {channel: 'email', sla_hours: 24},
  },
  {
    type: 'license_keys',
    description: 'License key',
    properties: {prefix: 'TILL', expires: null, activations: {limit: 3, enable_customer_admin: true}, limit_usage: null},
    metadata: {product_line: 'desktop'},
  },
  {type: 'downloadables', description: 'Downloadable assets', properties: {archived: {}, files: []}, metadata: {format: 'zip'}},
  {
    type: 'discord',
    description: 'Discord community',
    properties: {guild_id: '1100000000000000000', role_id: '1100000000000000001', kick_member: false, guild_token: 'emulated-discord-guild-token'},
    metadata: {role: 'member'},
  },
  {
    type: 'github_repository',
    description: 'Private repository access',
    properties: {repository_owner: 'acme', repository_name: 'pro-toolkit', permission: 'pull'},
    metadata: {repo: 'acme/pro-toolkit'},
  },
  {type: 'feature_flag', description: 'Beta features', properties: {}, metadata: {flag: 'beta', rollout: 100}},
]

export function makeBenefits(random: Random, start: number): BenefitRecord[] {
  return BENEFITS.map((b, i) => ({
    id: uuid(random),
    created_at: iso(start + i * 60_000),
    modified_at: null,
    ...b,
    selectable: true,
    deletable: true,
    is_deleted: false,
    visibility: 'public',
  }))
}

/** Benefit grants (and license keys) for active subscriptions and paid one-time orders. */
export function seedGrants(data: EnvData, random: Random, now: number): void {
  const granted = new Set<string>()
  const grants: BenefitGrantRecord[] = []
  const keys: LicenseKeyRecord[] = []
  const products = new Map(data.products.map((p) => [p.id, p]))
  const benefits = new Map(data.benefits.map((b) => [b.id, b]))
  const grant = (customerId: string, benefitId: string, at: string, source: {subscription_id?: string; order_id?: string}, revokedAt: string | null) => {
    const key = `${customerId}:${benefitId}`
    if (granted.has(key)) return
    granted.add(key)
    const benefit = benefits.get(benefitId)!
    const grantRow: BenefitGrantRecord = {
      id: uuid(random),
      created_at: at,
      modified_at: null,
      granted_at: at,
      revoked_at: revokedAt,
      subscription_id: source.subscription_id ?? null,
      order_id: source.order_id ?? null,
      customer_id: customerId,
      benefit_id: benefitId,
      properties: {},
    }
    if (benefit.type === 'license_keys') {
      const key = newLicenseKey(benefit, customerId, at, random)
      if (revokedAt) key.status = 'revoked'
      keys.push(key)
      grantRow.properties = {license_key_id: key.id, display_key: `****-${key.key.slice(-4)}`}
    }
    grants.push(grantRow)
  }
  for (const s of data.subscriptions) {
    const live = s.status === 'active' || s.status === 'trialing' || s.status === 'past_due'
    const revoked = s.status === 'canceled' ? s.ended_at : null
    if (!live && !revoked) continue
    for (const b of products.get(s.product_id)?.benefit_ids ?? []) grant(s.customer_id, b, s.created_at, {subscription_id: s.id}, revoked)
  }
  for (const o of data.orders) {
    if (o.subscription_id || !o.product_id || (o.status !== 'paid' && o.status !== 'partially_refunded')) continue
    for (const b of products.get(o.product_id)?.benefit_ids ?? []) grant(o.customer_id, b, o.created_at, {order_id: o.id}, null)
  }
  data.benefit_grants = grants.sort(oldestFirst)
  data.license_keys = keys.sort(oldestFirst)
  void now
}

/** Benefit kinds the list above lacks (meter credits), appended after every other seeded record. */
export function makeBenefitVariants(random: Random, start: number, meterId: string): BenefitRecord[] {
  return [
    {
      id: uuid(random),
      created_at: iso(start - 60_000),
      modified_at: null,
      type: 'meter_credit',
      description: 'Monthly API credits',
      properties: {units: 1000, rollover: false, meter_id: meterId},
      metadata: {},
      selectable: true,
      deletable: true,
      is_deleted: false,
      visibility: 'public',
    },
  ]
}
