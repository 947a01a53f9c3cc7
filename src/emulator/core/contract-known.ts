// Where the service is knowingly not its published document (docs/contract.md, "Where the document is not
// the service"): routes it has and does not publish, answers it gives that the document does not describe,
// and the document's own flaws that no server can meet. Each entry with its reason and the file and line of
// the service's public source (polarsource/polar) that shows it; the contract mode reads the first two.
// What is newer than the document and checked as such is in contract-newer.ts.

/** Where the service's public source (polarsource/polar) shows it: `path:line`, or another reference. */
type Source = string

/**
 * Operations the service has but does not publish, which till uses knowingly: not violations. Each with
 * where it is described.
 */
export const UNPUBLISHED: Array<{method: string; path: RegExp; why: string; source: Source}> = [
  {
    method: 'GET',
    path: /^\/v1\/cli\/listen\/[^/]+$/,
    why: "the event stream of the service's own CLI (server/polar/cli/endpoints.py)",
    source: 'server/polar/cli/endpoints.py:75 (its router is APITag.private, :26)',
  },
  {
    method: 'GET',
    path: /^\/v1\/cli\/events$/,
    why: "the event types the service's own CLI can trigger (PR #14347)",
    source: 'server/polar/cli/endpoints.py (its router is APITag.private), service.py list_trigger_events',
  },
  {
    method: 'POST',
    path: /^\/v1\/cli\/trigger\/[^/]+$/,
    why: "a fixture event sent to the listen stream by the service's own CLI (PR #14347)",
    source: 'server/polar/cli/endpoints.py (APITag.private), service.py trigger_event',
  },
  {
    method: 'GET',
    path: /^\/v1\/checkout-links\/[^/]+\/redirect$/,
    why: "a checkout link's url, opened by a buyer's browser (the service's CHECKOUT_BASE_URL)",
    source: 'server/polar/checkout_link/endpoints.py:173 (include_in_schema=False)',
  },
]

/** The body's `error`, when it is one of the service's error bodies. */
const errorOf = (body: unknown) => (body as {error?: unknown} | null)?.error

/**
 * Answers the service gives that its document does not describe, each with its reason and source: not
 * violations.
 */
export const DEPARTURES: Array<{operation: string; status: number; when: (body: unknown) => boolean; why: string; source: Source}> = [
  {
    operation: 'oauth2:introspect_token',
    status: 200,
    when: (body) => JSON.stringify(body) === '{"active":false}',
    why: 'RFC 7662 §2.2: an inactive token is answered {"active": false} alone; the document lists only the active shape',
    source: 'server/polar/oauth2/endpoints/oauth2.py:288 (authlib IntrospectionEndpoint)',
  },
  {
    operation: 'customer_portal:orders:confirm_retry_payment',
    status: 422,
    when: (body) => errorOf(body) === 'PaymentRetryValidationError',
    why: "the order service's PaymentRetryValidationError (neither or both of a token and a saved method, another customer's method); the document names only OrderNotEligibleForRetry",
    source: 'server/polar/order/service.py:324 (raised at :1935)',
  },
  ...['orders:invoice', 'customer_portal:orders:invoice'].map((operation) => ({
    operation,
    status: 404,
    when: (body: unknown) => errorOf(body) === 'InvoiceDoesNotExist',
    why: 'an order whose invoice was not generated yet: the service raises InvoiceDoesNotExist ("No invoice exists for order ..."); the document names only ResourceNotFound',
    source: 'server/polar/order/service.py:205 (raised at :605; the portal at customer_portal/service/order.py:149)',
  })),
  {
    operation: 'subscriptions:update',
    status: 409,
    when: (body) => errorOf(body) === 'NotPausedSubscription',
    why: 'resuming a subscription that is not paused: the service raises NotPausedSubscription; the document names only SubscriptionLocked for a 409',
    source: 'server/polar/subscription/service.py:218 (raised at :2622)',
  },
  {
    operation: 'organizations:create',
    status: 401,
    when: (body) => errorOf(body) === 'Unauthorized',
    why: "an organization token (any token but a user's): the route takes a user only and the service answers 401 Unauthorized; the document (and the SDK) declare only 403 CannotCreateOrganizationError",
    source: 'server/polar/organization/auth.py:41 (allowed_subjects={User}; auth/dependencies.py:162)',
  },
]

/**
 * The document's own flaws, which no server can meet: how the contract mode reads them instead, with the
 * service's source that shows what the service means.
 */
export const DOCUMENT_FLAWS: Array<{schema: string; why: string; source: Source}> = [
  {
    schema: 'Discount',
    why: 'a oneOf without a discriminator whose fixed-amount (and percentage) members both match a repeating discount (the once-or-forever member does not forbid duration_in_months); the service tells them apart by type and duration (a callable discriminator the document cannot express), so the contract mode reads it as anyOf (contract-schemas.ts)',
    source: 'server/polar/discount/schemas.py:493 (get_discriminator_value at :461)',
  },
]
