// Readable names for the wire types generated from the service's OpenAPI document (./openapi.ts,
// `npm run wire-types`): what till sends and what the service answers, by the document's own schema
// names. Types only; importing this module costs nothing at run time.
import type {components, operations} from './openapi.js'
import type {WEBHOOK_EVENTS} from '../webhook-events.js'

export type {components, operations, paths} from './openapi.js'

type Schemas = components['schemas']

/** A component schema of the document by name: `Schema<'Product'>`. */
export type Schema<N extends keyof Schemas> = Schemas[N]

/** The JSON body of a request or answer object of the document. */
type Json<T> = T extends {content: {'application/json': infer B}} ? B : never

/** What an operation takes as its JSON body, by operation id: `RequestBody<'benefits:update'>`. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends {requestBody?: infer R} ? Json<NonNullable<R>> : never

/** What an operation answers with a status (200 by default), by operation id: `Answer<'orders:get'>`. */
export type Answer<Op extends keyof operations, Status extends number = 200> = operations[Op]['responses'] extends infer R
  ? Status extends keyof R
    ? Json<R[Status]>
    : never
  : never

/** A page of a list operation: the items and the pagination. */
export interface ListResource<T> {
  items: T[]
  pagination: Schemas['Pagination']
}

// ---- the organization's resources ----
export type Organization = Schemas['Organization']
export type OrganizationUpdate = Schemas['OrganizationUpdate']

export type Product = Schemas['Product']
export type ProductCreate = Schemas['ProductCreate']
export type ProductUpdate = Schemas['ProductUpdate']
export type ProductPrice = Product['prices'][number]
/** A price to create: fixed, custom (pay what you want), seat-based or metered. */
export type ProductPriceCreate = NonNullable<ProductCreate['prices']>[number]
export type AttachedCustomFieldCreate = Schemas['AttachedCustomFieldCreate']

export type Benefit = Schemas['Benefit']
export type BenefitCreate = Schemas['BenefitCreate']
/** Every `Benefit*Update`: `type` is required and names the benefit's own type. */
export type BenefitUpdate = RequestBody<'benefits:update'>
export type BenefitGrant = Schemas['BenefitGrant']

export type Checkout = Schemas['Checkout']
export type CheckoutCreate = Schemas['CheckoutCreate']
export type CheckoutUpdate = Schemas['CheckoutUpdate']
export type CheckoutLink = Schemas['CheckoutLink']
export type CheckoutLinkCreate = Schemas['CheckoutLinkCreate']
export type CheckoutLinkUpdate = Schemas['CheckoutLinkUpdate']

export type CustomField = Schemas['CustomField']
export type CustomFieldCreate = Schemas['CustomFieldCreate']
export type CustomFieldUpdate = Schemas['CustomFieldUpdate']

export type Customer = Schemas['Customer']
export type CustomerCreate = Schemas['CustomerCreate']
export type CustomerUpdate = Schemas['CustomerUpdate']
export type CustomerUpdateExternalID = Schemas['CustomerUpdateExternalID']
export type CustomerState = Schemas['CustomerState']
export type CustomerSession = Schemas['CustomerSession']
export type CustomerSessionCreate = RequestBody<'customer-sessions:create'>
export type PaymentMethod = Schemas['PaymentMethod']
export type Address = Schemas['AddressInput']

export type Discount = Schemas['Discount']
export type DiscountCreate = Schemas['DiscountCreate']
export type DiscountUpdate = Schemas['DiscountUpdate']

export type Event = Schemas['Event']
export type EventName = Schemas['EventName']
export type EventTypeWithStats = Schemas['EventTypeWithStats']
export type EventType = Schemas['EventType']
export type EventsIngest = Schemas['EventsIngest']
export type EventsIngestResponse = Schemas['EventsIngestResponse']

export type FileRead = Schemas['FileRead']
export type FileCreate = Schemas['FileCreate']
export type FileUpload = Schemas['FileUpload']
export type FileUploadCompleted = Schemas['FileUploadCompleted']
export type FilePatch = Schemas['FilePatch']

