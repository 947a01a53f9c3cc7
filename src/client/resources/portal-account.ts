// The Customer Portal's account routes (`/customer-portal/...`): who is signed in, the saved payment
// methods, the e-mail change, wallets, downloadables and the organization's public portal page. Every
// function but the e-mail checks and the organization takes a client holding a customer access token.
import type {ApiClient, RequestOptions} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import {ExitCode, TillError} from '../till-error.js'
import type {RequestBody, Schema} from '../wire/index.js'
import {listItems, seg} from './common.js'

const PORTAL = '/customer-portal'
const NO_TOKEN: RequestOptions = {auth: 'none'}

export type PortalUser = Schema<'PortalAuthenticatedUser'>
export type PortalSession = Schema<'CustomerCustomerSession'>
export type PortalPaymentMethod = Schema<'CustomerPaymentMethod'>
export type PaymentMethodAdded = Schema<'CustomerPaymentMethodCreateResponse'>

// ---- the session ----

/** PortalAuthenticatedUser: the customer (or team member) the session belongs to. */
export const getPortalUser = (client: ApiClient) => client.get<PortalUser>(`${PORTAL}/customer-session/user`)

/** When the session expires, and where the portal sends the customer back. */
export const introspectPortalSession = (client: ApiClient) => client.get<PortalSession>(`${PORTAL}/customer-session/introspect`)

// ---- payment methods ----

export function listPortalPaymentMethods(client: ApiClient, page: PaginateOptions): AsyncGenerator<PortalPaymentMethod> {
  return listItems<PortalPaymentMethod>(client, `${PORTAL}/customers/me/payment-methods`, {}, page)
}

/** Saves a card from the processor's confirmation token: `succeeded` with it, or `requires_action` with a client secret. */
export const addPortalPaymentMethod = (client: ApiClient, body: RequestBody<'customer_portal:customers:add_payment_method'>) =>
  client.post<PaymentMethodAdded>(`${PORTAL}/customers/me/payment-methods`, body)

/** Saves the card of a setup that needed the customer's action, once done. */
export const confirmPortalPaymentMethod = (client: ApiClient, body: RequestBody<'customer_portal:customers:confirm_payment_method'>) =>
  client.post<PaymentMethodAdded>(`${PORTAL}/customers/me/payment-methods/confirm`, body)

/** 204; 400 PaymentMethodInUseByActiveSubscription when it is the last one a subscription bills. */
export const deletePortalPaymentMethod = (client: ApiClient, id: string) => client.delete<null>(`${PORTAL}/customers/me/payment-methods/${seg(id)}`)

// ---- the e-mail change ----

/** 202: a link with a token is sent to the new address. */
export const requestEmailUpdate = (client: ApiClient, email: string) =>
  client.post<null>(`${PORTAL}/customers/me/email-update/request`, {email} satisfies RequestBody<'customer_portal:customers:request_email_update'>)

/** Whether a verification token is still valid (no customer token: the token is the proof). */
export async function checkEmailUpdate(client: ApiClient, token: string): Promise<boolean> {
  try {
    await client.get<null>(`${PORTAL}/customers/me/email-update/check`, {...NO_TOKEN, query: {token}})
    return true
  } catch (error) {
    if ((error as {status?: number}).status === 401) return false
    throw error
  }
}

/** Sets the new address; answers a new customer session token (the old session stays valid until it expires). */
export async function verifyEmailUpdate(client: ApiClient, token: string): Promise<{token: string}> {
  try {
    return await client.post<{token: string}>(`${PORTAL}/customers/me/email-update/verify`, {token}, NO_TOKEN)
  } catch (error) {
    if ((error as {status?: number}).status === 401) throw expired()
    throw error
  }
}

const expired = () =>
  new TillError('the e-mail change token is invalid or has expired', ExitCode.error, 'request the change again: till portal email request NEW_EMAIL')

// ---- wallets and downloadables ----

export const listPortalWallets = (client: ApiClient, f: {sorting?: string[]}, page: PaginateOptions) =>
  listItems<Schema<'CustomerWallet'>>(client, `${PORTAL}/wallets/`, {sorting: f.sorting}, page)

export const getPortalWallet = (client: ApiClient, id: string) => client.get<Schema<'CustomerWallet'>>(`${PORTAL}/wallets/${seg(id)}`)

export const listPortalDownloadables = (client: ApiClient, f: {benefitId?: string[]}, page: PaginateOptions) =>
  listItems<Schema<'DownloadableRead'>>(client, `${PORTAL}/downloadables/`, {benefit_id: f.benefitId}, page)

// ---- the organization ----

/** The organization's portal page (no token): its portal settings and its public recurring products. */
export const getPortalOrganization = (client: ApiClient, slug: string) =>
  client.get<Schema<'CustomerOrganizationData'>>(`${PORTAL}/organizations/${seg(slug)}`, NO_TOKEN)
