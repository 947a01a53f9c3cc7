// Delivery of webhook events (server/polar/webhook/): one event per subscribed endpoint, signed bodies, retries with
// exponential backoff, recorded deliveries, and the optional forward of every event to one URL. Deliveries
// stay on this machine unless asked: an endpoint's URL on another host is recorded as a delivery not sent.
import {isLoopbackHost} from '../../../client/origin.js'
import {MAX_TIMER_MS} from '../../../client/timer.js'
import {backoffMs, signature, signingKey, usesStandardSignature} from '../../core/events.js'
import type {Env, EventListener} from '../../core/http.js'
import {type Random, seededRandom, uuid} from '../../core/ids.js'
import {type FaultPlan, faultNames, isFaultless, NO_FAULTS, planFaults, type WebhookFaults} from './faults.js'
import {DEFAULT_PAYLOAD_VERSION, type WebhookEndpointRecord, type WebhookEventRecord} from './model.js'

export const MAX_ATTEMPTS = 10
const DELIVERY_TIMEOUT_MS = 10_000
/** How long an event held back by the reorder fault waits for a next event to go before it. */
const REORDER_HOLD_MS = 2000

export interface DeliveryOptions {
  /** First retry delay; attempt n waits about base * 2^(n-1), with jitter, capped at 20 min. */
  backoffBaseMs: number
  /** Also post every event, signed the Standard Webhooks way with `forwardSecret`, to this URL. */
  forwardTo?: string
  forwardSecret?: string
  /** Post to endpoints on other hosts than this machine's loopback (`--allow-remote-webhooks`). */
  allowRemote?: boolean
  log: (line: string) => void
  now: () => number
  /** The delivery faults of every endpoint that has none of its own (faults.ts); none by default. */
  faults?: WebhookFaults
  /** The generator the faults are drawn from (seeded: the same seed, the same faults). */
  random?: Random
}

/** One event as it is sent: its id, the API version of its payload and the payload's exact bytes. */
interface Outgoing {
  id: string
  version: string
  payload: string
}

/** The response text of a delivery the emulator did not send: the URL is not on this machine. */
export const NOT_SENT =
  'not sent: the emulator delivers only to loopback URLs (127.0.0.1, localhost, ::1); ' + 'start it with --allow-remote-webhooks to send to other hosts'

/** Whether `url` is on this machine's loopback (a URL that does not parse is not). */
function onLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname)
  } catch {
    return false
  }
}

export class WebhookDispatcher {
  private timers = new Set<NodeJS.Timeout>()
  /** Per endpoint, the first attempt of the latest event: an endpoint gets its events in order. */
  private queues = new Map<string, Promise<void>>()
  private inflight = new Set<AbortController>()
  /** The forwards to `forwardTo`, sent in order. */
  private forwards: Promise<unknown> = Promise.resolve()
  private closed = false
  /**
   * What the attempts found, per environment, not yet written: a write saves the whole store, so written
   * together, after a pause as long as a few saves take (a year of a clock's events, thousands, would
   * otherwise save the store once per delivery). Read routes write them first (record).
   */
  private waiting = new Map<Env, Array<() => void>>()
  private recordTimer: NodeJS.Timeout | undefined
  private saveMs = 0
  /** Per endpoint, the first attempt of an event held back by the reorder fault until the next event's. */
  private held = new Map<string, {run: () => Promise<void>; timer: NodeJS.Timeout}>()
  private readonly random: Random

  constructor(private readonly options: DeliveryOptions) {
    this.random = options.random ?? seededRandom(1)
  }

  readonly listener: EventListener = (env, type, data, extra) => {
    if (this.closed) return
    // the environment's time (its clock may be ahead); the signature below takes the wall clock's
    const timestamp = new Date(env.now()).toISOString()
    const endpoints = env.store.all('webhook_endpoints').filter((e) => e.enabled && e.events.includes(type))
    // Like the service, one event (with its own id) per endpoint.
    if (endpoints.length > 0) {
      // Each body names its endpoint's payload version (SDK 1.0.1's payload types); the versions' shapes
      // differ only in license keys, which no event's data embeds, so the data is the same for all.
      const events = endpoints.map((e) => {
        const version = e.api_version ?? DEFAULT_PAYLOAD_VERSION
        const body = JSON.stringify({type, timestamp, api_version: version, data, ...extra})
        const faults = e.faults ?? this.options.faults ?? NO_FAULTS
        return {
          endpointId: e.id,
          // drawn here, in the order the events happen, so that the same seed gives the same faults
          plan: isFaultless(faults) ? undefined : planFaults(faults, this.random),
          event: {
            id: uuid(),
            created_at: timestamp,
            modified_at: null,
            type,
            api_version: version,
            payload: body,
            last_http_code: null,
            succeeded: null,
          } satisfies WebhookEventRecord,
        }
      })
      env.store.write(() => events.forEach(({event}) => env.store.insert('webhook_events', event)))
      for (const {endpointId, event, plan} of events) this.enqueue(env, endpointId, event.id, plan)
    }
    if (this.options.forwardTo && this.options.forwardSecret) {
      const [url, key, id] = [this.options.forwardTo, signingKey(this.options.forwardSecret, true), uuid()]
      const version = DEFAULT_PAYLOAD_VERSION
      const payload = JSON.stringify({type, timestamp, api_version: version, data, ...extra})
      // one after the other: the receiver gets the events in the order they happened (a clock's year of them)
      this.forwards = this.forwards
        .then(() => (this.closed ? undefined : this.post(url, key, {id, version, payload})))
        .then(
          (r) => r && r.status >= 300 && this.options.log(`forward of ${type} to ${url} got HTTP ${r.status}`),
          (error: Error) => this.options.log(`forward of ${type} to ${url} failed: ${error.message}`),
        )
    }
  }

