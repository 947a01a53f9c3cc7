// Where the service is knowingly not its published document (docs/contract.md): routes it has and does
// not publish, and answers it gives that the document does not describe (what is newer than the document
// and checked as such is in contract-newer.ts). Each entry with its reason; the contract mode reads them.

/**
 * Operations the service has but does not publish, which till uses knowingly: not violations. Each with
 * where it is described.
 */
export const UNPUBLISHED: Array<{method: string; path: RegExp; why: string}> = [
  {method: 'GET', path: /^\/v1\/cli\/listen\/[^/]+$/, why: "the event stream of the service's own CLI (api-facts §9)"},
  {method: 'GET', path: /^\/v1\/checkout-links\/[^/]+\/redirect$/, why: "a checkout link's url, opened by a buyer's browser (the service's CHECKOUT_BASE_URL)"},
]

/**
 * Answers the service gives that its document does not describe, each with its reason: not violations.
 */
export const DEPARTURES: Array<{operation: string; status: number; when: (body: unknown) => boolean; why: string}> = [
  {
    operation: 'oauth2:introspect_token',
    status: 200,
    when: (body) => JSON.stringify(body) === '{"active":false}',
    why: 'RFC 7662 §2.2: an inactive token is answered {"active": false} alone; the document lists only the active shape',
  },
  {
    operation: 'customer_portal:orders:confirm_retry_payment',
    status: 422,
    when: (body) => (body as {error?: unknown} | null)?.error === 'PaymentRetryValidationError',
    why: "the order service's PaymentRetryValidationError (neither or both of a token and a saved method, another customer's method); the document names only OrderNotEligibleForRetry",
  },
]
