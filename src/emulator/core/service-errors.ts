// Every error the emulator answers, audited against the service's public source (polarsource/polar): its
// name (the exception class's name is the body's `error`), its status and the wording of its message, with
// the file and line that raise or define it. The service is the truth: where the emulator answered otherwise
// it was changed to answer as the service does, and where the published document says otherwise the
// departure is listed in contract-known.ts. test/emulator/service-errors.test.ts makes the request that
// causes each one and checks the name and status (and the message where the service's wording is fixed),
// and checks `documented` against the document.

/** Where the answer comes from when it is not one of the service's own exceptions. */
export type Origin =
  /** An exception of the service (a PolarError subclass, or the framework's validation). */
  | 'service'
  /** RFC 6750 bearer-token errors of the service's OAuth library: `{error, error_description}`. */
  | 'oauth'
  /** The object store that the service's presigned links point to (S3): file parts, invoice and receipt PDFs. */
  | 'storage'
  /** The emulator's own control routes (`/_emulator/...`) and limits, which the service does not have. */
  | 'emulator'

export interface ServiceError {
  /** The body's `error`: the exception class's name (`error` of an OAuth error). */
  name: string
  status: number
  /**
   * The service's message, `{name}` standing for what it fills in (an id, a status, a count); `null` where
   * the detail is a list of validation issues, or the emulator's own (an emulator-only answer).
   */
  message: string | null
  /** The file and line in polarsource/polar that raise or define it; for an emulator-only answer, why. */
  source: string
  origin: Origin
  /**
   * The document declares this name for this status on the operation the table test calls; where the
   * service answers a name the document does not declare for a status the document does, the departure is
   * listed in contract-known.ts.
   */
  documented: boolean
}

/** The service's source (polarsource/polar) as read for this audit. */
export const AUDITED_AT = 'polarsource/polar c6c3645e639ee8eeaa05aa0835cf8e39e330382f (2026-08-22)'

const service = (name: string, status: number, message: string | null, source: string, documented: boolean): ServiceError => ({
  name,
  status,
  message,
  source,
  origin: 'service',
  documented,
})