export type LicenseKeyRead = Schemas['LicenseKeyRead']
export type LicenseKeyWithActivations = Schemas['LicenseKeyWithActivations']
export type LicenseKeyUpdate = Schemas['LicenseKeyUpdate']
export type LicenseKeyValidate = Schemas['LicenseKeyValidate']
export type ValidatedLicenseKey = Schemas['ValidatedLicenseKey']
export type LicenseKeyActivate = Schemas['LicenseKeyActivate']
export type LicenseKeyActivationRead = Schemas['LicenseKeyActivationRead']
export type LicenseKeyDeactivate = Schemas['LicenseKeyDeactivate']

export type Meter = Schemas['Meter']
export type MeterCreate = Schemas['MeterCreate']
export type MeterUpdate = Schemas['MeterUpdate']
export type MeterQuantities = Schemas['MeterQuantities']
export type CustomerMeter = Schemas['CustomerMeter']

export type MetricsResponse = Schemas['MetricsResponse']
export type MetricsLimits = Schemas['MetricsLimits']

export type Order = Schemas['Order']
export type OrderUpdate = Schemas['OrderUpdate']
export type OrderInvoice = Schemas['OrderInvoice']
export type OrderReceipt = Schemas['OrderReceipt']
export type Payment = Schemas['Payment']
export type Dispute = Schemas['Dispute']
export type Refund = Schemas['Refund']
export type RefundCreate = Schemas['RefundCreate']

export type Subscription = Schemas['Subscription']
export type SubscriptionCreate = RequestBody<'subscriptions:create'>
export type SubscriptionUpdate = Schemas['SubscriptionUpdate']

/**
 * What license keys carry beyond the document (contract/changes): their seat member from 2026-10 on
 * (#14501); a validated or activated key's subscription and order from 2027-01.
 */
export type LicenseKeyNewer = {
  member_id?: string | null
  member?: {id: string; email: string; external_id: string | null} | null
  subscription_id?: string | null
  subscription?: {id: string; status: Schemas['SubscriptionStatus']; current_period_end: string; ends_at: string | null} | null
  order_id?: string | null
  order?: {id: string; created_at: string; status: Schemas['OrderStatus']; paid: boolean} | null
}

// The fields newer than the document (polarsource/polar #14117 and #14141): the API version of an
// endpoint's payloads and the way its deliveries are signed.
export type WebhookEndpoint = Schemas['WebhookEndpoint'] & {
  api_version: string
  uses_standard_webhook_signature: boolean
}
/** An event type: the document's and those the service's changes since add (subscription.migrated, #14508). */
export type WebhookEventType = Schemas['WebhookEventType'] | (typeof WEBHOOK_EVENTS)[number]
export type WebhookEndpointCreate = Omit<Schemas['WebhookEndpointCreate'], 'events'> & {events: WebhookEventType[]; api_version?: string}
export type WebhookEndpointUpdate = Omit<Schemas['WebhookEndpointUpdate'], 'events'> & {
  events?: WebhookEventType[] | null
  api_version?: string | null
}
export type WebhookDelivery = Schemas['WebhookDelivery']

export type OAuth2Client = Schemas['OAuth2Client']
export type OAuth2ClientConfiguration = Schemas['OAuth2ClientConfiguration']
export type OAuth2ClientConfigurationUpdate = Schemas['OAuth2ClientConfigurationUpdate']

// ---- the Customer Portal ----
export type PortalCustomer = Schemas['CustomerPortalCustomer']
export type PortalCustomerUpdate = Schemas['CustomerPortalCustomerUpdate']
export type CustomerOrder = Schemas['CustomerOrder']
export type CustomerOrderUpdate = Schemas['CustomerOrderUpdate']
export type CustomerSubscription = Schemas['CustomerSubscription']
export type CustomerSubscriptionUpdate = Schemas['CustomerSubscriptionUpdate']
export type CustomerBenefitGrant = Schemas['CustomerBenefitGrant']
export type CustomerCustomerMeter = Schemas['CustomerCustomerMeter']
