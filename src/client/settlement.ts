// How the answer to a write that was lost is settled. The service takes no idempotency keys, so when a
// connection drops after a write was sent, or the answer is a 5xx, the client cannot tell from the answer
// whether the write was done. Each writing operation till sends declares one way out:
//   - idempotent: sending it again does no harm (a PATCH that sets fields, a DELETE, invoice generation);
//     `done` names the answers to the second send that mean the first one did it (a 404 after a DELETE);
//   - lookup: a read finds what the first send made, if it made anything (a customer by its external id
//     or e-mail, a refund by the marker till put in its metadata); found, it is the answer; not found,
//     the write is sent again;
//   - unknown: neither is possible; the outcome is reported as unknown (exit 7) with the command that
//     shows the truth, never as failed and never sent a second time blindly.
// test/client/settlement.test.ts fails when a writing operation a command sends has no declaration.
import {OutcomeUnknownError} from './errors.js'
import {type AnyOperationId, operationOf} from './operation-of.js'
import type {OperationId} from './operations.generated.js'
import {RESOURCES, type ResourceDescription} from './resources/described.js'

/** What a lookup may call: a GET of the API, answered with the parsed body (404 throws). */
export interface Reader {
  get<T>(path: string, opts?: {query?: Record<string, string | string[] | number | boolean | undefined>}): Promise<T>
}

/** The write whose answer was lost: its path (below the base URL) and its body. */
export interface LostRequest {
  path: string
  body: unknown
}

/** The till command that shows whether a write was done: fixed, or naming what the request names (its order, its customer). */
export type Truth = string | ((request: LostRequest) => string)

/** What a lookup finds when the write may be under way still (an order being charged): neither done nor safe to send again. */
export const UNSETTLED = Symbol('unsettled')

export type Settlement =
  | {kind: 'idempotent'; done?: (status: number, code: string | undefined) => boolean}
  | {kind: 'lookup'; find: (reader: Reader, body: unknown, request: LostRequest) => Promise<unknown>; truth: Truth}
  | {kind: 'unknown'; truth: Truth}

/** The metadata key till marks a write with, so that a lookup can find what it made. */
export const MARKER_KEY = 'till_request'

const idempotent: Settlement = {kind: 'idempotent'}
/** A DELETE (or a revoke): a 404, or the object's "already gone" error, after sending again means it was done. */
const gone: Settlement = {
  kind: 'idempotent',
  done: (status, code) => status === 404 || code === 'AlreadyCanceledSubscription' || code === 'ResourceUnavailable',
}
const unknown = (truth: Truth): Settlement => ({kind: 'unknown', truth})

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A string field of a request's body, or `placeholder` when it has none. */
const field = (body: unknown, key: string, placeholder: string): string =>
  isObject(body) && typeof body[key] === 'string' && body[key] !== '' ? body[key] : placeholder

/** The path segment after `noun` (`/orders/ID/finalize`), or `placeholder`. */
function segmentAfter(path: string, noun: string, placeholder: string): string {
  const parts = path.split('/')
  const i = parts.indexOf(noun)
  const segment = i === -1 ? undefined : parts[i + 1]
  return segment ? decodeURIComponent(segment) : placeholder
}

/** The seats of the subscription or order an assignment names. */
const seatsTruth = (till: string) => (r: LostRequest) =>
  isObject(r.body) && typeof r.body.order_id === 'string'
    ? `${till} seats list --order ${r.body.order_id}`
    : `${till} seats list --subscription ${field(r.body, 'subscription_id', 'ID')}`

/**
 * A finalize's order as it is now: paid (or refunded since), the finalize was done and the order is its
 * answer; a draft, nothing was charged (the service reverts a failed charge to draft), so it is sent
 * again (a second finalize of an order already claimed is refused, OrderNotDraft); pending, the charge
 * may be under way: unsettled.
 */
async function findFinalized(reader: Reader, _body: unknown, request: LostRequest): Promise<unknown> {
  const order = await reader.get<Json>(`/orders/${encodeURIComponent(segmentAfter(request.path, 'orders', ''))}`)
  if (order.status === 'draft') return undefined
  return order.status === 'pending' ? UNSETTLED : order
}

/** A customer by its external id, or else by its e-mail (unique in an organization). */
async function findCustomer(reader: Reader, body: unknown): Promise<unknown> {
  if (!isObject(body)) return undefined
  if (typeof body.external_id === 'string' && body.external_id !== '') {
    try {
      return await reader.get(`/customers/external/${encodeURIComponent(body.external_id)}`)
    } catch (error) {
      if ((error as {status?: number}).status === 404) return undefined
      throw error
    }
  }
  if (typeof body.email !== 'string') return undefined
  const page = await reader.get<{items: Json[]}>('/customers/', {query: {email: body.email, limit: 10}})
  return page.items.find((c) => typeof c.email === 'string' && c.email.toLowerCase() === String(body.email).toLowerCase())
}

