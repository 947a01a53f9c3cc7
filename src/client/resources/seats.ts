// Customer seats (`/customer-seats`) of seat-based subscriptions and orders, and the customer portal's view of
// its own team's seats (`/customer-portal/seats`, with a customer access token).
import type {ApiClient} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {CustomerSubscription, RequestBody, Schema} from '../wire/index.js'
import {listItems, seg} from './common.js'

export type CustomerSeat = Schema<'CustomerSeat'>
export type SeatsList = Schema<'SeatsList'>
export type SeatAssign = RequestBody<'customer-seats:assign_seat'>
export type PortalSeatAssign = RequestBody<'customer_portal:seats:assign_seat'>

/** What seats belong to: a subscription or a one-time order. */
export interface SeatContainer {
  subscriptionId?: string
  orderId?: string
}

const containerQuery = (c: SeatContainer) => ({subscription_id: c.subscriptionId, order_id: c.orderId})

/** Every seat of a subscription (or order), revoked ones too, with how many there are and how many are free. */
export const listSeats = (client: ApiClient, c: SeatContainer) => client.get<SeatsList>('/customer-seats', {query: containerQuery(c)})

/** Assigns a seat to an e-mail (a new customer if unknown), a customer or an external customer id: pending with an invitation, or claimed at once. */
export const assignSeat = (client: ApiClient, body: SeatAssign) => client.post<CustomerSeat>('/customer-seats', body)

/** Revokes a seat: its holder loses the product's benefits and the seat is free again. */
export const revokeSeat = (client: ApiClient, id: string) => client.delete<CustomerSeat>(`/customer-seats/${seg(id)}`)

/** Sends a pending seat's invitation again. */
export const resendSeatInvitation = (client: ApiClient, id: string) => client.post<CustomerSeat>(`/customer-seats/${seg(id)}/resend`)

/** What an invitation token is for (no token needed, no side effects). */
export const getSeatClaimInfo = (client: ApiClient, invitationToken: string) =>
  client.get<Schema<'SeatClaimInfo'>>(`/customer-seats/claim/${seg(invitationToken)}`)

/** Claims the seat of an invitation token (single use): the seat, and a customer session token for its holder. */
export const claimSeat = (client: ApiClient, invitationToken: string) =>
  client.post<Schema<'CustomerSeatClaimResponse'>>('/customer-seats/claim', {invitation_token: invitationToken})

// ---- the customer portal: the seats of the signed-in customer's subscriptions and orders ----

const PORTAL_SEATS = '/customer-portal/seats'

export const listPortalSeats = (client: ApiClient, c: SeatContainer) => client.get<SeatsList>(PORTAL_SEATS, {query: containerQuery(c)})

export const assignPortalSeat = (client: ApiClient, body: PortalSeatAssign) => client.post<CustomerSeat>(PORTAL_SEATS, body)

export const revokePortalSeat = (client: ApiClient, id: string) => client.delete<CustomerSeat>(`${PORTAL_SEATS}/${seg(id)}`)

export const resendPortalSeatInvitation = (client: ApiClient, id: string) => client.post<CustomerSeat>(`${PORTAL_SEATS}/${seg(id)}/resend`)

/** The subscriptions in which the signed-in customer holds a claimed seat. */
export function listClaimedSubscriptions(client: ApiClient, page: PaginateOptions): AsyncGenerator<CustomerSubscription> {
  return listItems<CustomerSubscription>(client, `${PORTAL_SEATS}/subscriptions`, {}, page)
}
