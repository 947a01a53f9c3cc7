// The service's listen stream (server/polar/cli/endpoints.py): `GET /v1/cli/listen/{organization_id}` as server-sent
// events. The first message carries the signing secret; each `webhook.created` message carries one event
// and the headers it is signed with; `{"type":"reconnect"}` or a dropped connection means: connect again
// at once, backing off only when connecting keeps failing. Also the forwarding of one event to a local URL.
import {createParser} from 'eventsource-parser'
import {Agent, request} from 'undici'

import {buildUrl} from './client.js'
import {ApiError, NetworkError} from './errors.js'
import type {TokenProvider} from './oauth.js'

export type ListenMessage =
  | {kind: 'connected'; secret: string; ts: string}
  | {
      kind: 'event'
      /** The event id (also the `webhook-id` header). */
      webhookEventId: string
      /** The exact bytes to deliver (the signed body). */
      body: string
      /** `string` when the payload came as the raw JSON text (2026-07-23 on), `object` for the older framing. */
      form: 'string' | 'object'
      type: string
      headers: Record<string, string>
    }
  | {kind: 'reconnect'}
  | {kind: 'other'; key: string | null}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * One SSE `data` field of the listen stream, decoded. Handles both framings of the event payload: the raw
 * JSON string (sent as is) and the older object (serialised compactly, as the service wrote it).
 */
export function decodeListenMessage(data: string): ListenMessage {
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return {kind: 'other', key: null}
  }
  if (!isObject(json)) return {kind: 'other', key: null}
  if (json.type === 'reconnect') return {kind: 'reconnect'}
  if (json.key === 'connected' && typeof json.secret === 'string') return {kind: 'connected', secret: json.secret, ts: String(json.ts ?? '')}
  if (json.key === 'webhook.created' && isObject(json.payload)) {
    const inner = json.payload.payload
    const body = typeof inner === 'string' ? inner : isObject(inner) ? JSON.stringify(inner) : null
    if (body === null) return {kind: 'other', key: 'webhook.created'}
    let type = ''
    try {
      const t = (JSON.parse(body) as {type?: unknown}).type
      type = typeof t === 'string' ? t : ''
    } catch {
      // a payload that is not JSON is still forwarded as it came
    }
    const headers: Record<string, string> = {}
    if (isObject(json.headers)) for (const [k, v] of Object.entries(json.headers)) if (typeof v === 'string') headers[k.toLowerCase()] = v
    const webhookEventId = String(json.payload.webhook_event_id ?? headers['webhook-id'] ?? '')
    return {kind: 'event', webhookEventId, body, form: typeof inner === 'string' ? 'string' : 'object', type, headers}
  }
  return {kind: 'other', key: typeof json.key === 'string' ? json.key : null}
}

/** Delay before connecting again after `failures` failed attempts in a row: none for the first, then 1 s doubling to 30 s, with jitter. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  if (failures <= 1) return 0
  const base = Math.min(30_000, 1000 * 2 ** (failures - 2))
  return Math.round(base * (0.75 + random() * 0.25))
}

/** An open stream: its status and, when 200, its body. */
export interface OpenedStream {
  status: number
  body: AsyncIterable<Buffer | string>
  /** The error body of a non-200 answer. */
  text(): Promise<string>
  close(): void
}

export interface StreamOpener {
  (url: URL, headers: Record<string, string>): Promise<OpenedStream>
  close?: () => Promise<void>
}

export type ListenState =
  | {state: 'connected'; secret: string; reconnects: number}
  | {state: 'reconnecting'; reason: 'reconnect message' | 'dropped' | 'failed'; delayMs: number; failures: number; detail?: string}

export interface ListenOptions {
  baseUrl: string
  token: string
  /** Supplies the token of each connection instead (a browser sign-in): renewed when about to expire, and once after a 401, as the service's CLI signs in again once. */
  credentials?: TokenProvider
  organizationId: string
  userAgent: string
  /** Each event, in order; the next message waits for it. */
  onEvent: (event: Extract<ListenMessage, {kind: 'event'}>) => Promise<void> | void
  onState?: (state: ListenState) => void
  /** Return true to stop listening (after `connected`, for `--print-secret`). */
  stopWhen?: (state: ListenState) => boolean
  /** Silence longer than this (pings come every 15 s) counts as a dropped connection. */
  idleTimeoutMs?: number
  open?: StreamOpener
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

/** Opens the stream with undici; the agent's body timeout turns a silent connection into a drop. */
export function undiciOpener(idleTimeoutMs: number): StreamOpener {
  const agent = new Agent({connect: {timeout: 10_000}, headersTimeout: 30_000, bodyTimeout: idleTimeoutMs})
  const open: StreamOpener = async (url, headers) => {
    const res = await request(url, {method: 'GET', headers, dispatcher: agent})
    return {status: res.statusCode, body: res.body, text: () => res.body.text(), close: () => res.body.destroy()}
  }
  open.close = () => agent.destroy()
  return open
}

const sleepReal = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * Listens until `stopWhen` says so (or forever). Throws ApiError for answers that connecting again
 * cannot fix (401, 403, 404, 422); everything else (5xx, 429, network errors, drops) is retried.
 */
export async function listen(o: ListenOptions): Promise<void> {
  const url = buildUrl(o.baseUrl, `/cli/listen/${encodeURIComponent(o.organizationId)}`)
  const headers = {authorization: `Bearer ${o.token}`, accept: 'text/event-stream', 'user-agent': o.userAgent}
  const open = o.open ?? undiciOpener(o.idleTimeoutMs ?? 60_000)
  try {
    await listenWith(open, url, headers, o)
  } finally {
    await open.close?.()
  }
}

async function listenWith(open: StreamOpener, url: URL, headers: Record<string, string>, o: ListenOptions): Promise<void> {
  const sleep = o.sleep ?? sleepReal
  let failures = 0
  let reconnects = 0
  let renewed = false
  for (;;) {
    let outcome: 'reconnect message' | 'dropped' | 'failed' | 'stop' = 'dropped'
    let detail: string | undefined
    try {
      if (o.credentials) headers.authorization = `Bearer ${await o.credentials.current()}`
      const stream = await open(url, headers)
      if (stream.status === 401 && o.credentials && !renewed) {
        await stream.text().catch(() => '')
        renewed = true
        const rejected = headers.authorization!.slice('Bearer '.length)
        await callback(() => o.credentials!.renew(rejected))
        continue
      }
      if (stream.status === 200) renewed = false
      if (stream.status !== 200) {
        const text = await stream.text().catch(() => '')
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // not JSON: keep the text
        }
        if (stream.status < 500 && stream.status !== 429) throw new ApiError(stream.status, body, 'GET', url.toString())
        outcome = 'failed'
        detail = `HTTP ${stream.status}`
      } else {
        outcome = await consume(stream, o, () => {
          failures = 0
          return reconnects++
        })
      }
    } catch (error) {
      if (error instanceof CallbackError) throw error.original
      if (error instanceof ApiError) throw error
      outcome = 'failed'
      detail = (error as {code?: string}).code ?? (error as Error).message
    }
    if (outcome === 'stop') return
    failures = outcome === 'reconnect message' ? 0 : failures + 1
    const delayMs = reconnectDelayMs(failures, o.random)
    const state: ListenState = {state: 'reconnecting', reason: outcome, delayMs, failures, detail}
    o.onState?.(state)
    if (o.stopWhen?.(state)) {
      if (outcome === 'reconnect message') return
      throw new NetworkError(outcome === 'failed' ? `cannot open the listen stream (${detail})` : 'the listen stream was dropped', detail, url.toString())
    }
    if (delayMs > 0) await sleep(delayMs)
  }
}

