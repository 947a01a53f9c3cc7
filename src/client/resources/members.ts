// Members of a customer (the people of a team customer, each an owner, a billing manager or a member),
// addressed under the customer by ids or by the organization's external ids, and the signed-in team's
// members in the Customer Portal (a member session of an owner or a billing manager).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {RequestBody, Schema} from '../wire/index.js'
import {listItems, seg} from './common.js'
import {customerPath, type CustomerRef} from './customers.js'

export type Member = Schema<'Member'>
export type MemberRole = Schema<'MemberRole'>
export type MemberCreate = RequestBody<'customers:members:create'>
export type MemberUpdate = RequestBody<'customers:members:update'>
export type PortalMember = Schema<'CustomerPortalMember'>
export type PortalMemberCreate = RequestBody<'customer_portal:members:add_member'>
export type PortalMemberUpdate = RequestBody<'customer_portal:members:update_member'>

/**
 * One member: by the customer's id and the member's id, or by the customer's external id and the member's
 * external id (the API has no mixed form).
 */
export type MemberRef = {customerId: string; memberId: string} | {customerExternalId: string; memberExternalId: string}

const membersOf = (ref: CustomerRef) => `${customerPath(ref)}/members`

export const memberPath = (ref: MemberRef) =>
  'memberId' in ref
    ? `${membersOf({id: ref.customerId})}/${seg(ref.memberId)}`
    : `${membersOf({externalId: ref.customerExternalId})}/${seg(ref.memberExternalId)}`

/** `MEMBER of customer CUSTOMER`, by ids or external ids, for messages. */
export const describeMember = (ref: MemberRef) =>
  'memberId' in ref ? `${ref.memberId} of customer ${ref.customerId}` : `with external id ${ref.memberExternalId} of customer ${ref.customerExternalId}`

/** The customer's members, newest first; `role` keeps those of one role. */
export function listMembers(client: ApiClient, ref: CustomerRef, f: {role?: MemberRole; sorting?: string[]}, page: PaginateOptions): AsyncGenerator<Member> {
  return listItems<Member>(client, membersOf(ref), {role: f.role, sorting: f.sorting}, page)
}

/** Every member of the organization's customers, newest first (`/v1/members/`). */
export function listAllMembers(client: ApiClient, f: {role?: MemberRole; sorting?: string[]}, page: PaginateOptions): AsyncGenerator<Member> {
  return listItems<Member>(client, '/members/', {role: f.role, sorting: f.sorting}, page)
}

/** Adds a member (role member or billing_manager); an email the customer's members already have gives that member back. */
export const createMember = (client: ApiClient, ref: CustomerRef, body: MemberCreate) => client.post<Member>(membersOf(ref), body)

export const getMember = (client: ApiClient, ref: MemberRef) => client.get<Member>(memberPath(ref))

/** Name, email or role; the role `owner` moves ownership (the former owner becomes a billing manager). */
export const updateMember = (client: ApiClient, ref: MemberRef, body: MemberUpdate) => client.patch<Member>(memberPath(ref), body)

/** Soft delete; the service refuses to delete the only owner. */
export const deleteMember = (client: ApiClient, ref: MemberRef) => client.delete<null>(memberPath(ref))

// ---- the Customer Portal (a member session of an owner or a billing manager of a team) ----

const PORTAL_MEMBERS = '/customer-portal/members'

export function listPortalMembers(client: ApiClient, page: PaginateOptions): AsyncGenerator<PortalMember> {
  return listItems<PortalMember>(client, PORTAL_MEMBERS, {}, page)
}

export const addPortalMember = (client: ApiClient, body: PortalMemberCreate) => client.post<PortalMember>(PORTAL_MEMBERS, body)

export const updatePortalMember = (client: ApiClient, id: string, body: PortalMemberUpdate) => client.patch<PortalMember>(`${PORTAL_MEMBERS}/${seg(id)}`, body)

export const removePortalMember = (client: ApiClient, id: string) => client.delete<null>(`${PORTAL_MEMBERS}/${seg(id)}`)
