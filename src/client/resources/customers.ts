// Customers, addressed by id or by the caller's own external id (server/polar/customer/endpoints.py).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type * as Wire from '../wire/index.js'
import type {Customer, CustomerCreate, CustomerState} from '../wire/index.js'
import {listItems, metadataQuery, seg} from './common.js'

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

export function listCustomers(client: ApiClient, f: CustomerFilters, page: PaginateOptions): AsyncGenerator<Customer> {
  return listItems<Customer>(client, '/customers/', {email: f.email, query: f.query, active: f.active, sorting: f.sorting, ...metadataQuery(f.metadata)}, page)
}

export type {CustomerCreate}

/** The changes of a customer addressed by id (`CustomerUpdate`) or by external id (`CustomerUpdateExternalID`, which cannot change it). */
export type CustomerUpdate = Wire.CustomerUpdate
export type CustomerUpdateExternalID = Wire.CustomerUpdateExternalID

export const getCustomer = (client: ApiClient, ref: CustomerRef) => client.get<Customer>(customerPath(ref))

/** CustomerState: the customer with `active_subscriptions`, `granted_benefits` and `active_meters`. */
export const getCustomerState = (client: ApiClient, ref: CustomerRef) => client.get<CustomerState>(`${customerPath(ref)}/state`)

export const createCustomer = (client: ApiClient, body: CustomerCreate) => client.post<Customer>('/customers/', body)

export function updateCustomer(client: ApiClient, ref: {id: string}, body: CustomerUpdate): Promise<Customer>
export function updateCustomer(client: ApiClient, ref: CustomerRef, body: CustomerUpdateExternalID): Promise<Customer>
export function updateCustomer(client: ApiClient, ref: CustomerRef, body: CustomerUpdate | CustomerUpdateExternalID): Promise<Customer> {
  return client.patch<Customer>(customerPath(ref), body)
}

/** Soft delete: ends subscriptions, revokes benefits, clears the external id; `anonymize` also erases personal data. */
export const deleteCustomer = (client: ApiClient, ref: CustomerRef, anonymize: boolean) =>
  client.delete<null>(customerPath(ref), {query: anonymize ? {anonymize: true} : undefined})
