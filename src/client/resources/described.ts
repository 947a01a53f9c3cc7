// One description per resource of the API that till works with: what it is called in messages, the till
// topic that lists it, its wire type and the operations (by the published document's operation ids) that
// act on it. What other parts of till need to know of a resource is derived from these: the object a
// request path names in error messages (`pathObject` in ../service-errors.ts), the scopes a resource's
// operations need, and the checks of test/client/described.test.ts (every operation a command sends
// belongs to one description; every column set names a described view; every topic is in the help).
import {matching} from '../operation-of.js'
import {OPERATIONS, type OperationId, type UndocumentedOperationId} from '../operations.generated.js'
import {describe, type ResourceDescription} from './described-types.js'
import {PORTAL_RESOURCES} from './described-portal.js'

export {DERIVED_VERBS, type DerivedVerb, type ResourceDescription} from './described-types.js'
export const RESOURCES = [
  describe({
    name: 'products',
    noun: 'product',
    topic: 'products',
    about: 'Products and their prices.',
    wire: 'Product',
    operations: ['products:list', 'products:get', 'products:create', 'products:update', 'products:update_benefits'],
  }),
  describe({
    name: 'customers',
    noun: 'customer',
    topic: 'customers',
    about: 'Customers: list, get, create, update, delete, their state (active subscriptions, granted benefits) and the members of team customers.',
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
    name: 'members',
    noun: 'member',
    topic: 'customers members',
    about: 'The members of a customer (a team: its owner, billing managers and members): list, add, get, change roles, remove.',
    wire: 'Member',
    parent: 'customer',
    newer: ['customers:members:list', 'customers:members:list_external'],
    operations: [
      'customers:members:create',
      'customers:members:create_external',
      'customers:members:get',
      'customers:members:get_external',
      'customers:members:update',
      'customers:members:update_external',
      'customers:members:delete',
      'customers:members:delete_external',
      'members:list_members',
    ],
  }),
  describe({
    name: 'orders',
    noun: 'order',
    topic: 'orders',
    about: 'Orders, their billing details and invoices; draft orders charged off-session to a saved payment method.',
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
    about: 'Subscriptions: list, get, cancel, uncancel, revoke, change plan or seats.',
    wire: 'Subscription',
    operations: ['subscriptions:list', 'subscriptions:get', 'subscriptions:create', 'subscriptions:update', 'subscriptions:revoke', 'subscriptions:export'],
  }),
  describe({
    name: 'customer-seats',
    noun: 'seat',
    topic: 'seats',
    about: "Seats of seat-based subscriptions: list, assign to an e-mail or customer, revoke, resend the invitation; an invitation's claim info and claim.",
    wire: 'CustomerSeat',
    operations: [
      'customer-seats:list_seats',
      'customer-seats:assign_seat',
      'customer-seats:revoke_seat',
      'customer-seats:resend_invitation',
      'customer-seats:get_claim_info',
      'customer-seats:claim_seat',
    ],
    views: ['customer-seats', 'seat-claim-info'],
  }),
  describe({
    name: 'benefits',
    noun: 'benefit',
    topic: 'benefits',
    about: 'Benefits (license keys, downloads, custom perks...) and their grants.',
    wire: 'Benefit',
    operations: ['benefits:list', 'benefits:get', 'benefits:create', 'benefits:update', 'benefits:delete', 'benefits:grants', 'benefits:files'],
    views: ['benefits', 'benefit-files'],
  }),
  describe({
    name: 'benefit-grants',
    noun: 'benefit grant',
    topic: 'benefit-grants',
    about: 'Benefit grants across every benefit: who has (or had) which benefit.',
    wire: 'BenefitGrant',
    operations: ['benefit-grants:list'],
  }),
  describe({
    name: 'checkouts',
    noun: 'checkout',
    topic: 'checkouts',
    about: 'Checkout sessions: list, get, create (prints the checkout URL).',
    wire: 'Checkout',
    operations: [
      'checkouts:list',
      'checkouts:get',
      'checkouts:create',
      'checkouts:update',
      'checkouts:client_get',
      'checkouts:client_update',
      'checkouts:client_confirm',
    ],
  }),
  describe({
    name: 'checkout-links',
    noun: 'checkout link',
    topic: 'checkout-links',
    about: 'Reusable checkout links.',
    wire: 'CheckoutLink',
    operations: ['checkout-links:list', 'checkout-links:get', 'checkout-links:create', 'checkout-links:update', 'checkout-links:delete'],
  }),
  describe({
    name: 'custom-fields',
    noun: 'custom field',
    topic: 'custom-fields',
    about: 'Custom checkout fields (text, number, date, checkbox, select) and which products ask them.',
    wire: 'CustomField',
    operations: ['custom-fields:list', 'custom-fields:get', 'custom-fields:create', 'custom-fields:update', 'custom-fields:delete'],
  }),
  describe({
    name: 'discounts',
    noun: 'discount',
    topic: 'discounts',
    about: 'Discounts: percentage or fixed amounts off, with codes, windows and redemption limits.',
    wire: 'Discount',
    operations: ['discounts:list', 'discounts:get', 'discounts:create', 'discounts:update', 'discounts:delete'],
  }),
  describe({
    name: 'disputes',
    noun: 'dispute',
    topic: 'disputes',
    about: 'Payment disputes (chargebacks): list, get, accept.',
    wire: 'Dispute',
    operations: ['disputes:list', 'disputes:get', 'disputes:accept'],
  }),
  describe({
    name: 'events',
    noun: 'event',
    topic: 'events',
    about: 'Usage events: ingest them in bulk from files or pipelines, list, follow, and the names seen.',
    wire: 'Event',
    operations: ['events:list', 'events:get', 'events:ingest', 'events:list_names'],
    views: ['events', 'event-names'],
  }),
  describe({
    name: 'event-types',
    noun: 'event type',
    topic: 'events types',
    about: 'Event types: each event name with its statistics, and the label events of that name are shown with.',
    wire: 'EventTypeWithStats',
    operations: ['event-types:list', 'event-types:update'],
  }),
  describe({
    name: 'files',
    noun: 'file',
    topic: 'files',
    about: 'Files for downloadable benefits and product media: upload (with progress and checksums), list, rename, delete.',
    wire: 'FileRead',
    operations: ['files:list', 'files:create', 'files:uploaded', 'files:update', 'files:delete'],
  }),
  describe({
    name: 'license-keys',
    noun: 'license key',
    topic: 'license-keys',
    about: 'License keys: list, get, validate, activate, deactivate and rotate.',
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
    about: 'Meters over usage events: filters, aggregations and quantities per period.',
    wire: 'Meter',
    operations: ['meters:list', 'meters:get', 'meters:create', 'meters:update', 'meters:quantities'],
    views: ['meters', 'meter-quantities'],
  }),
  describe({
    name: 'customer-meters',
    noun: 'customer meter',
    topic: 'customer-meters',
    about: "Customers' meters: units consumed, credited and the balance.",
    wire: 'CustomerMeter',
    operations: ['customer_meters:list', 'customer_meters:get'],
  }),
  describe({
    name: 'metric-dashboards',
    noun: 'metric dashboard',
    topic: 'metrics dashboards',
    about: 'Saved metrics dashboards: list, get, create, update, delete (commands derived from the resource description).',
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
    about:
      "Metrics the service computes (revenue, orders, MRR, subscriptions...): terminal charts, periods as rows, the service's CSV export, the list of metrics, the range limits and saved dashboards.",
    wire: 'MetricsResponse',
    operations: ['metrics:get', 'metrics:limits', 'metrics:export'],
    views: [],
  }),
  describe({
    name: 'oauth2-clients',
    noun: 'OAuth2 client',
    topic: 'oauth2-clients',
    about: "OAuth2 clients of integrations that sign users in (a created client's secret is shown once).",
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
    about: 'The organization the token belongs to.',
    wire: 'Organization',
    operations: ['organizations:list', 'organizations:get', 'organizations:update'],
    views: [],
    listed: false,
  }),
  describe({
    name: 'payments',
    noun: 'payment',
    topic: 'payments',
    about: 'Payments of orders: list and get (read-only).',
    wire: 'Payment',
    operations: ['payments:list', 'payments:get'],
  }),
  describe({name: 'refunds', noun: 'refund', topic: 'refunds', about: 'Refunds of orders.', wire: 'Refund', operations: ['refunds:list', 'refunds:create']}),
  describe({
    name: 'webhook-endpoints',
    noun: 'webhook endpoint',
    topic: 'webhooks endpoints',
    about: 'Create, list, change and delete webhook endpoints, and replace their signing secret.',
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
    about: 'Delivery attempts of webhook events, with the HTTP answer.',
    wire: 'WebhookDelivery',
    operations: ['webhooks:list_webhook_deliveries'],
  }),
  describe({
    name: 'webhook-events',
    noun: 'webhook event',
    topic: 'webhooks',
    about: "Webhook endpoints, their deliveries, sending an event again, and checking a delivery's signature.",
    wire: 'WebhookEvent',
    operations: ['webhooks:redeliver_webhook_event'],
    views: [],
  }),
  describe({
    name: 'customer-sessions',
    noun: 'customer session',
    topic: 'sessions',
    about: 'Customer sessions: customer access tokens for the Customer Portal API.',
    wire: 'CustomerSession',
    operations: ['customer-sessions:create'],
  }),
  ...PORTAL_RESOURCES,
] as const satisfies readonly ResourceDescription[]

