// The portal's benefit grants, downloadables and license-key rotation (server/polar/customer_portal:
// benefit_grant, downloadables and license_keys endpoints and services).
import {createHmac} from '../../core/crypto.js'

import {z} from '../../core/zod.js'

import {domainError, notPermitted, ruleValidation} from '../../core/errors.js'
import {emit, ok, type Ctx, type Router} from '../../core/http.js'
import {byField} from '../../core/list.js'
import {finder, getRoute, listRoute, pathId, routeOf} from '../../core/toolkit.js'
import {parse} from '../../core/validate.js'
import {licenseKeyValue} from '../benefits/grants.js'
import type {BenefitGrantRecord} from '../benefits/model.js'
import {benefitGrant} from '../benefits/present.js'
import {file} from '../files/present.js'
import * as licenseKeyViews from '../license-keys/present.js'
import {findLicenseKey} from '../license-keys/routes.js'
import {derivedUuid} from '../payments/derive.js'
import {me} from './me.js'
import {portalGrant} from './present.js'

const DOWNLOAD_TTL_MS = 3_600_000

/** A grant the customer sees: not revoked, its benefit not deleted (the service's readable grants). */
const findGrant = finder('benefit_grants', {
  live: (g, ctx) => g.revoked_at === null && ctx.store.get('benefits', g.benefit_id)?.is_deleted === false,
})

const grantUpdate = z.object({
  benefit_type: z.enum(['discord', 'github_repository', 'downloadables', 'license_keys', 'custom', 'meter_credit', 'feature_flag', 'slack_shared_channel']),
  properties: z.record(z.string(), z.unknown()).optional(),
})

/** PATCH: the type must be the benefit's; a Discord or GitHub account must be one the customer connected. */
function updateGrant(ctx: Ctx) {
  const grant = findGrant(ctx, pathId(ctx), me(ctx))
  const input = parse(grantUpdate, ctx.body)
  if (grant.revoked_at !== null) throw notPermitted('Cannot update a revoked benefit grant.')
  const benefit = ctx.store.get('benefits', grant.benefit_id)!
  if (input.benefit_type !== benefit.type) {
    throw ruleValidation(['body', 'benefit_type'], 'Benefit type must match the existing granted benefit type.', input.benefit_type)
  }
  const properties = input.properties ?? {}
  const account = properties.account_id
  // The emulator's customers connect no OAuth account: only clearing the account (null) is possible.
  if ((benefit.type === 'discord' || benefit.type === 'github_repository') && account !== null && account !== undefined) {
    throw ruleValidation(['body', 'properties', 'account_id'], 'OAuth account does not exist.', account)
  }
  const changesProperties = benefit.type === 'discord' || benefit.type === 'github_repository'
  const updated = ctx.store.write(() => {
    const g = ctx.store.get('benefit_grants', grant.id)!
    if (changesProperties) g.properties = {...g.properties, ...properties}
    g.modified_at = new Date(ctx.now).toISOString()
    return g
  })
  if (changesProperties) emit(ctx.env, 'benefit_grant.updated', benefitGrant(ctx.view, updated))
  return ok(portalGrant(ctx.view, updated))
}

interface Downloadable {
  id: string
  benefit_id: string
  file_id: string
  created_at: string
}

/** One downloadable per active, uploaded file of each downloadables benefit the customer holds. */
function downloadablesOf(ctx: Ctx): Downloadable[] {
  const customerId = me(ctx)
  const grants = ctx.store
    .all('benefit_grants')
    .filter((g: BenefitGrantRecord) => g.customer_id === customerId && g.granted_at !== null && g.revoked_at === null)
  return grants.flatMap((g) => {
    const b = ctx.store.get('benefits', g.benefit_id)
    if (!b || b.is_deleted || b.type !== 'downloadables') return []
    const props = b.properties as {files?: string[]; archived?: Record<string, boolean>}
    return (props.files ?? [])
      .filter((id) => !props.archived?.[id] && ctx.store.get('files', id)?.is_uploaded)
      .map((fileId) => ({id: derivedUuid(`downloadable:${customerId}:${b.id}:${fileId}`), benefit_id: b.id, file_id: fileId, created_at: g.granted_at!}))
  })
}

/** DownloadableRead: the file with a signed, expiring download link in the service's form. */
function presentDownloadable(ctx: Ctx, d: Downloadable) {
  const expires = ctx.now + DOWNLOAD_TTL_MS
  const signature = createHmac('sha256', ctx.store.data.tokens[0]!.token).update(`download.${d.id}.${expires}`).digest('base64url').slice(0, 32)
  const {flagged_malicious_at: _flagged, created_at: _created, ...fields} = file(ctx.view, ctx.store.get('files', d.file_id)!) as Record<string, unknown>
  return {
    id: d.id,
    benefit_id: d.benefit_id,
    file: {
      ...fields,
      download: {
        url: `${ctx.env.origin}/v1/customer-portal/downloadables/${d.id}.${expires}.${signature}`,
        headers: {},
        expires_at: new Date(expires).toISOString(),
      },
    },
  }
}

/** Allowed statuses of a rotation (the license-key service's ROTATABLE_STATUSES). */
const ROTATABLE = ['disabled', 'granted']

/** POST .../license-keys/{id}/rotate: a new key string; status, usage, limits and activations stay. */
function rotateKey(ctx: Ctx) {
  const key = findLicenseKey(ctx, pathId(ctx), me(ctx))
  if (!ROTATABLE.includes(key.status)) {
    throw domainError(
      400,
      'RotateNotPermitted',
      `License key cannot be rotated in its current status. Current status: ${key.status}. Allowed statuses: ${ROTATABLE.join(', ')}.`,
    )
  }
  const rotated = ctx.store.write(() => {
    const k = ctx.store.get('license_keys', key.id)!
    const prefix = (ctx.store.get('benefits', k.benefit_id)?.properties as {prefix?: string} | undefined)?.prefix
    k.key = licenseKeyValue(prefix || 'TILL')
    k.modified_at = new Date(ctx.now).toISOString()
    for (const g of ctx.store.all('benefit_grants')) {
      if (g.properties.license_key_id === k.id) g.properties = {...g.properties, display_key: `****-${k.key.slice(-4)}`}
    }
    return k
  })
  return ok(licenseKeyViews.licenseKey(ctx.view, rotated))
}

export function registerBenefitExtras(r: Router): void {
  getRoute(r, 'customer_portal:benefit-grants:get', findGrant, portalGrant, me)
  r.patch(routeOf('customer_portal:benefit-grants:update').path, 'customer', updateGrant)
  listRoute(r, 'customer_portal:downloadables:list', downloadablesOf, {
    present: (_view, d, ctx) => presentDownloadable(ctx, d),
    filters: {benefit_id: byField('uuid', (d: Downloadable) => d.benefit_id)},
    sorts: {},
    defaultSort: ['created_at'],
  })
  r.post('/customer-portal/license-keys/:id/rotate', 'customer', rotateKey)
}
