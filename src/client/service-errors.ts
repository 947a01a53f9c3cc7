// The service's own errors, said as one sentence naming the object (from the request's path) and
// what to do. The service names its errors (`{"error": "InvoiceAlreadyExists", "detail": ...}`); a
// 404 names nothing, so the path tells which object was not found.
import {isListed, matchPath} from './resources/described.js'
import {ExitCode, TillError, type ExitCodeValue} from './till-error.js'

/** The object a request path names: `/v1/orders/ID/invoice` -> order ID. */
export interface PathObject {
  /** `order`, `webhook endpoint`, ... */
  noun: string
  /** The `till` topic of them (`orders`, `webhooks endpoints`, `portal orders`), for hints. */
  topic: string
  /** The topic has a list command (`till TOPIC list`). */
  listed: boolean
  id?: string
  /** The customer was looked up by its external id. */
  external?: boolean
  /** A Customer Portal path. */
  portal: boolean
  /** What follows the id (`invoice`, `activate`), if anything. */
  rest: string[]
  /** The object the path names first, for one under another (a customer's member). */
  under?: {noun: string; id: string; external: boolean}
}

/** The described resource (./resources/described.ts) a request URL acts on, with the id it names. */
export function pathObject(url: string, method?: string): PathObject | undefined {
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    return undefined
  }
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p))
  if (parts[0] === 'v1') parts.shift()
  // a path no described operation has (one newer than the document: /license-keys/ID/rotate) names the
  // object it is below
  let n = parts.length
  let found = matchPath(parts, method)
  while (!found && n > 2) found = matchPath(parts.slice(0, --n))
  if (!found) return undefined
  const {resource, id, external, under} = found
  const rest = [...found.rest, ...parts.slice(n)]
  return {noun: resource.noun, topic: resource.topic, listed: isListed(resource), id, external, portal: parts[0] === 'customer-portal', rest, under}
}

/** `customer 5e9c…`, `customer with external id user_1`, `member M of customer C`, or `the customer`. */
export function describeObject(o: PathObject): string {
  if (!o.id) return `the ${o.noun}`
  const own = o.external ? `${o.noun} with external id ${o.id}` : `${o.noun} ${o.id}`
  return o.under ? `${own} of ${describeObject({...o, ...o.under, under: undefined})}` : own
}

