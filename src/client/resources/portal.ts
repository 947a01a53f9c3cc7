// The Customer Portal API (server/polar/customer_portal/): what one signed-in customer sees and
// may change. Every function but the license-key checks takes a client holding a customer access token.
import {ExitCode, TillError, usageError} from '../till-error.js'
import type {InvoiceRoutes} from './invoices.js'
import type {ApiClient, RequestOptions} from '../client.js'
import type {PaginateOptions} from '../paginate.js'
import type {
  CustomerBenefitGrant,
  CustomerOrder,
  CustomerOrderUpdate,
  CustomerSubscription,
  CustomerSubscriptionUpdate,
  LicenseKeyActivate,
  LicenseKeyActivationRead,
  LicenseKeyDeactivate,
  LicenseKeyRead,
  LicenseKeyValidate,
  LicenseKeyWithActivations,
  PortalCustomer,
  PortalCustomerUpdate,
  RequestBody,
  Schema,
  ValidatedLicenseKey,
} from '../wire/index.js'
import {listItems, seg} from './common.js'
import {LICENSE_KEY_BUDGET} from './license-keys.js'
import {ownOrganization} from './organizations.js'

const PORTAL = '/customer-portal'

// ---- the customer ----

/** CustomerPortalCustomer: the signed-in customer. */
export const getPortalCustomer = (client: ApiClient) => client.get<PortalCustomer>(`${PORTAL}/customers/me`)

export const updatePortalCustomer = (client: ApiClient, body: PortalCustomerUpdate) => client.patch<PortalCustomer>(`${PORTAL}/customers/me`, body)

// ---- orders and invoices ----

export interface PortalOrderFilters {
  productId?: string[]
  billingType?: string
  subscriptionId?: string
  query?: string
  sorting?: string[]
}

export function listPortalOrders(client: ApiClient, f: PortalOrderFilters, page: PaginateOptions): AsyncGenerator<CustomerOrder> {
  return listItems<CustomerOrder>(
    client,
    `${PORTAL}/orders/`,
    {
      product_id: f.productId,
      product_billing_type: f.billingType,
      subscription_id: f.subscriptionId,
      query: f.query,
      sorting: f.sorting,
    },
    page,
  )
}

/** Another customer's order is a 404, like an unknown one. */
export const getPortalOrder = (client: ApiClient, id: string) => client.get<CustomerOrder>(`${PORTAL}/orders/${seg(id)}`)

export const updatePortalOrder = (client: ApiClient, id: string, body: CustomerOrderUpdate) => client.patch<CustomerOrder>(`${PORTAL}/orders/${seg(id)}`, body)

/** Starts invoice generation (202); the document exists a little later. */
export const generatePortalInvoice = (client: ApiClient, id: string) => client.post<null>(`${PORTAL}/orders/${seg(id)}/invoice`)

/** The temporary URL of an order's receipt; exit 1 while the order is not paid (202: the service has none yet). */
export async function portalReceiptUrl(client: ApiClient, id: string): Promise<string> {
  const res = await client.request<{url: string} | null>('GET', `${PORTAL}/orders/${seg(id)}/receipt`)
  if (res.status === 202 || !res.body?.url) {
    throw new TillError(
      `the receipt of order ${id} is not ready yet (the order is not paid)`,
      ExitCode.error,
      `try again later: till portal orders receipt ${id}`,
    )
  }
  return res.body.url
}

/** CustomerOrderPaymentStatus: the latest payment's status (`no_payment` when there is none) and its decline message. */
export const getPortalOrderPaymentStatus = (client: ApiClient, id: string) =>
  client.get<Schema<'CustomerOrderPaymentStatus'>>(`${PORTAL}/orders/${seg(id)}/payment-status`)

