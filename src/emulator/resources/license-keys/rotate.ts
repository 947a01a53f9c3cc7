// Rotating a license key (server/polar/license_key: rotate; newer than the 2026-10 document, in the SDK
// 1.0.1): a new key string for the same record, with the benefit's prefix; the old string stops
// validating at once. Status, usage, limits, expiry and activations stay. A revoked key cannot be rotated.
import {domainError} from '../../core/errors.js'
import {ok, type Ctx, type Reply, type Router} from '../../core/http.js'
import {finder, pathId} from '../../core/toolkit.js'
import {licenseKeyValue} from '../benefits/grants.js'
import type {LicenseKeyRecord} from './model.js'
import * as present from './present.js'

const ROTATABLE = ['disabled', 'granted']

const findLicenseKey = finder('license_keys')

/** Gives `id` (found by `find`, which answers the 404) a new key string; the grant shows its new ending. */
export function rotateLicenseKey(ctx: Ctx, id: string, find: (ctx: Ctx, id: string) => LicenseKeyRecord = findLicenseKey): LicenseKeyRecord {
  const current = find(ctx, id)
  if (!ROTATABLE.includes(current.status)) {
    throw domainError(
      400,
      'RotateNotPermitted',
      `License key cannot be rotated in its current status. Current status: ${current.status}. Allowed statuses: ${ROTATABLE.join(', ')}.`,
    )
  }
  return ctx.store.write(() => {
    const key = find(ctx, id)
    const benefit = ctx.store.get('benefits', key.benefit_id)
    const prefix = (benefit?.properties as {prefix?: string} | undefined)?.prefix || 'TILL'
    key.key = licenseKeyValue(prefix)
    key.modified_at = new Date(ctx.now).toISOString()
    for (const grant of ctx.store.all('benefit_grants')) {
      const properties = grant.properties as {license_key_id?: string}
      if (properties.license_key_id === key.id) grant.properties = {...grant.properties, display_key: `****-${key.key.slice(-4)}`}
    }
    return key
  })
}

export function registerRotate(r: Router): void {
  r.post('/license-keys/:id/rotate', 'organization', (ctx): Reply => ok(present.licenseKey(ctx.view, rotateLicenseKey(ctx, pathId(ctx)))))
}
