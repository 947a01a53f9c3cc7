// License keys: management and the authenticated validate / activate / deactivate routes
// (server/polar/license_key/endpoints.py). The key checks take the organization id in the body.
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Rule} from '../rate-limit.js'
import type {
  LicenseKeyActivate,
  LicenseKeyActivationRead,
  LicenseKeyDeactivate,
  LicenseKeyRead,
  LicenseKeyUpdate,
  LicenseKeyValidate,
  LicenseKeyWithActivations,
  ValidatedLicenseKey,
} from '../wire/index.js'
import {listItems, seg} from './common.js'

/**
 * 3/s on the unauthenticated license-key routes. Going over blocks the caller for 60 s, so this budget
 * keeps a wide margin: a request counted now may reach the server a few hundred ms later under load.
 */
export const LICENSE_KEY_BUDGET: Rule & {marginMs: number} = {limit: 3, windowMs: 1000, marginMs: 400}

export const LICENSE_KEY_STATUSES = ['granted', 'revoked', 'disabled'] as const

export interface LicenseKeyFilters {
  benefitId?: string
  status?: string
}

export function listLicenseKeys(client: ApiClient, f: LicenseKeyFilters, page: PaginateOptions): AsyncGenerator<LicenseKeyRead> {
  return listItems<LicenseKeyRead>(client, '/license-keys/', {benefit_id: f.benefitId, status: f.status}, page)
}

/** LicenseKeyWithActivations. */
export const getLicenseKey = (client: ApiClient, id: string) => client.get<LicenseKeyWithActivations>(`/license-keys/${seg(id)}`)

export type ValidateInput = LicenseKeyValidate

/** ValidatedLicenseKey; every failed check is a 404 with its own detail, exhausted usage a 400. */
export const validateLicenseKey = (client: ApiClient, body: ValidateInput) => client.post<ValidatedLicenseKey>('/license-keys/validate', body)

export type ActivateInput = LicenseKeyActivate

/** LicenseKeyActivationRead; 403 NotPermitted when the key cannot take another activation. */
export const activateLicenseKey = (client: ApiClient, body: ActivateInput) => client.post<LicenseKeyActivationRead>('/license-keys/activate', body)

/** 204: the activation is gone and its slot free again. */
export const deactivateLicenseKey = (client: ApiClient, body: LicenseKeyDeactivate) => client.post<null>('/license-keys/deactivate', body)

export type {LicenseKeyUpdate}

export const updateLicenseKey = (client: ApiClient, id: string, body: LicenseKeyUpdate) => client.patch<LicenseKeyRead>(`/license-keys/${seg(id)}`, body)

/** One activation of a license key, with the key. */
export const getActivation = (client: ApiClient, keyId: string, activationId: string) =>
  client.get<LicenseKeyActivationRead>(`/license-keys/${seg(keyId)}/activations/${seg(activationId)}`)

/** Gives a license key a new key string (SDK 1.0.1; newer than the 2026-10 document): the old one stops validating at once. */
export const rotateLicenseKey = (client: ApiClient, id: string) => client.post<LicenseKeyRead>(`/license-keys/${seg(id)}/rotate`)