/** Retries a failed payment of the order, with a saved payment method or a new card's confirmation token. */
export const retryPortalOrderPayment = (client: ApiClient, id: string, by: {paymentMethodId: string} | {confirmationTokenId: string}) =>
  client.post<Schema<'CustomerOrderPaymentConfirmation'>>(
    `${PORTAL}/orders/${seg(id)}/confirm-payment`,
    ('paymentMethodId' in by
      ? {payment_method_id: by.paymentMethodId}
      : {confirmation_token_id: by.confirmationTokenId}) satisfies RequestBody<'customer_portal:orders:confirm_retry_payment'>,
  )

/** The portal's invoice routes, for the shared invoice flow (./invoices.ts). */
export const portalInvoices: InvoiceRoutes = {
  path: (id) => `${PORTAL}/orders/${seg(id)}/invoice`,
  generateCommand: (id) => `till portal orders invoice generate ${id}`,
  getCommand: (id) => `till portal orders invoice get ${id}`,
}

// ---- subscriptions ----

export interface PortalSubscriptionFilters {
  productId?: string[]
  active?: boolean
  query?: string
  sorting?: string[]
}

export function listPortalSubscriptions(client: ApiClient, f: PortalSubscriptionFilters, page: PaginateOptions): AsyncGenerator<CustomerSubscription> {
  return listItems<CustomerSubscription>(
    client,
    `${PORTAL}/subscriptions/`,
    {product_id: f.productId, active: f.active, query: f.query, sorting: f.sorting},
    page,
  )
}

export const getPortalSubscription = (client: ApiClient, id: string) => client.get<CustomerSubscription>(`${PORTAL}/subscriptions/${seg(id)}`)

/** Cancels at the end of the current period (the portal cannot end a subscription at once). */
export const cancelPortalSubscription = (client: ApiClient, id: string, c: {reason?: Schema<'CustomerCancellationReason'>; comment?: string} = {}) =>
  client.patch<CustomerSubscription>(`${PORTAL}/subscriptions/${seg(id)}`, {
    cancel_at_period_end: true,
    ...(c.reason ? {cancellation_reason: c.reason} : {}),
    ...(c.comment ? {cancellation_comment: c.comment} : {}),
  } satisfies CustomerSubscriptionUpdate)

/** A seat-based subscription's seats changed by its customer (the organization's proration applies). */
export const updatePortalSubscriptionSeats = (client: ApiClient, id: string, seats: number) =>
  client.patch<CustomerSubscription>(`${PORTAL}/subscriptions/${seg(id)}`, {seats} satisfies CustomerSubscriptionUpdate)

/** The portal's own cancellation (DELETE): at the end of the period, with no reason given. */
export const cancelPortalSubscriptionPlain = (client: ApiClient, id: string) => client.delete<CustomerSubscription>(`${PORTAL}/subscriptions/${seg(id)}`)

// ---- benefits and license keys ----

export interface PortalGrantFilters {
  type?: string[]
  benefitId?: string[]
  orderId?: string[]
  subscriptionId?: string[]
  query?: string
  sorting?: string[]
}

export function listPortalBenefitGrants(client: ApiClient, f: PortalGrantFilters, page: PaginateOptions): AsyncGenerator<CustomerBenefitGrant> {
  return listItems<CustomerBenefitGrant>(
    client,
    `${PORTAL}/benefit-grants/`,
    {
      type: f.type,
      benefit_id: f.benefitId,
      order_id: f.orderId,
      subscription_id: f.subscriptionId,
      query: f.query,
      sorting: f.sorting,
    },
    page,
  )
}

export const getPortalBenefitGrant = (client: ApiClient, id: string) => client.get<CustomerBenefitGrant>(`${PORTAL}/benefit-grants/${seg(id)}`)

/** The type must be the grant's benefit's; only Discord, GitHub and Slack grants take properties. */
export const updatePortalBenefitGrant = (client: ApiClient, id: string, body: RequestBody<'customer_portal:benefit-grants:update'>) =>
  client.patch<CustomerBenefitGrant>(`${PORTAL}/benefit-grants/${seg(id)}`, body)