/** An error of the caller's own callback: it ends listening as it is, never counts as a dropped stream. */
class CallbackError extends Error {
  constructor(readonly original: unknown) {
    super('callback failed')
  }
}

async function callback(f: () => unknown): Promise<unknown> {
  try {
    return await f()
  } catch (error) {
    throw new CallbackError(error)
  }
}

/** Reads one stream to its end; says why it ended. */
async function consume(stream: OpenedStream, o: ListenOptions, onConnected: () => number): Promise<'reconnect message' | 'dropped' | 'stop'> {
  const queue: string[] = []
  const parser = createParser({onEvent: (e) => queue.push(e.data)})
  const decoder = new TextDecoder()
  try {
    for await (const chunk of stream.body) {
      parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, {stream: true}))
      while (queue.length > 0) {
        const message = decodeListenMessage(queue.shift()!)
        if (message.kind === 'reconnect') return 'reconnect message'
        if (message.kind === 'connected') {
          const state: ListenState = {state: 'connected', secret: message.secret, reconnects: onConnected()}
          await callback(() => o.onState?.(state))
          if (await callback(() => o.stopWhen?.(state))) return 'stop'
        } else if (message.kind === 'event') {
          await callback(() => o.onEvent(message))
        }
      }
    }
    return 'dropped'
  } catch (error) {
    if (error instanceof CallbackError) throw error
    return 'dropped'
  } finally {
    stream.close()
  }
}

export interface ForwardResult {
  status?: number
  ms: number
  error?: string
}

const forwardAgent = new Agent({connect: {timeout: 5_000}})

/** How long a forward may take, from when it is sent to the last byte of its answer. */
export const FORWARD_TIMEOUT_MS = 10_000

/** Headers of the stream's message that the request itself sets (its framing and its connection). */
const NOT_FORWARDED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade'])
for (const name of ['te', 'trailer', 'expect']) NOT_FORWARDED.add(name)

/**
 * POSTs one event's exact bytes to a local URL with the headers the stream gave it, as they are (the
 * signature's, `x-polar-triggered` on a triggered event, any the service adds), but those of the request's
 * own framing. Never throws; an answer not whole within `timeoutMs` of sending (a handler that never
 * answers, or trickles its answer) is a failure.
 */
export async function forwardEvent(
  to: string,
  event: Extract<ListenMessage, {kind: 'event'}>,
  now: () => number = Date.now,
  timeoutMs = FORWARD_TIMEOUT_MS,
): Promise<ForwardResult> {
  const started = now()
  const headers: Record<string, string> = {'content-type': 'application/json', 'user-agent': 'polar.sh webhooks'}
  for (const [name, value] of Object.entries(event.headers)) {
    if (!NOT_FORWARDED.has(name) && !name.startsWith('proxy-')) headers[name] = value
  }
  const late = AbortSignal.timeout(timeoutMs)
  let answered = false
  try {
    const res = await request(to, {method: 'POST', headers, body: event.body, dispatcher: forwardAgent, signal: late})
    answered = true
    // a body given up at the deadline ends the dump without an error
    await res.body.dump()
    if (late.aborted) throw late.reason
    return {status: res.statusCode, ms: now() - started}
  } catch (error) {
    if (late.aborted) {
      const said = answered ? `no whole answer within ${timeoutMs / 1000} s` : `timed out (no answer within ${timeoutMs / 1000} s)`
      return {error: said, ms: now() - started}
    }
    const code = (error as {code?: string}).code
    const reason = code === 'ECONNREFUSED' ? 'connection refused' : code?.startsWith('UND_ERR') ? `timed out (${code})` : (code ?? (error as Error).message)
    return {error: reason, ms: now() - started}
  }
}
