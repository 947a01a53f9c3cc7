// License keys: management, and validate / activate / deactivate (server/polar/license_key/endpoints.py,
// server/polar/customer_portal/endpoints/license_keys.py).
// The three key checks are written once here; the portal serves them without auth.
import {z} from '../../core/zod.js'

import {domainError, notFound, notPermitted} from '../../core/errors.js'
import {noContent, ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {byField} from '../../core/list.js'
import {finder, found, listRoute, getRoute, lookup, organizationScope, pathId} from '../../core/toolkit.js'
import type {LicenseKeyActivationRecord, LicenseKeyRecord} from './model.js'
import * as present from './present.js'
import {registerRotate} from './rotate.js'
import {metadataSchema, parse} from '../../core/validate.js'

/** Activations also remember the `conditions` they were created with; later validations must repeat them. */
type ActivationRow = LicenseKeyActivationRecord & {conditions?: Record<string, unknown>}

const datetime = z.union([z.iso.datetime({offset: true, local: true}), z.iso.date()])

const licenseKeyUpdate = z.object({
  status: z.enum(['granted', 'revoked', 'disabled']).nullish(),
  usage: z.int().min(0).nullish(),
  limit_activations: z.int().min(1).max(50).nullish(),
  limit_usage: z.int().min(1).nullish(),
  expires_at: datetime.nullish(),
})

const keyRef = {key: z.string(), organization_id: z.uuid()}

const validateBody = z.object({
  ...keyRef,
  activation_id: z.uuid().nullish(),
  benefit_id: z.uuid().nullish(),
  customer_id: z.uuid().nullish(),
  increment_usage: z.int().nullish(),
  conditions: metadataSchema.default({}),
})

const activateBody = z.object({
  ...keyRef,
  label: z.string().min(1).max(256),
  conditions: metadataSchema.default({}),
  meta: metadataSchema.default({}),
})

const deactivateBody = z.object({...keyRef, activation_id: z.uuid()})

const iso = (ctx: Ctx) => new Date(ctx.now).toISOString()

/** A datetime input as UTC ISO; values without a zone are taken as UTC. */
function toIso(value: string): string {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) || !value.includes('T')
  return new Date(zoned ? value : `${value}Z`).toISOString()
}

/** Same JSON content, whatever the key order. */
function sameJson(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const canonical = (o: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    )
  return canonical(a) === canonical(b)
}

export const findLicenseKey = finder('license_keys')

const activationsOf = (ctx: Ctx, keyId: string): ActivationRow[] => ctx.store.all('license_key_activations').filter((a) => a.license_key_id === keyId)

const findActivation = (ctx: Ctx, keyId: string, activationId: string): ActivationRow =>
  lookup(ctx, 'license_key_activations', activationId, {
    param: 'activation_id',
    live: (a) => a.license_key_id === keyId,
    detail: 'License key activation not found.',
  })

/** LicenseKeyWithActivations (GET of one key). */
export function licenseKeyWithActivations(ctx: Ctx, k: LicenseKeyRecord) {
  return {...present.licenseKey(ctx.view, k), activations: activationsOf(ctx, k.id).map(present.licenseKeyActivation)}
}

/** LicenseKeyActivationRead: the activation with its key (as an activation answers it: the granted key's shape). */
function activationRead(ctx: Ctx, a: ActivationRow, k: LicenseKeyRecord, granted = false) {
  return {...present.licenseKeyActivation(a), license_key: (granted ? present.grantedLicenseKey : present.licenseKey)(ctx.view, k)}
}

/** The filters the Core and Customer Portal lists of license keys share. */
export const licenseKeyFilters = {benefit_id: byField('uuid', (k: LicenseKeyRecord) => k.benefit_id)}

/** The key named by `key` in this environment's organization; every miss is a plain 404. */
function keyByValue(ctx: Ctx, organizationId: string, value: string): LicenseKeyRecord {
  return found(organizationId === ctx.store.data.organization.id ? ctx.store.all('license_keys').find((k) => k.key === value) : undefined)
}

const isExpired = (ctx: Ctx, k: LicenseKeyRecord) => k.expires_at !== null && Date.parse(k.expires_at) <= ctx.now