  /**
   * Delivers `eventId` once the endpoint's earlier events have had their first attempt; one the reorder
   * fault holds back goes after the next event (or after REORDER_HOLD_MS when none comes).
   */
  private enqueue(env: Env, endpointId: string, eventId: string, plan?: FaultPlan): void {
    const key = `${env.name}:${endpointId}`
    const due = this.options.now() + (plan?.delayMs ?? 0)
    const run = () => this.first(env, endpointId, eventId, plan, due)
    if (plan && faultNames(plan).length > 0) {
      const endpoint = env.store.get('webhook_endpoints', endpointId)
      this.options.log(`[${env.name}] webhook event ${eventId} to ${endpoint?.url}: faults ${faultNames(plan).join(', ')}`)
    }
    if (plan?.reorder && !this.held.has(key)) {
      const timer = setTimeout(() => this.release(key), REORDER_HOLD_MS + plan.delayMs)
      this.held.set(key, {run, timer})
      return
    }
    this.chain(key, run)
    this.release(key)
  }

  /** Queues the endpoint's held-back event, if it has one. */
  private release(key: string): void {
    const held = this.held.get(key)
    if (!held) return
    clearTimeout(held.timer)
    this.held.delete(key)
    this.chain(key, held.run)
  }

  private chain(key: string, run: () => Promise<void>): void {
    const next = (this.queues.get(key) ?? Promise.resolve()).then(run).catch(() => {})
    this.queues.set(key, next)
    void next.then(() => {
      if (this.queues.get(key) === next) this.queues.delete(key)
    })
  }

  /** The first attempt of an event, as its faults have it: after its delay, dropped, failed or sent. */
  private async first(env: Env, endpointId: string, eventId: string, plan: FaultPlan | undefined, due: number): Promise<void> {
    const wait = due - this.options.now()
    if (wait > 0) await new Promise<void>((resolve) => this.timer(resolve, wait))
    // an endpoint disabled (or deleted) meanwhile gets nothing, as in attempt
    if (this.closed || !env.store.get('webhook_endpoints', endpointId)?.enabled) return
    if (plan?.drop) {
      this.recordDelivery(env, endpointId, eventId, {attempt: 1, status: null, response: 'dropped by the emulator (webhook fault: drop)'})
      return
    }
    if (plan?.failFirst) {
      const response = 'failed by the emulator without reaching the endpoint (webhook fault: fail-first)'
      this.recordDelivery(env, endpointId, eventId, {attempt: 1, status: null, response})
      this.retry(env, endpointId, eventId, 1)
      return
    }
    await this.attempt(env, endpointId, eventId, 1, plan?.duplicate)
  }

  redeliver(env: Env, eventId: string): void {
    const sentTo = new Set(
      env.store
        .all('webhook_deliveries')
        .filter((d) => d.webhook_event_id === eventId)
        .map((d) => d.webhook_endpoint_id),
    )
    for (const endpointId of sentTo) void this.attempt(env, endpointId, eventId, 1)
  }