export const SERVICE_ERRORS: ServiceError[] = [
  // the framework and authentication
  service('Unauthorized', 401, 'Unauthorized', 'server/polar/auth/dependencies.py:162 (exceptions.py:93)', false),
  {
    name: 'invalid_token',
    status: 401,
    message: 'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
    source: 'server/polar/oauth2/exceptions.py:6 (authlib InvalidTokenError)',
    origin: 'oauth',
    documented: false,
  },
  {
    name: 'insufficient_scope',
    status: 403,
    message: 'The request requires higher privileges than provided by the access token.',
    source: 'server/polar/oauth2/exceptions.py:19',
    origin: 'oauth',
    documented: false,
  },
  service('RequestValidationError', 422, null, 'server/polar/exception_handlers.py:25 (FastAPI RequestValidationError)', true),
  service('PolarRequestValidationError', 422, null, 'server/polar/exceptions.py:144', true),
  service('LengthRequired', 411, 'A Content-Length header is required.', 'server/polar/middlewares.py:208', false),
  service('RequestBodyTooLarge', 413, 'Request body exceeded the maximum allowed size of {limit} bytes.', 'server/polar/middlewares.py:218', false),
  // generic exceptions (server/polar/exceptions.py)
  service('ResourceNotFound', 404, 'Not found', 'server/polar/product/endpoints.py:123 (exceptions.py:111)', true),
  service(
    'NotPermitted',
    403,
    'Member management is only available for team customers. Purchase a seat-based product to enable team features.',
    'server/polar/customer_portal/endpoints/member.py:34 (exceptions.py:88; without a message, "Not permitted": benefit/service.py:298)',
    false,
  ),
  service('BadRequest', 400, 'Bad request', 'server/polar/subscription/service.py:2472 (exceptions.py:83)', false),
  service('ResourceUnavailable', 410, 'Unavailable', 'server/polar/subscription/service.py:2469 (exceptions.py:116)', false),
  // orders and invoices
  service('InvoiceDoesNotExist', 404, 'No invoice exists for order {id}.', 'server/polar/order/service.py:205 (raised at :605)', false),
  service(
    'OrderNotEligibleForInvoice',
    409,
    'Order {id} is not eligible for invoice generation (current status: {status}).',
    'server/polar/order/service.py:195 (raised at :545)',
    true,
  ),
  service(
    'MissingInvoiceBillingDetails',
    422,
    'Billing name and address are required to generate an invoice for this order.',
    'server/polar/order/service.py:185 (raised at :548)',
    true,
  ),
  service(
    'OrderNotDraft',
    412,
    'Order {id} is not in draft status (current: {status}). Only draft orders can be modified or finalized.',
    'server/polar/order/service.py:312 (raised at :1191)',
    true,
  ),
  service(
    'OffSessionChargesNotEnabled',
    403,
    'Off-session charges are not enabled for this organization ({organization_id}). Contact Polar support to opt in.',
    'server/polar/order/service.py:287 (raised at :911)',
    true,
  ),
  service('PaymentFailed', 402, 'Payment failed with reason: {reason}.', 'server/polar/order/service.py:261 (raised at :1290)', true),
  service(
    'PaymentActionRequired',
    402,
    'Order {id} payment requires customer authentication (e.g. 3DS challenge); off-session charge cannot complete.',
    'server/polar/order/service.py:270 (raised at :1880)',
    true,
  ),
  service('OrderNotEligibleForRetry', 422, 'Order {id} is not eligible for payment retry.', 'server/polar/order/service.py:219 (raised at :1910)', true),
  service(
    'PaymentRetryValidationError',
    422,
    'Either confirmation_token_id or payment_method_id must be provided',
    'server/polar/order/service.py:324 (raised at :1935)',
    false,
  ),
  service(
    'ManualRetryLimitExceeded',
    429,
    'Maximum number of manual payment retry attempts has been reached for order {id}.',
    'server/polar/order/service.py:329 (raised at :1948)',
    true,
  ),
  // refunds and disputes
  service('RefundedAlready', 403, 'Order is already fully refunded: {id}', 'server/polar/refund/service.py:80 (raised at :231)', true),
  service(
    'RevokeSubscriptionBenefitsProhibited',
    400,
    'Subscription benefits can only be revoked upon cancellation',
    'server/polar/refund/service.py:101 (raised at :235)',
    false,
  ),
  service('RefundUnknownPayment', 404, 'Refund issued for unknown order: {id}', 'server/polar/refund/service.py:64 (raised at :246)', false),
  service('DisputeNotOpenError', 409, 'Dispute {id} is not awaiting a response.', 'server/polar/dispute/service.py:71 (raised at :141)', true),
  // checkouts
  service('ExpiredCheckoutError', 410, 'This checkout session has expired.', 'server/polar/checkout/service.py:152 (raised at :1634)', true),
  service('NotOpenCheckout', 403, 'Checkout {id} is not open: {status}', 'server/polar/checkout/service.py:185 (raised at :2069)', true),
  service('AlreadyActiveSubscriptionError', 403, 'You already have an active subscription.', 'server/polar/checkout/service.py:158 (raised at :2656)', true),
  // subscriptions
  service(
    'AlreadyCanceledSubscription',
    403,
    'This subscription is already canceled or will be at the end of the period.',
    'server/polar/subscription/service.py:188 (raised at :1577)',
    true,
  ),
  service('InactiveSubscription', 403, 'Subscription {id} is not active.', 'server/polar/subscription/service.py:181 (raised at :2101)', true),
  service(
    'NoActiveListener',
    409,
    'No CLI is listening for {slug}. Run `polar listen <url>` in another terminal first.',
    'server/polar/cli/service.py (NoActiveListener, PR #14347; newer than the audit)',
    false,
  ),
  service('NotPausedSubscription', 409, 'This subscription is not paused.', 'server/polar/subscription/service.py:218 (raised at :2622)', false),
  service(
    'NotASeatBasedSubscription',
    400,
    'This subscription does not support seat-based pricing.',
    'server/polar/subscription/service.py:232 (raised at :1770)',
    false,
  ),
  service(
    'NotAUnitBasedSubscription',
    400,
    'This subscription does not support unit-based pricing.',
    'server/polar/subscription/service.py:276 (raised at :1717)',
    false,
  ),
  service('BelowMinimumSeats', 400, 'Minimum {minimum_seats} seats required.', 'server/polar/subscription/service.py:254 (raised at :1774)', false),
  service('AboveMaximumSeats', 400, 'Maximum {maximum_seats} seats allowed.', 'server/polar/subscription/service.py:265 (raised at :1778)', false),
  service(
    'SeatsAlreadyAssigned',
    400,
    'Cannot decrease seats to {requested_seats}. Currently {assigned_count} seats are assigned. Revoke seats first.',
    'server/polar/subscription/service.py:239 (raised at :1784)',
    false,
  ),
  // seats
  service('SeatNotAvailable', 400, 'No available seats for {id}', 'server/polar/customer_seat/service.py:51 (raised at :318)', false),
  service('SeatAlreadyAssigned', 400, 'Seat already assigned to customer {email}', 'server/polar/customer_seat/service.py:71 (raised at :1070)', false),
  service('SeatNotPending', 400, 'Seat is not in pending status', 'server/polar/customer_seat/service.py:78 (raised at :716)', false),
  service('InvalidInvitationToken', 400, 'Invalid or expired invitation token', 'server/polar/customer_seat/service.py:58 (raised at :469)', false),
  service('CustomerNotFound', 404, 'Customer not found: {id}', 'server/polar/customer_seat/service.py:91 (raised at :845)', false),
  service('MemberNotFound', 404, 'Member not found: {id}', 'server/polar/customer_seat/service.py:98 (raised at :968)', false),
  // license keys, products
  service(
    'RotateNotPermitted',
    400,
    'License key cannot be rotated in its current status. Current status: {status}. Allowed statuses: {allowed}.',
    'server/polar/license_key/service.py:52 (raised at :196)',
    true,
  ),
  {
    name: 'ProductNotDeletable',
    status: 409,
    message: null,
    source: 'newer than the source read here: the official SDK 1.0.1 declares it for products.delete (contract-newer.ts)',
    origin: 'service',
    documented: true,
  },
  // the customer portal
  service(
    'PaymentMethodSetupFailed',
    400,
    'Could not add this payment method: {message} Please try again with a different card.',
    'server/polar/customer_portal/service/customer.py:54 (raised at :312)',
    true,
  ),
  service('CustomerNotReady', 403, 'Customer is not ready for this operation.', 'server/polar/customer_portal/service/customer.py:48 (raised at :328)', true),
  service(
    'PaymentMethodInUseByActiveSubscription',
    400,
    'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.',
    'server/polar/payment_method/service.py:47 (raised at :305)',
    true,
  ),
  service(
    'InvalidCustomerEmailUpdate',
    401,
    'This email update request is invalid or has expired.',
    'server/polar/customer_email_update/service.py:34 (raised at :133)',
    false,
  ),
  // the token endpoint (authlib's RFC 6749 §5.2 errors, `{error, error_description}`)
  ...(
    [
      ['invalid_request', 'Missing "grant_type" in request.'],
      ['unsupported_grant_type', 'grant_type={grant_type} is not supported'],
      ['invalid_client', 'Invalid client'],
      ['invalid_grant', 'Invalid "code" in request.'],
      ['invalid_scope', 'The requested scope is invalid, unknown, or malformed.'],
      ['unauthorized_client', 'The client is not authorized to use "grant_type={grant_type}"'],
    ] as const
  ).map(
    ([name, message]): ServiceError => ({
      name,
      status: 400,
      message,
      source: 'server/polar/oauth2/endpoints/oauth2.py:249 (authlib, RFC 6749 §5.2)',
      origin: 'oauth',
      documented: false,
    }),
  ),
  // the object store behind presigned links (S3's error codes; server/polar/integrations/aws/s3/service.py:130)
  ...(
    [
      ['NoSuchUpload', 404, 'The specified upload does not exist.'],
      ['SignatureDoesNotMatch', 403, 'The request signature does not match.'],
      ['IncompleteBody', 400, 'Part {number} must be {expected} bytes, got {length}.'],
      ['BadDigest', 400, 'The SHA256 you specified did not match the calculated checksum.'],
      ['AccessDenied', 403, 'The link signature does not match.'],
    ] as const
  ).map(
    ([name, status, message]): ServiceError => ({
      name,
      status,
      message,
      source: 'the object store of presigned links (server/polar/integrations/aws/s3/service.py:130), S3 error codes',
      origin: 'storage',
      documented: false,
    }),
  ),
  // the emulator's control routes and limits: answers of the emulator only
  {
    name: 'BadRequest',
    status: 400,
    message: 'Pausing subscriptions is not supported by the emulator.',
    source: 'a limit of the emulator: the service pauses at the end of the period (subscription/service.py:2567)',
    origin: 'emulator',
    documented: false,
  },
  ...(
    [
      ['OrderNotPending', 'POST /_emulator/orders/{id}/pay of an order that is not pending'],
      ['OrderNotPaid', 'POST /_emulator/orders/{id}/dispute of an order without a payment'],
      ['SubscriptionNotRenewable', 'POST /_emulator/subscriptions/{id}/renew of a subscription that has ended'],
      ['SubscriptionNotMigratable', 'POST /_emulator/subscriptions/{id}/migrate of one migrated before, or ended'],
      ['SeatNotPending', 'GET /_emulator/customer-seats/{id}/invitation of a seat that has no invitation'],
      ['ClockNotForward', 'POST /_emulator/clock/advance to a time the clock has passed'],
      ['ClockSettled', 'POST /_emulator/clock/reset once the clock has settled what lies past the wall clock'],
    ] as const
  ).map(
    ([name, why]): ServiceError => ({name, status: 409, message: null, source: `the emulator's control route ${why}`, origin: 'emulator', documented: false}),
  ),
  ...(
    [
      ['InvalidClockTarget', 'POST /_emulator/clock/advance with a date that is not one, or with nothing to advance by'],
      ['InvalidClockDuration', 'POST /_emulator/clock/advance with a duration that is not one'],
      ['ClockOutOfRange', 'POST /_emulator/clock/advance past the last date a clock can hold'],
      ['ClockTooFar', 'POST /_emulator/clock/advance more than 10 years ahead without far'],
      ['InvalidEventType', 'POST /_emulator/clock/advance until an event type that is not a webhook event'],
      ['InvalidFaults', 'POST /_emulator/webhooks/endpoints/{id}/faults with a delay that is not a duration'],
    ] as const
  ).map(
    ([name, why]): ServiceError => ({name, status: 422, message: null, source: `the emulator's control route ${why}`, origin: 'emulator', documented: false}),
  ),
]