/** POST …/license-keys/validate → ValidatedLicenseKey. Failures are 404s with their own detail. */
export function validateLicenseKey(ctx: Ctx): Reply {
  const input = parse(validateBody, ctx.body)
  const key = keyByValue(ctx, input.organization_id, input.key)
  if (key.status !== 'granted') throw notFound('License key is no longer active.')
  if (isExpired(ctx, key)) throw notFound('License key has expired.')
  let activation: ActivationRow | null = null
  if (input.activation_id) {
    activation = findActivation(ctx, key.id, input.activation_id)
    const required = activation.conditions ?? {}
    if (Object.keys(required).length > 0 && !sameJson(required, input.conditions)) {
      throw notFound('License key does not match required conditions')
    }
  }
  if (input.benefit_id && input.benefit_id !== key.benefit_id) throw notFound('License key does not match given benefit.')
  if (input.customer_id && input.customer_id !== key.customer_id) throw notFound('License key does not match given user.')
  const increment = input.increment_usage ?? 0
  if (increment && key.limit_usage) {
    const remaining = key.limit_usage - key.usage
    if (increment > remaining) throw domainError(400, 'BadRequest', `License key only has ${remaining} more usages.`)
  }
  const validated = ctx.store.write(() => {
    const k = findLicenseKey(ctx, key.id)
    k.validations += 1
    k.last_validated_at = iso(ctx)
    if (increment) k.usage += increment
    return k
  })
  return ok({...present.grantedLicenseKey(ctx.view, validated), activation: activation ? present.licenseKeyActivation(activation) : null})
}

/** POST …/license-keys/activate → LicenseKeyActivationRead; 403 when the key cannot take another activation. */
export function activateLicenseKey(ctx: Ctx): Reply {
  const input = parse(activateBody, ctx.body)
  const keyId = keyByValue(ctx, input.organization_id, input.key).id
  const activation = ctx.store.write(() => {
    const k = findLicenseKey(ctx, keyId)
    if (k.status !== 'granted') throw notPermitted('License key is no longer active. This license key can not be activated.')
    if (isExpired(ctx, k)) throw notPermitted('License key has expired.')
    if (!k.limit_activations) throw notPermitted('This license key does not support activations. Use the /validate endpoint instead to check license validity.')
    if (activationsOf(ctx, k.id).length >= k.limit_activations) throw notPermitted('License key activation limit already reached')
    const row: ActivationRow = {
      id: uuid(),
      created_at: iso(ctx),
      modified_at: null,
      license_key_id: k.id,
      label: input.label,
      meta: input.meta,
      conditions: input.conditions,
    }
    return ctx.store.insert('license_key_activations', row)
  })
  return ok(activationRead(ctx, activation, findLicenseKey(ctx, keyId), true))
}

/** POST …/license-keys/deactivate → 204; the activation is gone and its slot free again. */
export function deactivateLicenseKey(ctx: Ctx): Reply {
  const input = parse(deactivateBody, ctx.body)
  const keyId = keyByValue(ctx, input.organization_id, input.key).id
  ctx.store.write(() => {
    ctx.store.remove('license_key_activations', findActivation(ctx, keyId, input.activation_id).id)
  })
  return noContent()
}

export function register(r: Router): void {
  listRoute(r, 'license_keys:list', (ctx: Ctx) => ctx.store.all('license_keys'), {
    present: present.licenseKey,
    filters: {
      ...licenseKeyFilters,
      organization_id: organizationScope,
      status: byField(['granted', 'revoked', 'disabled'], (k: LicenseKeyRecord) => k.status),
    },
    sorts: {},
    defaultSort: ['-created_at'],
  })
  getRoute(r, 'license_keys:get', findLicenseKey, (_view, k, ctx) => licenseKeyWithActivations(ctx, k))

  r.patch('/license-keys/:id', 'organization', (ctx) => {
    const id = pathId(ctx)
    const input = parse(licenseKeyUpdate, ctx.body)
    findLicenseKey(ctx, id)
    const key = ctx.store.write(() => {
      const k = findLicenseKey(ctx, id)
      if (input.status) k.status = input.status
      if (input.usage !== undefined && input.usage !== null) k.usage = input.usage
      if (input.limit_activations !== undefined) k.limit_activations = input.limit_activations
      if (input.limit_usage !== undefined) k.limit_usage = input.limit_usage
      if (input.expires_at !== undefined) k.expires_at = input.expires_at === null ? null : toIso(input.expires_at)
      k.modified_at = iso(ctx)
      return k
    })
    return ok(present.licenseKey(ctx.view, key))
  })

  r.get('/license-keys/:id/activations/:activation_id', 'organization', (ctx) => {
    const key = findLicenseKey(ctx, pathId(ctx))
    return ok(activationRead(ctx, findActivation(ctx, key.id, pathId(ctx, 'activation_id')), key))
  })

  r.post('/license-keys/validate', 'organization', validateLicenseKey)
  r.post('/license-keys/activate', 'organization', activateLicenseKey)
  r.post('/license-keys/deactivate', 'organization', deactivateLicenseKey)
  registerRotate(r)
}
