// Benefits and their grants (api-facts §3.1, §3.3, §4.9).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {Benefit, BenefitCreate, BenefitGrant, BenefitUpdate, Schema} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

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
type PropertiesOf<T extends BenefitType> = NonNullable<Extract<Benefit, {type: T}>['properties']>
type CreatePropertiesOf<T extends BenefitType> = NonNullable<Extract<BenefitCreate, {type: T}>['properties']>

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

/**
 * Properties a benefit shows but its create and update do not take (the service derives them): a Discord
 * benefit's guild_id comes from its guild_token. The compiler checks each is shown and not taken.
 */
const READ_ONLY_PROPERTIES: {[T in BenefitType]?: ReadonlyArray<Exclude<keyof PropertiesOf<T>, keyof CreatePropertiesOf<T>>>} = {discord: ['guild_id']}

/** A benefit's properties as its create and update take them: without what the service derives. */
export function writableProperties<P extends Record<string, unknown>>(type: string, properties: P): P {
  const readOnly = (READ_ONLY_PROPERTIES as Record<string, readonly string[] | undefined>)[type]
  if (!readOnly) return properties
  return Object.fromEntries(Object.entries(properties).filter(([k]) => !readOnly.includes(k))) as P
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