interface Known {
  message: (what: string, detail: string) => string
  hint?: (o: PathObject, till: string) => string | undefined
  exit?: ExitCodeValue
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

/** Errors the service names, by name; `what` is the object the path names. */
const KNOWN: Record<string, Known> = {
  AlreadyCanceledSubscription: {
    message: (what) => `${what} is already canceled, or set to cancel at the end of its period`,
    hint: (o, till) => `see it with: ${till} subscriptions get ${o.id ?? 'ID'}`,
  },
  ResourceUnavailable: {
    message: (what) => `${what} has already ended, so it cannot be changed any more`,
    hint: () => 'a customer who wants it back needs a new subscription (a checkout)',
  },
  InactiveSubscription: {
    message: (what) => `${what} is not active (it has ended), so it cannot be changed`,
    hint: () => 'a customer who wants it back needs a new subscription (a checkout)',
  },
  TrialingSubscription: {
    message: (what) => `${what} is in its trial period; its product cannot be changed until the trial ends`,
  },
  AlreadyActiveSubscriptionError: {
    message: () => 'the customer already has an active subscription',
    hint: (_o, till) => `move that subscription to another product with: ${till} subscriptions update ID --product PRODUCT`,
  },
  InvoiceAlreadyExists: {
    message: (what) => `${what} already has an invoice`,
    hint: (o, till) => `get it with: ${till} orders invoice get ${o.id ?? 'ID'}`,
  },
  OrderNotEligibleForInvoice: {
    message: (what, detail) => `${what} cannot have an invoice (${detail.replace(/^.*: /, '').replace(/\.$/, '')}); only paid orders do`,
  },
  MissingInvoiceBillingDetails: {
    message: (what) => `${what} has no billing name or address, which an invoice needs`,
    hint: (o, till) => `set them first: ${till} orders update ${o.id ?? 'ID'} --billing-name NAME --country US --line1 ... --city ... --postal-code ...`,
    exit: ExitCode.usage,
  },
  InvoiceDoesNotExist: {
    message: (what) => `${what} has no invoice yet`,
    hint: (o, till) => `generate it with: ${till} orders invoice generate ${o.id ?? 'ID'}`,
    exit: ExitCode.notFound,
  },
  RefundedAlready: {
    message: (_what, detail) =>
      `the order is already fully refunded${/: (\S+)$/.test(detail) ? ` (${/: (\S+)$/.exec(detail)![1]})` : ''}; nothing is left to refund`,
    hint: () => 'see its refunds with: till refunds list --order ID',
  },
  ExpiredCheckoutError: {
    message: (what) => `${what} has expired`,
    hint: () => 'create a new one with: till checkouts create',
  },
  // customer seats and seat-based subscriptions
  SeatNotAvailable: {
    message: (_what, detail) => {
      const of = /^No available seats for (\S+)$/.exec(detail)
      return of ? `no seat is available: every seat of ${of[1]} is assigned` : `no seat is available: ${lowerFirst(detail)}`
    },
    hint: (_o, till) => `free one with: ${till} seats revoke SEAT (see ${till} seats list), or add seats: till subscriptions update ID --seats N`,
  },
  SeatAlreadyAssigned: {
    message: (_what, detail) => `${lowerFirst(detail)}; one person holds one seat of a subscription`,
    hint: (_o, till) => `see the seats with: ${till} seats list --subscription ID`,
  },
  SeatNotPending: {
    message: (what) => `${what} is not pending (it is claimed or revoked), so it has no invitation to send`,
  },
  InvalidInvitationToken: {
    message: () => 'the invitation token is invalid, already used or expired',
    hint: () => 'a pending seat gets its invitation again with: till seats resend SEAT',
  },
  CustomerNotFound: {
    message: (_what, detail) => `not found: ${lowerFirst(detail)}`,
    hint: () => 'check the customer id or external id: till customers list',
    exit: ExitCode.notFound,
  },
  MemberNotFound: {message: (_what, detail) => `not found: ${lowerFirst(detail)}`, hint: () => 'give the seat by --email instead', exit: ExitCode.notFound},
  FeatureNotEnabled: {message: () => 'seat-based pricing is not enabled for the organization', hint: () => 'ask Polar support to enable it'},
  NotASeatBasedSubscription: {
    message: (what) => `${what} is not seat-based, so it has no seats to change`,
  },
  NotAUnitBasedSubscription: {
    message: (what) => `${what} is not unit-based, so it has no units to change`,
    hint: () => 'a unit-based subscription is one of a product with a unit price',
  },
  SeatsAlreadyAssigned: {
    message: (what, detail) => `${what}: ${lowerFirst(detail).replace(/ Revoke seats first\.$/, '')}`,
    hint: (o) => `revoke seats first: till seats list --subscription ${o.id ?? 'ID'}, then till seats revoke SEAT`,
  },
  BelowMinimumSeats: {message: (what, detail) => `${what}: ${lowerFirst(detail).replace(/\.$/, '')} (the lowest tier of its price)`},
  AboveMaximumSeats: {message: (what, detail) => `${what}: ${lowerFirst(detail).replace(/\.$/, '')} (the highest tier of its price)`},
  ManualRetryLimitExceeded: {
    message: (what) => `${what} has had the 5 payment retries a customer may start`,
    hint: () => "the next attempt is the service's own retry; the order's status shows when it is paid",
  },
  OrderNotEligibleForRetry: {
    message: (what) => `${what} has no failed payment to retry (it is paid, or not a renewal whose payment failed)`,
    hint: (o, till) => `see its payment status with: ${till} orders payment-status ${o.id ?? 'ID'}`,
  },
  PaymentMethodInUseByActiveSubscription: {
    message: () => 'the payment method is still needed to bill a subscription',
    hint: (_o, till) => `add another one first (${till} payment-methods add), or cancel the subscription`,
  },
  CustomerNotReady: {
    message: () => 'the customer has no card setup to confirm (the payment processor does not know the customer yet)',
    hint: (_o, till) => `add a card first: ${till} payment-methods add --confirmation-token TOKEN`,
  },
  PaymentFailed: {
    message: (what, detail) =>
      /missing_payment_method/.test(detail)
        ? `the charge of ${what} failed: the customer has no saved payment method (or not the one given); the order stays a draft`
        : `the charge of ${what} was declined (${/reason: (\w+)/.exec(detail)?.[1] ?? detail.replace(/\.$/, '')}); the order stays a draft`,
    hint: (o, _till) => `see the customer's saved payment methods with: till customers payment-methods CUSTOMER, then: till orders finalize ${o.id ?? 'ID'}`,
  },
  PaymentActionRequired: {
    message: (what) => `the charge of ${what} needs the customer to authenticate (3-D Secure), which cannot be done off-session; the order stays a draft`,
    hint: () => 'ask the customer to update their payment method in the customer portal, then finalize again',
  },
  OffSessionChargesNotEnabled: {
    message: () => 'off-session charges (draft orders) are not enabled for this organization',
    hint: () => 'Polar support enables them on request',
  },
  OrganizationNotReadyForPayments: {
    message: () => 'this organization cannot accept payments yet (its account is being onboarded or reviewed)',
    hint: () => 'finish the account setup in the dashboard, then finalize again',
  },
  OrderNotDraft: {
    message: (what, detail) =>
      `${what} is not a draft${/current: (\w+)/.test(detail) ? ` (it is ${/current: (\w+)/.exec(detail)![1]})` : ''}; only drafts can be finalized`,
    hint: (o, till) => `see it with: ${till} orders get ${o.id ?? 'ID'}`,
  },
  RotateNotPermitted: {
    message: (what, detail) =>
      `${what} cannot be rotated${/Current status: (\w+)/.test(detail) ? ` (it is ${/Current status: (\w+)/.exec(detail)![1]})` : ''}; only granted or disabled keys can`,
  },
  ProductNotDeletable: {
    message: (what) => `${what} has orders, subscriptions or discounts, so it cannot be deleted`,
    hint: (o) => `archive it instead: till products archive ${o.id ?? 'ID'}`,
  },
}

/**
 * The sentence for an API error the service named (or a 404), or undefined to fall back to the
 * generic mapping. `where` says which environment and profile, for not-found messages.
 */
export function knownServiceError(status: number, code: string | undefined, detail: string, url: string, where: string): TillError | undefined {
  const o = pathObject(url)
  const till = o?.portal ? 'till portal' : 'till'
  const what = o ? describeObject(o) : 'the object'
  const known = code && Object.hasOwn(KNOWN, code) ? KNOWN[code] : undefined
  if (known) return new TillError(known.message(what, detail), known.exit ?? ExitCode.error, o ? known.hint?.(o, till) : undefined)
  const {origin, pathname} = o ? new URL(url) : {origin: '', pathname: ''}
  if (status === 404 && o && !pathname.startsWith('/v1/')) {
    // every operation's path starts with /v1: a base URL without it reaches no route at all
    return new TillError(
      `the API at ${origin} has no ${pathname}: the base URL should end in /v1`,
      ExitCode.usage,
      `give TILL_API_URL (or the profile's --url) with /v1, e.g. ${origin}/v1`,
    )
  }
  if (status === 404 && o) {
    // the object the path names (below it too: its invoice is not found when it is not), or, for a path
    // without an id, what the request's body refers to
    const named = o.id !== undefined
    return new TillError(
      named ? `not found: there is no ${what} in ${where}` : `not found: no such ${o.noun} in ${where} (the service answered 404)`,
      ExitCode.notFound,
      named && o.listed ? `check the id, and the profile; list them with: till ${o.topic} list` : 'check the ids you gave, and the profile',
    )
  }
  return undefined
}