/** A new key string for the customer's key; the old one stops validating (newer than the 2026-10 document). */
export const rotatePortalLicenseKey = (client: ApiClient, id: string) => client.post<LicenseKeyRead>(`${PORTAL}/license-keys/${seg(id)}/rotate`)

export function listPortalLicenseKeys(client: ApiClient, f: {benefitId?: string}, page: PaginateOptions): AsyncGenerator<LicenseKeyRead> {
  return listItems<LicenseKeyRead>(client, `${PORTAL}/license-keys/`, {benefit_id: f.benefitId}, page)
}

/** LicenseKeyWithActivations of one of the customer's keys. */
export const getPortalLicenseKey = (client: ApiClient, id: string) => client.get<LicenseKeyWithActivations>(`${PORTAL}/license-keys/${seg(id)}`)

/** The unauthenticated key checks: no token sent, and paced to their own 3-per-second budget. */
const KEY_CHECK: RequestOptions = {auth: 'none', budgets: [{name: 'license-keys', ...LICENSE_KEY_BUDGET}]}

/** ValidatedLicenseKey; every failed check is a 404 with its own detail, exhausted usage a 400. */
export const validatePortalLicenseKey = (client: ApiClient, body: LicenseKeyValidate) =>
  client.post<ValidatedLicenseKey>(`${PORTAL}/license-keys/validate`, body, KEY_CHECK)

/** LicenseKeyActivationRead; 403 NotPermitted when the key cannot take another activation. */
export const activatePortalLicenseKey = (client: ApiClient, body: LicenseKeyActivate) =>
  client.post<LicenseKeyActivationRead>(`${PORTAL}/license-keys/activate`, body, KEY_CHECK)

/** 204: the activation is gone and its slot free again. */
export const deactivatePortalLicenseKey = (client: ApiClient, body: LicenseKeyDeactivate) =>
  client.post<null>(`${PORTAL}/license-keys/deactivate`, body, KEY_CHECK)

/** The flags of PortalCommand that name the customer. */
export interface AsCustomer {
  'as-customer'?: string
  'as-customer-id'?: string
}

/** Whether the portal commands were given a customer: TILL_CUSTOMER_TOKEN, or --as-customer / --as-customer-id. */
export const customerGiven = (as: AsCustomer) => Boolean(as['as-customer'] || as['as-customer-id'] || process.env.TILL_CUSTOMER_TOKEN)

/** Where the organization id of the key checks can come from, in order of preference. */
export interface OrganizationSources {
  /** `--organization-id`. */
  given?: string
  /** The customer's portal client, when a customer was given. */
  customer?: () => Promise<ApiClient>
  /** The organization id stored on the profile. */
  configured?: string
  /** The profile's organization-token client. */
  organization: () => Promise<ApiClient>
}

/**
 * The organization the key checks name in their body: the one given, else the customer's (from one of
 * its license keys), else the profile's, else the organization token's own.
 */
export async function keyCheckOrganizationId(s: OrganizationSources): Promise<string> {
  if (s.given) return s.given
  const unknown = (why: string) => usageError(`the license-key checks need the organization id, and ${why}`, 'pass --organization-id ID')
  if (s.customer) {
    // The portal's customer (CustomerPortalCustomer) names no organization; its license keys do.
    const client = await s.customer()
    for await (const key of listPortalLicenseKeys(client, {}, {limit: 1, maxItems: 1})) {
      if (typeof key.organization_id === 'string') return key.organization_id
    }
    throw unknown('the customer shows none (it has no license keys)')
  }
  if (s.configured) return s.configured
  try {
    return (await ownOrganization(await s.organization())).id
  } catch (error) {
    // No organization token, or not one organization (TillErrors, not API errors): say which flag avoids it.
    if (error instanceof TillError) throw unknown(`it could not be looked up: ${error.message}`)
    throw error
  }
}
