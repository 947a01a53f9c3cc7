// One description per resource of the API that till works with: what it is called in messages, the till
// topic that lists it, its wire type and the operations (by the published document's operation ids) that
// act on it. What other parts of till need to know of a resource is derived from these: the object a
// request path names in error messages (`pathObject` in ../service-errors.ts), the scopes a resource's
// operations need, and the checks of test/client/described.test.ts (every operation a command sends
// belongs to one description; every column set names a described view; every topic is in the help).
import {matching} from '../operation-of.js'
import {OPERATIONS, type OperationId, type UndocumentedOperationId} from '../operations.generated.js'
import type {components} from '../wire/index.js'

export interface ResourceDescription {
  /** The key that names it everywhere (column sets, completion): `discounts`, `portal-orders`. */
  readonly name: string
  /** One of them, in messages: `discount`, `webhook endpoint`. */
  readonly noun: string
  /** The till topic that lists them: `discounts`, `webhooks endpoints`, `portal orders`. */
  readonly topic: string
  /** Its wire type in the published document. */
  readonly wire: keyof components['schemas']
  /** Every operation of the document that acts on it, and that till may send. */
  readonly operations: readonly OperationId[]
  /** The column sets that show it or its parts (default: one named as the resource). */
  readonly views?: readonly string[]
  /** `till TOPIC list` lists them (default: when one of its operations is a list). */
  readonly listed?: boolean
  /**
   * Commands made from the description alone (src/areas/derived/commands.ts), by verb: the operation each
   * sends. A resource whose everyday commands need nothing of their own is added without command files.
   */
  readonly commands?: Readonly<Partial<Record<DerivedVerb, OperationId>>>
  /** The plural in command help (`metric dashboards`); default: the noun and an s. */
  readonly plural?: string
  /** A body the derived `create` takes: shown in its help, and what the tests create one with. */
  readonly example?: Readonly<Record<string, unknown>>
}

/** The commands a description can derive: `till TOPIC list|get|create|update|delete`. */
export const DERIVED_VERBS = ['list', 'get', 'create', 'update', 'delete'] as const
export type DerivedVerb = (typeof DERIVED_VERBS)[number]

const describe = <const T extends ResourceDescription>(d: T): T => d