  /**
   * Posts one event's body, signed with `key`, its API version in `webhook-api-version`
   * (server/polar/webhook/tasks.py).
   */
  private async post(url: string, key: Buffer, event: Outgoing): Promise<{status: number; text: string}> {
    const controller = new AbortController()
    this.inflight.add(controller)
    const timer = setTimeout(() => controller.abort(), DELIVERY_TIMEOUT_MS)
    try {
      const sentAt = new Date(this.options.now())
      const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'polar.sh webhooks',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature(key, event.id, sentAt, event.payload),
          'webhook-api-version': event.version,
        },
        body: event.payload,
      })
      const text = (await response.text()).slice(0, 2000)
      return {status: response.status, text}
    } finally {
      clearTimeout(timer)
      this.inflight.delete(controller)
    }
  }

  /** One attempt's HTTP status and response text (the error's message when none came). */
  private async send(endpoint: WebhookEndpointRecord, event: WebhookEventRecord): Promise<{status: number | null; response: string}> {
    try {
      // signed as the endpoint signs now; a redelivery sends the stored payload with the version it was made for
      const key = signingKey(endpoint.secret, usesStandardSignature(endpoint.secret_generated_at))
      const version = event.api_version ?? DEFAULT_PAYLOAD_VERSION
      const r = await this.post(endpoint.url, key, {id: event.id, version, payload: event.payload})
      return {status: r.status, response: r.text}
    } catch (error) {
      return {status: null, response: (error as Error).message}
    }
  }

  /**
   * Sends the event; `ackLost` (the duplicate fault) records a delivery that succeeded as failed, its answer
   * lost, so that it is sent again with the same `webhook-id`. An endpoint off this machine is not sent to
   * unless the emulator was started with --allow-remote-webhooks: recorded as failed, and not retried.
   */
  private async attempt(env: Env, endpointId: string, eventId: string, attempt: number, ackLost = false): Promise<void> {
    if (this.closed) return
    const endpoint = env.store.get('webhook_endpoints', endpointId)
    const event = env.store.get('webhook_events', eventId)
    if (!endpoint?.enabled || !event) return
    const held = !this.options.allowRemote && !onLoopback(endpoint.url)
    let {status, response} = held ? {status: null, response: NOT_SENT} : await this.send(endpoint, event)
    if (this.closed) return
    let succeeded = status !== null && status >= 200 && status < 300
    if (succeeded && ackLost) {
      succeeded = false
      response = 'answer lost (webhook fault: duplicate): delivered, sent again with the same webhook-id'
    }
    this.recordDelivery(env, endpointId, eventId, {attempt, status, response, succeeded})
    if (held) {
      this.options.log(`[${env.name}] webhook ${event.type} to ${endpoint.url}: ${NOT_SENT}`)
    } else if (!succeeded) {
      this.options.log(`[${env.name}] webhook ${event.type} to ${endpoint.url}: attempt ${attempt} failed (${status ?? response})`)
      this.retry(env, endpointId, eventId, attempt)
    }
  }

  /** Attempt `attempt + 1` on the service's schedule, while attempts remain. */
  private retry(env: Env, endpointId: string, eventId: string, attempt: number): void {
    if (attempt >= MAX_ATTEMPTS) return
    // a doubled delay past what a timer holds would fire at once
    const ms = Math.min(backoffMs(attempt, this.options.backoffBaseMs), MAX_TIMER_MS)
    this.timer(() => void this.attempt(env, endpointId, eventId, attempt + 1), ms)
  }

  private timer(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      run()
    }, ms)
    this.timers.add(timer)
  }

  /** Keeps one delivery (and its event's last outcome) for the next write of the records. */
  private recordDelivery(
    env: Env,
    endpointId: string,
    eventId: string,
    d: {attempt: number; status: number | null; response: string | null; succeeded?: boolean},
  ): void {
    const [now, succeeded] = [new Date(env.now()).toISOString(), d.succeeded ?? false]
    this.later(env, () => {
      env.store.insert('webhook_deliveries', {
        id: uuid(),
        created_at: now,
        modified_at: null,
        webhook_endpoint_id: endpointId,
        webhook_event_id: eventId,
        attempt: d.attempt,
        succeeded,
        http_code: d.status,
        response: d.response,
      })
      const e = env.store.get('webhook_events', eventId)
      if (e) Object.assign(e, {last_http_code: d.status, succeeded, modified_at: now})
    })
  }

  /** Keeps `change` for the next write of the delivery records. */
  private later(env: Env, change: () => void): void {
    const list = this.waiting.get(env)
    if (list) list.push(change)
    else this.waiting.set(env, [change])
    // not keeping a process alive by itself (close writes what waits)
    this.recordTimer ??= setTimeout(() => this.record(), Math.min(1000, this.saveMs * 4)).unref()
  }

  /** Writes the delivery records waiting (for `env`, or every environment), one store write each. */
  record(env?: Env): void {
    for (const [at, changes] of this.waiting) {
      if (env && at !== env) continue
      const started = performance.now()
      at.store.write(() => {
        for (const change of changes) change()
      })
      this.saveMs = performance.now() - started
      this.waiting.delete(at)
    }
    if (this.waiting.size === 0 && this.recordTimer) {
      clearTimeout(this.recordTimer)
      this.recordTimer = undefined
    }
  }

  close(): void {
    try {
      this.record()
    } catch {
      // a store that can no longer be written (its folder gone): the records are lost with it
    }
    this.closed = true
    for (const t of this.timers) clearTimeout(t)
    for (const h of this.held.values()) clearTimeout(h.timer)
    for (const c of this.inflight) c.abort()
  }
}