/** A refund of the order carrying the marker till put in its metadata. */
async function findRefund(reader: Reader, body: unknown): Promise<unknown> {
  if (!isObject(body) || !isObject(body.metadata) || typeof body.metadata[MARKER_KEY] !== 'string') return undefined
  const marker = body.metadata[MARKER_KEY]
  const page = await reader.get<{items: Json[]}>('/refunds/', {query: {order_id: String(body.order_id), limit: 100}})
  return page.items.find((r) => isObject(r.metadata) && r.metadata[MARKER_KEY] === marker)
}

/** Every writing operation till's commands send, by operation id. */
export const SETTLEMENTS: Partial<Record<AnyOperationId, Settlement>> = {
  'benefits:create': unknown('till benefits list --query NAME'),
  'benefits:update': idempotent,
  'benefits:delete': gone,
  'checkout-links:create': unknown('till checkout-links list'),
  'checkout-links:update': idempotent,
  'checkout-links:delete': gone,
  'checkouts:create': unknown('till checkouts list'),
  'checkouts:update': idempotent,
  'checkouts:client_confirm': unknown('till checkouts get ID'),
  'custom-fields:create': unknown('till custom-fields list'),
  'custom-fields:update': idempotent,
  'custom-fields:delete': gone,
  'customer-sessions:create': idempotent,
  'customers:create': {kind: 'lookup', find: findCustomer, truth: 'till customers list --query EMAIL'},
  'customers:update': idempotent,
  'customers:update_external': idempotent,
  'customers:delete': gone,
  'customers:delete_external': gone,
  // adding a member whose email the customer's members have gives that member back: a resend is harmless
  'customers:members:create': idempotent,
  'customers:members:create_external': idempotent,
  'customers:members:update': idempotent,
  'customers:members:update_external': idempotent,
  'customers:members:delete': gone,
  'customers:members:delete_external': gone,
  'discounts:create': unknown('till discounts list --query NAME'),
  'discounts:update': idempotent,
  'discounts:delete': gone,
  'disputes:accept': idempotent,
  'event-types:update': idempotent,
  // a batch whose events all have an external_id is sent again (the service drops duplicates): the
  // ingest marks it replayable; one without cannot be settled
  'events:ingest': unknown('till events list --since TIME'),
  'files:create': unknown('till files list'),
  'files:uploaded': idempotent,
  'files:update': idempotent,
  'files:delete': gone,
  'license_keys:update': idempotent,
  'license_keys:validate': idempotent,
  'license_keys:activate': unknown('till license-keys get ID'),
  'license_keys:deactivate': gone,
  'meters:create': unknown('till meters list --query NAME'),
  'meters:update': idempotent,
  'oauth2:clients:oauth2:create_client': unknown('till oauth2-clients list'),
  'oauth2:clients:oauth2:update_client': idempotent,
  'oauth2:clients:oauth2:delete_client': gone,
  'oauth2:request_token': unknown('till auth status'),
  'oauth2:revoke_token': idempotent,
  // a read in a POST (RFC 7662)
  'oauth2:introspect_token': idempotent,
  'orders:update': idempotent,
  'orders:create': unknown((r) => `till orders list --status draft --customer ${field(r.body, 'customer_id', 'ID')}`),
  // a charge is never sent twice blindly: the order's status shows whether it was paid
  'orders:finalize': {kind: 'lookup', find: findFinalized, truth: (r) => `till orders get ${segmentAfter(r.path, 'orders', 'ID')}`},
  'orders:generate_invoice': {kind: 'idempotent', done: (status, code) => status === 409 && code === 'InvoiceAlreadyExists'},
  'organizations:update': idempotent,
  'products:create': unknown('till products list --query NAME'),
  'products:update': idempotent,
  'products:update_benefits': idempotent,
  'refunds:create': {kind: 'lookup', find: findRefund, truth: (r) => `till refunds list --order ${field(r.body, 'order_id', 'ORDER')}`},
  'subscriptions:create': unknown((r) => `till subscriptions list --customer ${field(r.body, 'customer_id', 'ID')}`),
  'subscriptions:update': idempotent,
  'subscriptions:revoke': gone,
  'webhooks:create_webhook_endpoint': unknown('till webhooks endpoints list'),
  'webhooks:update_webhook_endpoint': idempotent,
  'webhooks:delete_webhook_endpoint': gone,
  'webhooks:reset_webhook_endpoint_secret': idempotent,
  'webhooks:redeliver_webhook_event': unknown('till webhooks deliveries list'),
  // a triggered event sent to the listen stream (without delivery the answer is only computed: replayable)
  'cli:trigger': unknown('the till listen that was listening (a delivered event is shown there)'),
  'customer_portal:customers:update': idempotent,
  'customer_portal:members:add_member': idempotent, // as customers:members:create
  'customer_portal:members:update_member': idempotent,
  'customer_portal:members:remove_member': gone,
  'customer_portal:orders:update': idempotent,
  'customer_portal:orders:generate_invoice': {kind: 'idempotent', done: (status, code) => status === 409 && code === 'InvoiceAlreadyExists'},
  'customer_portal:subscriptions:update': idempotent,
  'customer_portal:license_keys:validate': idempotent,
  'customer_portal:license_keys:activate': unknown('till portal license-keys get ID'),
  'customer_portal:license_keys:deactivate': gone,
  // a second assignment is refused (SeatAlreadyAssigned) or takes a second seat; a claimed token is spent
  'customer-seats:assign_seat': unknown(seatsTruth('till')),
  'customer-seats:revoke_seat': idempotent,
  'customer-seats:resend_invitation': idempotent,
  'customer-seats:claim_seat': unknown('till seats claim-info TOKEN'),
  'customer_portal:seats:assign_seat': unknown(seatsTruth('till portal')),
  'customer_portal:seats:revoke_seat': idempotent,
  'customer_portal:seats:resend_invitation': idempotent,
  'customer_portal:subscriptions:cancel': gone,
  'customer_portal:orders:confirm_retry_payment': unknown((r) => `till portal orders payment-status ${segmentAfter(r.path, 'orders', 'ID')}`),
  'customer_portal:benefit-grants:update': idempotent,
  // a second add would save a second card: the list shows whether the first was saved
  'customer_portal:customers:add_payment_method': unknown('till portal payment-methods list'),
  // the service saves a setup intent's card once, whatever the number of confirmations
  'customer_portal:customers:confirm_payment_method': idempotent,
  'customer_portal:customers:delete_payment_method': gone,
  // a new request replaces the pending one: only the newest link's token is valid
  'customer_portal:customers:request_email_update': idempotent,
  // the token is used up by the first verification
  'customer_portal:customers:verify_email_update': unknown('till portal customer show'),
  'checkouts:client_update': idempotent,
  // newer than the document: a second rotation would change the key again
  'customer_portal:license_keys:rotate': unknown((r) => `till portal license-keys get ${segmentAfter(r.path, 'license-keys', 'ID')}`),
}

