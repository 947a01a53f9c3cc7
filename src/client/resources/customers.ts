// Customers, addressed by id or by the caller's own external id (api-facts §3.1, §4.8).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {listItems, metadataQuery, seg, type Item} from './common.js'
import type {Address} from './orders.js'

/** A customer by its id, or by the external id the organization gave it. */
export type CustomerRef = {id: string} | {externalId: string}

export const customerPath = (ref: CustomerRef) => ('id' in ref ? `/customers/${seg(ref.id)}` : `/customers/external/${seg(ref.externalId)}`)

/** `id X` or `external id X`, for messages. */
export const describeRef = (ref: CustomerRef) => ('id' in ref ? ref.id : `with external id ${ref.externalId}`)

export interface CustomerFilters {
  email?: string
  query?: string
  active?: boolean
  sorting?: string[]
  metadata?: string[]
}

export function listCustomers(client: ApiClient, f: CustomerFilters, page: PaginateOptions): AsyncGenerator<Item> {
  return listItems(client, '/customers/', {email: f.email, query: f.query, active: f.active, sorting: f.sorting, ...metadataQuery(f.metadata)}, page)
}

export interface CustomerCreate {
  email: string
  name?: string
  external_id?: string
  metadata?: Record<string, unknown>
  billing_address?: Address
}

export interface CustomerUpdate {
  email?: string
  name?: string
  external_id?: string
  metadata?: Record<string, unknown>
  billing_name?: string
  billing_address?: Address
}

export const getCustomer = (client: ApiClient, ref: CustomerRef) => client.get<Item>(customerPath(ref))

/** CustomerState: the customer with `active_subscriptions`, `granted_benefits` and `active_meters`. */
export const getCustomerState = (client: ApiClient, ref: CustomerRef) => client.get<Item>(`${customerPath(ref)}/state`)

export const createCustomer = (client: ApiClient, body: CustomerCreate) => client.post<Item>('/customers/', body)

export const updateCustomer = (client: ApiClient, ref: CustomerRef, body: CustomerUpdate) => client.patch<Item>(customerPath(ref), body)

/** Soft delete: ends subscriptions, revokes benefits, clears the external id; `anonymize` also erases personal data. */
export const deleteCustomer = (client: ApiClient, ref: CustomerRef, anonymize: boolean) =>
  client.delete<null>(customerPath(ref), {query: anonymize ? {anonymize: true} : undefined})
