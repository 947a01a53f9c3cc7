// Benefits and their grants (server/polar/benefit/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Benefit, BenefitCreate, BenefitGrant, BenefitUpdate, Schema} from '../wire/index.js'
import {type EveryKey, listItems, metadataQuery, onlyKeys, seg} from './common.js'

export const BENEFIT_TYPES = ['custom', 'license_keys', 'downloadables', 'discord', 'github_repository', 'meter_credit', 'feature_flag'] as const
export type BenefitType = (typeof BENEFIT_TYPES)[number]

export interface BenefitFilters {
  type?: string[]
  query?: string
  sorting?: string[]
  metadata?: string[]
}

export function listBenefits(client: ApiClient, f: BenefitFilters, page: PaginateOptions): AsyncGenerator<Benefit> {
  return listItems<Benefit>(client, '/benefits/', {type: f.type, query: f.query, sorting: f.sorting, ...metadataQuery(f.metadata)}, page)
}

export const getBenefit = (client: ApiClient, id: string) => client.get<Benefit>(`/benefits/${seg(id)}`)

/** Every benefit update names the benefit's own `type` (the service reads the body by it). */
export type {BenefitCreate, BenefitUpdate}

export const createBenefit = (client: ApiClient, body: BenefitCreate) => client.post<Benefit>('/benefits/', body)

export const updateBenefit = (client: ApiClient, id: string, body: BenefitUpdate) => client.patch<Benefit>(`/benefits/${seg(id)}`, body)

type UpdateOf<T extends BenefitType> = Extract<BenefitUpdate, {type: T}>

/**
 * Whether the update of a benefit of each type takes `visibility` (the service ignores it in the others);
 * the compiler checks the table against the document's `Benefit*Update` schemas.
 */
export const UPDATE_TAKES_VISIBILITY: {[T in BenefitType]: 'visibility' extends keyof UpdateOf<T> ? true : false} = {
  custom: true,
  license_keys: true,
  downloadables: false,
  discord: false,
  github_repository: false,
  meter_credit: true,
  feature_flag: true,
}

type UpdatePropertiesOf<T extends BenefitType> = NonNullable<UpdateOf<T>['properties']>
type LicenseKeysProperties = UpdatePropertiesOf<'license_keys'>

/**
 * The properties the update of a benefit of each type takes (the document's `Benefit*Update` properties,
 * which its create takes too), checked by the compiler both ways. A read-modify-write sends back only
 * these, never what the service shows besides: a Discord benefit's guild_id (derived from its
 * guild_token), or a field a newer service adds, which the update would refuse with a 422.
 */
const UPDATE_PROPERTIES: {[T in BenefitType]: EveryKey<UpdatePropertiesOf<T>>} = {
  custom: {note: true},
  license_keys: {prefix: true, expires: true, activations: true, limit_usage: true},
  downloadables: {archived: true, files: true},
  discord: {guild_token: true, role_id: true, kick_member: true},
  github_repository: {repository_owner: true, repository_name: true, permission: true},
  meter_credit: {units: true, rollover: true, meter_id: true},
  feature_flag: {},
}

/** The objects inside a type's properties, with the keys each takes. */
const NESTED_PROPERTIES: {license_keys: {[K in 'activations' | 'expires']: EveryKey<NonNullable<LicenseKeysProperties[K]>>}} = {
  license_keys: {activations: {limit: true, enable_customer_admin: true}, expires: {ttl: true, timeframe: true}},
}

/** A benefit's properties as its create and update take them: what the service shows besides is left out. */
export function writableProperties<P extends Record<string, unknown>>(type: string, properties: P): P {
  const keys = (UPDATE_PROPERTIES as Record<string, Record<string, true> | undefined>)[type]
  if (!keys) return properties
  const kept: Record<string, unknown> = onlyKeys(properties, keys)
  const nested = (NESTED_PROPERTIES as Record<string, Record<string, Record<string, true>> | undefined>)[type] ?? {}
  for (const [key, inner] of Object.entries(nested)) {
    const value = kept[key]
    if (value && typeof value === 'object' && !Array.isArray(value)) kept[key] = onlyKeys(value as Record<string, unknown>, inner)
  }
  return kept as P
}

/** 204 on success; 403 NotPermitted when the benefit is not deletable. */
export const deleteBenefit = (client: ApiClient, id: string) => client.delete<null>(`/benefits/${seg(id)}`)

export interface GrantFilters {
  granted?: boolean
  customerId?: string[]
}

/** The grants of one benefit. */
export function listBenefitGrants(client: ApiClient, benefitId: string, f: GrantFilters, page: PaginateOptions): AsyncGenerator<BenefitGrant> {
  return listItems<BenefitGrant>(client, `/benefits/${seg(benefitId)}/grants`, {is_granted: f.granted, customer_id: f.customerId}, page)
}

export interface AllGrantFilters extends GrantFilters {
  externalCustomerId?: string[]
  sorting?: string[]
}

/** The grants of every benefit. */
export function listAllBenefitGrants(client: ApiClient, f: AllGrantFilters, page: PaginateOptions): AsyncGenerator<BenefitGrant> {
  return listItems<BenefitGrant>(
    client,
    '/benefit-grants/',
    {is_granted: f.granted, customer_id: f.customerId, external_customer_id: f.externalCustomerId, sorting: f.sorting},
    page,
  )
}

/** The files a downloadables benefit hands out, with their download counts (404 for any other type of benefit). */
export const listBenefitFiles = (client: ApiClient, id: string, page: PaginateOptions): AsyncGenerator<Schema<'BenefitDownloadableFile'>> =>
  listItems<Schema<'BenefitDownloadableFile'>>(client, `/benefits/${seg(id)}/files`, {}, page)