export const RESOURCES = [
  describe({
    name: 'products',
    noun: 'product',
    topic: 'products',
    wire: 'Product',
    operations: ['products:list', 'products:get', 'products:create', 'products:update', 'products:update_benefits'],
  }),
  describe({
    name: 'customers',
    noun: 'customer',
    topic: 'customers',
    wire: 'Customer',
    operations: [
      'customers:list',
      'customers:get',
      'customers:create',
      'customers:update',
      'customers:delete',
      'customers:export',
      'customers:get_external',
      'customers:update_external',
      'customers:delete_external',
      'customers:get_state',
      'customers:get_state_external',
      'customers:list_payment_methods',
      'customers:list_payment_methods_external',
    ],
    views: ['customers', 'customer-imports', 'customer-state', 'customer-subscriptions', 'customer-benefits', 'payment-methods'],
  }),
  describe({
    name: 'orders',
    noun: 'order',
    topic: 'orders',
    wire: 'Order',
    operations: [
      'orders:list',
      'orders:get',
      'orders:create',
      'orders:update',
      'orders:finalize',
      'orders:export',
      'orders:invoice',
      'orders:generate_invoice',
      'orders:receipt',
    ],
  }),
  describe({
    name: 'subscriptions',
    noun: 'subscription',
    topic: 'subscriptions',
    wire: 'Subscription',
    operations: ['subscriptions:list', 'subscriptions:get', 'subscriptions:create', 'subscriptions:update', 'subscriptions:revoke', 'subscriptions:export'],
  }),
  describe({
    name: 'benefits',
    noun: 'benefit',
    topic: 'benefits',
    wire: 'Benefit',
    operations: ['benefits:list', 'benefits:get', 'benefits:create', 'benefits:update', 'benefits:delete', 'benefits:grants', 'benefits:files'],
    views: ['benefits', 'benefit-files'],
  }),
  describe({name: 'benefit-grants', noun: 'benefit grant', topic: 'benefit-grants', wire: 'BenefitGrant', operations: ['benefit-grants:list']}),
  describe({
    name: 'checkouts',
    noun: 'checkout',
    topic: 'checkouts',
    wire: 'Checkout',
    operations: ['checkouts:list', 'checkouts:get', 'checkouts:create', 'checkouts:update', 'checkouts:client_confirm'],
  }),
  describe({
    name: 'checkout-links',
    noun: 'checkout link',
    topic: 'checkout-links',
    wire: 'CheckoutLink',
    operations: ['checkout-links:list', 'checkout-links:get', 'checkout-links:create', 'checkout-links:update', 'checkout-links:delete'],
  }),
  describe({
    name: 'custom-fields',
    noun: 'custom field',
    topic: 'custom-fields',
    wire: 'CustomField',
    operations: ['custom-fields:list', 'custom-fields:get', 'custom-fields:create', 'custom-fields:update', 'custom-fields:delete'],
  }),
  describe({
    name: 'discounts',
    noun: 'discount',
    topic: 'discounts',
    wire: 'Discount',
    operations: ['discounts:list', 'discounts:get', 'discounts:create', 'discounts:update', 'discounts:delete'],
  }),
  describe({name: 'disputes', noun: 'dispute', topic: 'disputes', wire: 'Dispute', operations: ['disputes:list', 'disputes:get', 'disputes:accept']}),
  describe({
    name: 'events',
    noun: 'event',
    topic: 'events',
    wire: 'Event',
    operations: ['events:list', 'events:get', 'events:ingest', 'events:list_names'],
    views: ['events', 'event-names'],
  }),
  describe({
    name: 'event-types',
    noun: 'event type',
    topic: 'events types',
    wire: 'EventTypeWithStats',
    operations: ['event-types:list', 'event-types:update'],
  }),
  describe({
    name: 'files',
    noun: 'file',
    topic: 'files',
    wire: 'FileRead',
    operations: ['files:list', 'files:create', 'files:uploaded', 'files:update', 'files:delete'],
  }),
  describe({
    name: 'license-keys',
    noun: 'license key',
    topic: 'license-keys',
    wire: 'LicenseKeyRead',
    operations: [
      'license_keys:list',
      'license_keys:get',
      'license_keys:update',
      'license_keys:get_activation',
      'license_keys:validate',
      'license_keys:activate',
      'license_keys:deactivate',
    ],
    views: ['license-keys', 'license-key-activations'],
  }),
  describe({
    name: 'meters',
    noun: 'meter',
    topic: 'meters',
    wire: 'Meter',
    operations: ['meters:list', 'meters:get', 'meters:create', 'meters:update', 'meters:quantities'],
    views: ['meters', 'meter-quantities'],
  }),
  describe({
    name: 'customer-meters',
    noun: 'customer meter',
    topic: 'customer-meters',
    wire: 'CustomerMeter',
    operations: ['customer_meters:list', 'customer_meters:get'],
  }),
  describe({
    name: 'metric-dashboards',
    noun: 'metric dashboard',
    topic: 'metrics dashboards',
    wire: 'MetricDashboardSchema',
    operations: ['metrics:list_dashboards', 'metrics:get_dashboard', 'metrics:create_dashboard', 'metrics:update_dashboard', 'metrics:delete_dashboard'],
    example: {name: 'Revenue', metrics: ['revenue', 'orders']},
    commands: {
      list: 'metrics:list_dashboards',
      get: 'metrics:get_dashboard',
      create: 'metrics:create_dashboard',
      update: 'metrics:update_dashboard',
      delete: 'metrics:delete_dashboard',
    },
  }),
  describe({
    name: 'metrics',
    noun: 'metric',
    topic: 'metrics',
    wire: 'MetricsResponse',
    operations: ['metrics:get', 'metrics:limits', 'metrics:export'],
    views: [],
  }),
  describe({
    name: 'oauth2-clients',
    noun: 'OAuth2 client',
    topic: 'oauth2-clients',
    wire: 'OAuth2Client',
    operations: [
      'oauth2:clients:oauth2:create_client',
      'oauth2:clients:oauth2:get_client',
      'oauth2:clients:oauth2:update_client',
      'oauth2:clients:oauth2:delete_client',
    ],
    views: ['oauth2-clients', 'oauth2-client-created'],
  }),
  describe({
    name: 'organizations',
    noun: 'organization',
    topic: 'org',
    wire: 'Organization',
    operations: ['organizations:list', 'organizations:get', 'organizations:update'],
    views: [],
    listed: false,
  }),
  describe({name: 'payments', noun: 'payment', topic: 'payments', wire: 'Payment', operations: ['payments:list', 'payments:get']}),
  describe({name: 'refunds', noun: 'refund', topic: 'refunds', wire: 'Refund', operations: ['refunds:list', 'refunds:create']}),
  describe({
    name: 'webhook-endpoints',
    noun: 'webhook endpoint',
    topic: 'webhooks endpoints',
    wire: 'WebhookEndpoint',
    operations: [
      'webhooks:list_webhook_endpoints',
      'webhooks:get_webhook_endpoint',
      'webhooks:create_webhook_endpoint',
      'webhooks:update_webhook_endpoint',
      'webhooks:delete_webhook_endpoint',
      'webhooks:reset_webhook_endpoint_secret',
    ],
  }),
  describe({
    name: 'webhook-deliveries',
    noun: 'webhook delivery',
    topic: 'webhooks deliveries',
    wire: 'WebhookDelivery',
    operations: ['webhooks:list_webhook_deliveries'],
  }),
  describe({
    name: 'webhook-events',
    noun: 'webhook event',
    topic: 'webhooks',
    wire: 'WebhookEvent',
    operations: ['webhooks:redeliver_webhook_event'],
    views: [],
  }),
  describe({name: 'customer-sessions', noun: 'customer session', topic: 'sessions', wire: 'CustomerSession', operations: ['customer-sessions:create']}),
  describe({
    name: 'portal-customer',
    noun: 'customer',
    topic: 'portal customer',
    wire: 'CustomerPortalCustomer',
    operations: ['customer_portal:customers:get', 'customer_portal:customers:update'],
  }),
  describe({
    name: 'portal-orders',
    noun: 'order',
    topic: 'portal orders',
    wire: 'CustomerOrder',
    operations: [
      'customer_portal:orders:list',
      'customer_portal:orders:get',
      'customer_portal:orders:update',
      'customer_portal:orders:invoice',
      'customer_portal:orders:generate_invoice',
    ],
    views: ['orders'],
  }),
  describe({
    name: 'portal-subscriptions',
    noun: 'subscription',
    topic: 'portal subscriptions',
    wire: 'CustomerSubscription',
    operations: ['customer_portal:subscriptions:list', 'customer_portal:subscriptions:get', 'customer_portal:subscriptions:update'],
    views: ['subscriptions'],
  }),
  describe({
    name: 'portal-license-keys',
    noun: 'license key',
    topic: 'portal license-keys',
    wire: 'LicenseKeyRead',
    operations: [
      'customer_portal:license_keys:list',
      'customer_portal:license_keys:get',
      'customer_portal:license_keys:validate',
      'customer_portal:license_keys:activate',
      'customer_portal:license_keys:deactivate',
    ],
    views: ['license-keys'],
  }),
  describe({
    name: 'portal-meters',
    noun: 'meter',
    topic: 'portal meters',
    wire: 'CustomerCustomerMeter',
    operations: ['customer_portal:customer_meters:list', 'customer_portal:customer_meters:get'],
  }),
  describe({
    name: 'portal-benefit-grants',
    noun: 'benefit grant',
    topic: 'portal benefit-grants',
    wire: 'CustomerBenefitGrant',
    operations: ['customer_portal:benefit-grants:list'],
    views: ['benefit-grants'],
  }),
] as const satisfies readonly ResourceDescription[]

