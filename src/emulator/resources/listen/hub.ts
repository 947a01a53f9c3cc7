// The listen stream of one environment (server/polar/cli/): while a listener is connected, every event of the
// organization goes to it as a `webhook.created` message, signed with the dash-less organization id.
// Messages are server-sent events framed as the service's server library does: `data: <json>` lines
// ending in CRLF, a `: ping - <time>` comment every 15 s, and `{"type":"reconnect"}` before it closes a
// stream that has been open for 10 minutes.
import type {ServerResponse} from 'node:http'

import {signer} from '../../core/events.js'
import type {Env, EventListener} from '../../core/http.js'
import {uuid} from '../../core/ids.js'
import {DEFAULT_PAYLOAD_VERSION} from '../webhooks/model.js'

export const PING_MS = 15_000
export const MAX_STREAM_MS = 10 * 60_000

/** The signing secret of the listen stream: the organization id without dashes. */
export const listenSecret = (organizationId: string) => organizationId.replaceAll('-', '')

/** A time as the service's Python `str(datetime)` writes it: `2026-11-23 02:49:19.123000+00:00`. */
export function pythonTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.(\d{3})Z$/, '.$1000+00:00')
}

const frame = (message: unknown) => `data: ${JSON.stringify(message)}\r\n\r\n`

interface Connection {
  res: ServerResponse
  opened: number
  timers: NodeJS.Timeout[]
}

export class ListenHub {
  private readonly connections = new Set<Connection>()
  /** Streams opened since the emulator started (a reconnect opens a new one). */
  opened = 0

  constructor(private readonly env: Env) {}

  get size(): number {
    return this.connections.size
  }

  readonly listener: EventListener = (_env, type, data, extra) => {
    if (this.connections.size === 0) return
    // the event's time is the environment's (its clock may be ahead); the stream has no endpoint, so its
    // payloads are of the service's current version, named as every raw payload names it
    const timestamp = new Date(this.env.now()).toISOString()
    const payload = JSON.stringify({type, timestamp, api_version: DEFAULT_PAYLOAD_VERSION, data, ...extra})
    this.publish(payload, uuid(), false, DEFAULT_PAYLOAD_VERSION)
  }

  /**
   * Sends one event's raw payload to every listener. A triggered one (`POST /v1/cli/trigger`) says so in
   * its message and in an `x-polar-triggered` header (server/polar/cli/endpoints.py). Its API version is in
   * `webhook-api-version`, as on every delivery (server/polar/webhook/tasks.py). The signature's time is
   * the wall clock's, which the receiver checks against its own.
   */
  publish(payload: string, webhookEventId: string, triggered: boolean, version: string): void {
    const sentAt = new Date(this.env.options.now())
    const now = sentAt.getTime()
    const message = {
      id: uuid(),
      key: 'webhook.created',
      // Since 2026-07-23 the payload travels as the raw JSON string, so the signed bytes stay exact.
      payload: {webhook_event_id: webhookEventId, payload, triggered},
      headers: {
        'user-agent': 'polar.sh webhooks',
        'content-type': 'application/json',
        'webhook-id': webhookEventId,
        'webhook-timestamp': String(Math.floor(now / 1000)),
        'webhook-signature': signer(listenSecret(this.env.store.data.organization.id)).sign(webhookEventId, sentAt, payload),
        'webhook-api-version': version,
        ...(triggered ? {'x-polar-triggered': 'true'} : {}),
      },
    }
    for (const c of this.connections) c.res.write(frame(message))
  }

  /** Starts a stream on `res`: the `connected` message first, then events, pings and the reconnect. */
  open(res: ServerResponse): void {
    const connection: Connection = {res, opened: this.env.options.now(), timers: []}
    this.connections.add(connection)
    this.opened++
    res.write(frame({key: 'connected', ts: pythonTime(this.env.options.now()), secret: listenSecret(this.env.store.data.organization.id)}))
    const ping = setInterval(() => res.write(`: ping - ${pythonTime(this.env.options.now())}\r\n\r\n`), PING_MS)
    const expire = setTimeout(() => this.reconnect(connection), MAX_STREAM_MS)
    connection.timers.push(ping, expire)
    for (const t of connection.timers) t.unref()
    res.on('close', () => this.drop(connection))
  }

  /** Asks every listener to connect again (as the service does after 10 minutes); returns how many. */
  reconnectAll(): number {
    const all = [...this.connections]
    for (const c of all) this.reconnect(c)
    return all.length
  }

  private reconnect(c: Connection): void {
    if (!this.connections.has(c)) return
    this.drop(c)
    c.res.end(frame({type: 'reconnect'}))
  }

  private drop(c: Connection): void {
    for (const t of c.timers) clearInterval(t)
    this.connections.delete(c)
  }
}

const hubs = new WeakMap<Env, ListenHub>()

/** The environment's hub, made (and subscribed to the environment's events) on first use. */
export function hubOf(env: Env): ListenHub {
  let hub = hubs.get(env)
  if (!hub) {
    hub = new ListenHub(env)
    hubs.set(env, hub)
    env.listeners.push(hub.listener)
  }
  return hub
}
