// What the license-key commands share: the organization the key checks name, and the key checks'
// refusals turned into clear messages (server/polar/license_key/service.py).
import type {ApiClient} from '../../client/client.js'
import {ApiError} from '../../client/errors.js'
import {organizationId} from '../../client/resources/organizations.js'
import type {ResolvedProfile} from '../../cli/context.js'
import {ExitCode, TillError} from '../../client/till-error.js'

/** The `organization_id` of the key checks: the profile's, or the token's own organization (asked once per run). */
export const keyOrganization = (client: ApiClient, profile: ResolvedProfile) => organizationId(client, profile.organizationId)

/** `****-ABC123`: enough to tell keys apart in messages. */
export const maskKey = (key: string) => (key.length > 10 ? `****-${key.slice(-6)}` : '****')

/**
 * Runs a key check, turning its refusals into messages: validation failures (404 with the reason,
 * or 400 when usage would run out) exit 3 as "license key is not valid: <reason>"; an activation
 * the key cannot take (403) exits 1.
 */
export async function keyCheck<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check()
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    if (error.status === 404 || (error.status === 400 && error.code === 'BadRequest')) {
      throw new TillError(`license key is not valid: ${error.message}`, ExitCode.notFound)
    }
    if (error.status === 403 && error.code === 'NotPermitted') throw new TillError(`cannot activate the license key: ${error.message}`, ExitCode.error)
    throw error
  }
}
