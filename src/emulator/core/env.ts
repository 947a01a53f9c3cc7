// One environment of the emulator (its store, options and event listeners) and who a request acts as: the
// types the request pipeline (http.ts) and the bearer kinds resources register (bearer-kinds.ts) both use.
import type {EnvName} from './model.js'
import type {RequestLog} from './request-log.js'
import type {Store} from './store.js'

export interface EmulatorOptions {
  /** How long a created order stays `pending` before it counts as `paid`. */
  paymentDelayMs: number
  /** How long after POST /invoice the document exists. */
  invoiceDelayMs: number
  /** Lifetime of customer session tokens. */
  sessionTtlMs: number
  now: () => number
  /** One line per request, or nothing. */
  log: (line: string) => void
}

/**
 * Told of each event: its type, its `data`, and the fields its raw payload has beside them (a migrated
 * subscription's `provider` and `provider_subscription_id`, server/polar/webhook/webhooks.py).
 */
export type EventListener = (env: Env, type: string, data: unknown, extra?: Record<string, unknown>) => void

/** One environment: its store, options, public origin and event listeners. */
export interface Env {
  name: EnvName
  store: Store
  options: EmulatorOptions
  /** `http://127.0.0.1:PORT`, known once listening. */
  origin: string
  listeners: EventListener[]
  /** Sends a recorded webhook event again to the endpoints it went to. */
  redeliver: (eventId: string) => void
  /** Writes the webhook delivery records not yet written (they are written in batches). */
  recordDeliveries: () => void
  /** Raises the events of timed changes that have fallen due (the resources' settle, now). */
  settle: () => void
  /** The environment's time (its clock, resources/clock): every object's and event's time reads it. */
  now: () => number
  /** The requests it answered, the last 1,000 (GET /_emulator/logs). */
  requests: RequestLog
}

export function emit(env: Env, type: string, data: unknown, extra?: Record<string, unknown>): void {
  for (const listener of env.listeners) listener(env, type, data, extra)
}

export type Auth =
  | {kind: 'anonymous'}
  /** `scopes` is absent for organization access tokens (they hold every scope) and set for OAuth tokens. */
  | {kind: 'organization'; scopes?: string[]; clientId?: string}
  | {kind: 'customer'; customerId: string; memberId?: string} // memberId: the member a member session acts as
