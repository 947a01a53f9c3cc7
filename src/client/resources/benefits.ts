// Benefits and their grants (api-facts §3.1, §3.3, §4.9).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'

export const BENEFIT_TYPES = ['custom', 'license_keys', 'downloadables', 'discord', 'github_repository', 'meter_credit', 'feature_flag'] as const
export type BenefitType = (typeof BENEFIT_TYPES)[number]

export interface BenefitFilters {
  type?: string[]
  query?: string
  sorting?: string[]
  metadata?: string[]
}

export function listBenefits(client: ApiClient, f: BenefitFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/benefits/', {type: f.type, query: f.query, sorting: f.sorting, ...metadataQuery(f.metadata)}, page)
}

export const getBenefit = (client: ApiClient, id: string) => client.get<Item>(`/benefits/${seg(id)}`)

export interface BenefitCreate {
  type: string
  description: string
  properties: Record<string, unknown>
  visibility?: string
  metadata?: Record<string, string>
}

/** The service reads `type` as the body's discriminator; the other fields are optional. */
export type BenefitUpdate = Partial<BenefitCreate>

export const createBenefit = (client: ApiClient, body: BenefitCreate) => client.post<Item>('/benefits/', body)

export const updateBenefit = (client: ApiClient, id: string, body: BenefitUpdate) => client.patch<Item>(`/benefits/${seg(id)}`, body)

/** 204 on success; 403 NotPermitted when the benefit is not deletable. */
export const deleteBenefit = (client: ApiClient, id: string) => client.delete<null>(`/benefits/${seg(id)}`)

export interface GrantFilters {
  granted?: boolean
  customerId?: string[]
}

/** The grants of one benefit. */
export function listBenefitGrants(client: ApiClient, benefitId: string, f: GrantFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, `/benefits/${seg(benefitId)}/grants`, {is_granted: f.granted, customer_id: f.customerId}, page)
}

export interface AllGrantFilters extends GrantFilters {
  externalCustomerId?: string[]
  sorting?: string[]
}

/** The grants of every benefit. */
export function listAllBenefitGrants(client: ApiClient, f: AllGrantFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/benefit-grants/', {is_granted: f.granted, customer_id: f.customerId, external_customer_id: f.externalCustomerId, sorting: f.sorting}, page)
}