export type ResourceName = (typeof RESOURCES)[number]['name']

/** The noun of a described resource, for what names one elsewhere (the catalog file's kinds). */
export const nounOf = (name: ResourceName): string => (RESOURCES as readonly ResourceDescription[]).find((r) => r.name === name)!.noun

/** Operations till sends that act on no resource of their own, and why. */
export const NOT_RESOURCES: Readonly<Partial<Record<OperationId | UndocumentedOperationId, string>>> = {
  'customer_portal:license_keys:rotate':
    "a portal license key's rotation (till portal license-keys rotate), newer than the 2026-10 document that descriptions name operations of (SDK 1.0.1 types it)",
  'oauth2:request_token': 'signing in (till auth login) and renewing its token',
  'oauth2:revoke_token': 'signing out (till auth logout)',
  'cli:listen': 'the event stream of till listen',
  'cli:events': 'what till trigger --list shows',
  'cli:trigger': 'the sample event till trigger sends to till listen',
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
  /** The object the path names first, for a resource under another (`parent` of its description). */
  under?: {noun: string; id: string; external: boolean}
}

/** The described resource a request path (after `/v1`, as segments) acts on, with its id; method optional. */
export function matchPath(parts: readonly string[], method?: string): MatchedPath | undefined {
  for (const template of matching(parts, method)) {
    const resource = (RESOURCES as readonly ResourceDescription[]).find((r) => (r.operations as readonly string[]).includes(template.id))
    if (!resource) continue
    const at = template.segments.indexOf(null)
    const own = resource.parent ? template.segments.lastIndexOf(null) : at
    if (resource.parent && at >= 0) {
      const under = {noun: resource.parent, id: parts[at]!, external: at > 0 && template.segments[at - 1] === 'external'}
      // a path with the parent's id alone (a list, an add) names the parent
      const parent = (RESOURCES as readonly ResourceDescription[]).find((r) => r.noun === resource.parent)!
      if (own === at) return {resource: parent, id: under.id, external: under.external, rest: parts.slice(at + 1)}
      return {resource, id: parts[own], external: under.external, rest: parts.slice(own + 1), under}
    }
    return {
      resource,
      id: at >= 0 ? parts[at] : undefined,
      external: at > 0 && template.segments[at - 1] === 'external',
      rest: at >= 0 ? parts.slice(at + 1) : [],
    }
  }
  return undefined
}