/**
 * The settlement of a write a description's derived command sends (src/client/resources/described.ts):
 * an update is idempotent, a delete done when the second one finds nothing, a creation unknown (the list
 * shows the truth).
 */
export function derivedSettlement(id: OperationId): Settlement | undefined {
  for (const r of RESOURCES as readonly ResourceDescription[]) {
    const verb = Object.entries(r.commands ?? {}).find(([, op]) => op === id)?.[0]
    if (verb === 'update') return idempotent
    if (verb === 'delete') return gone
    if (verb === 'create') return unknown(`till ${r.topic} list`)
  }
  return undefined
}

/** The settlement declared for an operation, or derived from the description whose command sends it. */
export const declaredSettlement = (id: AnyOperationId): Settlement | undefined => SETTLEMENTS[id] ?? derivedSettlement(id as OperationId)

/** How a lost answer to this request is settled; reads (GET, HEAD) are always idempotent. */
export function settlementOf(method: string, path: string): Settlement {
  if (method === 'GET' || method === 'HEAD') return idempotent
  // the emulator's clock control routes (outside the API): the clock's state shows what a walk did
  if (/\/_emulator\/clock(\/|$)/.test(path.replace(/[?#].*$/, ''))) return unknown('till emulator clock')
  const id = operationOf(method, path)
  return (id && declaredSettlement(id)) || unknown(`till api GET ${path.replace(/[?#].*$/, '')}`)
}

/** Reads are idempotent; so is a write its caller marks replayable (an ingest whose events all have an external_id). */
export const IDEMPOTENT: Settlement = idempotent

/**
 * After the answer to a write was lost: `resend` when sending it again is safe (idempotent, or a lookup
 * found nothing), the object a lookup found when the first send made it, and OutcomeUnknownError otherwise.
 */
export async function settleLost(
  settlement: Settlement,
  reader: Reader,
  body: unknown,
  lost: {method: string; url: string; reason: string},
): Promise<{resend: true} | {found: unknown}> {
  if (settlement.kind === 'idempotent') return {resend: true}
  const request: LostRequest = {path: pathOf(lost.url), body}
  const truth = typeof settlement.truth === 'string' ? settlement.truth : settlement.truth(request)
  if (settlement.kind === 'unknown') throw new OutcomeUnknownError(lost.method, lost.url, lost.reason, truth)
  let found: unknown
  try {
    found = await settlement.find(reader, body, request)
  } catch {
    // the lookup could not be made either: what happened stays unknown
    throw new OutcomeUnknownError(lost.method, lost.url, `${lost.reason}, and the lookup that would settle it failed`, truth)
  }
  if (found === UNSETTLED) throw new OutcomeUnknownError(lost.method, lost.url, `${lost.reason}, and it is still under way`, truth)
  return found === undefined ? {resend: true} : {found}
}

/** A request URL's path (`/v1/orders/ID/finalize`), or the text itself when it is not a URL. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}