export type ResourceName = (typeof RESOURCES)[number]['name']

/** The noun of a described resource, for what names one elsewhere (the catalog file's kinds). */
export const nounOf = (name: ResourceName): string => (RESOURCES as readonly ResourceDescription[]).find((r) => r.name === name)!.noun

/** Operations till sends that act on no resource of their own, and why. */
export const NOT_RESOURCES: Readonly<Partial<Record<OperationId | UndocumentedOperationId, string>>> = {
  'oauth2:request_token': 'signing in (till auth login) and renewing its token',
  'oauth2:revoke_token': 'signing out (till auth logout)',
  'cli:listen': 'the event stream of till listen',
  'oauth2:introspect_token': "the sign-in's own token, introspected (till auth status --introspect)",
  'oauth2:userinfo': 'who signed in (till auth status --introspect)',
  // newer than the document, so in no description (whose operations are the document's); their paths
  // name a product and a license key all the same (pathObject matches them without the method)
  'products:delete': 'deleting a product (till products delete): newer than the document (SDK 1.0.1)',
  'license_keys:rotate': 'rotating a license key (till license-keys rotate): newer than the document (SDK 1.0.1)',
}

/** A list operation of the document (`customers:list`, `events:list_names`, `webhooks:list_webhook_endpoints`). */
export const isList = (id: OperationId): boolean => /:list(_[a-z_]+)?$/.test(id)

/** `till TOPIC list` lists the resource's objects. */
export const isListed = (resource: ResourceDescription): boolean => resource.listed ?? resource.operations.some(isList)

/** The scopes any one of which lets a token send each of a resource's operations (from the document). */
export function scopesOf(resource: ResourceDescription): Record<string, readonly string[]> {
  return Object.fromEntries(resource.operations.map((id) => [id, OPERATIONS[id].scopes]))
}

export interface MatchedPath {
  resource: ResourceDescription
  /** The value of the first parameter of the path, if it has one. */
  id?: string
  /** The first parameter is an external id (`/customers/external/{external_id}`). */
  external: boolean
  /** What follows the id (`invoice`, `activate`). */
  rest: string[]
}

/** The described resource a request path (after `/v1`, as segments) acts on, with its id; method optional. */
export function matchPath(parts: readonly string[], method?: string): MatchedPath | undefined {
  for (const template of matching(parts, method)) {
    const resource = (RESOURCES as readonly ResourceDescription[]).find((r) => r.operations.includes(template.id))
    if (!resource) continue
    const at = template.segments.indexOf(null)
    return {
      resource,
      id: at >= 0 ? parts[at] : undefined,
      external: at > 0 && template.segments[at - 1] === 'external',
      rest: at >= 0 ? parts.slice(at + 1) : [],
    }
  }
  return undefined
}
