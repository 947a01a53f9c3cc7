import {describe, expect, it} from 'vitest'

import {ApiError, NetworkError} from './errors.js'
import {decodeListenMessage, forwardEvent, listen, reconnectDelayMs, type ListenState, type OpenedStream, type StreamOpener} from './listen.js'

const BODY = '{"type":"order.paid","timestamp":"2026-11-23T02:00:00.000Z","data":{"id":"o1","amount":5}}'
const HEADERS = {'webhook-id': 'e1', 'webhook-timestamp': '1795000000', 'webhook-signature': 'v1,abc', 'content-type': 'application/json'}

const frame = (m: unknown) => `data: ${JSON.stringify(m)}\r\n\r\n`
const connected = frame({key: 'connected', ts: '2026-11-23 02:00:00.000000+00:00', secret: 'abc123'})
const event = (id: string) =>
  frame({
    id: `m-${id}`,
    key: 'webhook.created',
    payload: {webhook_event_id: id, payload: BODY.replace('o1', id), triggered: false},
    headers: {...HEADERS, 'webhook-id': id},
  })

/** A stream whose body yields `chunks` and then ends (a drop, unless a reconnect message came). */
const stream = (status: number, chunks: string[], text = ''): OpenedStream => ({
  status,
  body: (async function* () {
    for (const c of chunks) yield Buffer.from(c)
  })(),
  text: async () => text,
  close: () => {},
})

describe('decodeListenMessage', () => {
  it('reads the connected message and its secret', () => {
    expect(decodeListenMessage(JSON.stringify({key: 'connected', ts: 'x', secret: 'deadbeef'}))).toEqual({kind: 'connected', secret: 'deadbeef', ts: 'x'})
  })

  it('keeps a raw JSON string payload byte for byte (the newer framing)', () => {
    const spaced = '{"type": "order.paid",  "data": {"id": "o1"}}'
    const m = decodeListenMessage(
      JSON.stringify({id: 'm', key: 'webhook.created', payload: {webhook_event_id: 'e1', payload: spaced}, headers: {'Webhook-Id': 'e1'}}),
    )
    expect(m).toEqual({kind: 'event', webhookEventId: 'e1', body: spaced, form: 'string', type: 'order.paid', headers: {'webhook-id': 'e1'}})
  })

  it('serialises an object payload compactly, keeping key order (the older framing)', () => {
    const m = decodeListenMessage(
      JSON.stringify({id: 'm', key: 'webhook.created', payload: {webhook_event_id: 'e1', payload: JSON.parse(BODY)}, headers: HEADERS}),
    )
    expect(m).toMatchObject({kind: 'event', body: BODY, form: 'object', type: 'order.paid', webhookEventId: 'e1'})
  })

  it('knows the reconnect message, and leaves other keys and non-JSON alone', () => {
    expect(decodeListenMessage('{"type":"reconnect"}')).toEqual({kind: 'reconnect'})
    expect(decodeListenMessage('{"key":"checkout.updated","payload":{}}')).toEqual({kind: 'other', key: 'checkout.updated'})
    expect(decodeListenMessage('not json')).toEqual({kind: 'other', key: null})
    expect(decodeListenMessage(JSON.stringify({key: 'webhook.created', payload: {webhook_event_id: 'e', payload: 7}}))).toEqual({
      kind: 'other',
      key: 'webhook.created',
    })
  })
})

describe('reconnectDelayMs', () => {
  it('is zero for the first failure, then doubles from about 1 s up to 30 s', () => {
    expect(reconnectDelayMs(1, () => 1)).toBe(0)
    expect([2, 3, 4, 5, 6, 7, 8].map((n) => reconnectDelayMs(n, () => 1))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
    expect(reconnectDelayMs(3, () => 0)).toBe(1500)
  })
})

describe('listen', () => {
  const run = async (streams: Array<OpenedStream | Error>, stopAfterEvents: number) => {
    const events: string[] = []
    const states: ListenState[] = []
    const sleeps: number[] = []
    const opened: string[] = []
    const queue = [...streams]
    const open: StreamOpener = async (url, headers) => {
      opened.push(`${url.pathname} ${headers.authorization}`)
      const next = queue.shift()
      // Running out of streams ends the test with an error instead of retrying forever.
      if (!next) return stream(418, [], 'no more streams')
      if (next instanceof Error) throw next
      return next
    }
    class Enough extends Error {}
    await listen({
      baseUrl: 'http://127.0.0.1:1/v1',
      token: 'polar_oat_x',
      organizationId: 'org-1',
      userAgent: 'test',
      open,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 1,
      onEvent: (e) => {
        events.push(e.webhookEventId)
        if (events.length >= stopAfterEvents) throw new Enough()
      },
      onState: (s) => states.push(s),
    }).catch((error: unknown) => {
      if (!(error instanceof Enough)) throw error
    })
    return {events, states, sleeps, opened}
  }

  it("connects again at once after a reconnect message, and delivers the new stream's events", async () => {
    const r = await run([stream(200, [connected, event('a'), frame({type: 'reconnect'}), event('lost')]), stream(200, [connected, event('b'), event('c')])], 3)
    expect(r.events).toEqual(['a', 'b', 'c'])
    expect(r.sleeps).toEqual([])
    expect(r.opened).toEqual(['/v1/cli/listen/org-1 Bearer polar_oat_x', '/v1/cli/listen/org-1 Bearer polar_oat_x'])
    expect(r.states.map((s) => (s.state === 'connected' ? `connected ${s.reconnects}` : s.reason))).toEqual(['connected 0', 'reconnect message', 'connected 1'])
  })

  it('reads messages split across chunks', async () => {
    const whole = connected + event('a') + event('b')
    const r = await run([stream(200, [whole.slice(0, 7), whole.slice(7, 90), whole.slice(90, 300), whole.slice(300)])], 2)
    expect(r.events).toEqual(['a', 'b'])
  })

  it('reopens a dropped stream at once, then backs off while opening keeps failing', async () => {
    const refused = Object.assign(new Error('refused'), {code: 'ECONNREFUSED'})
    const r = await run([stream(200, [connected, event('a')]), refused, stream(503, []), refused, stream(200, [connected, event('b')])], 2)
    expect(r.events).toEqual(['a', 'b'])
    expect(r.sleeps).toEqual([1000, 2000, 4000])
    const reasons = r.states.filter((s) => s.state === 'reconnecting').map((s) => s.state === 'reconnecting' && `${s.reason} ${s.failures} ${s.delayMs}`)
    expect(reasons).toEqual(['dropped 1 0', 'failed 2 1000', 'failed 3 2000', 'failed 4 4000'])
  })

  it('gives up on 401 with the API error (connecting again cannot fix it)', async () => {
    const error = await run([stream(401, [], '{"error":"invalid_token","error_description":"bad"}')], 1).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(401)
    expect((error as ApiError).code).toBe('invalid_token')
  })

  it('stops after the connected message when asked (print the secret), and fails when it never connects', async () => {
    let secret = ''
    await listen({
      baseUrl: 'http://h/v1',
      token: 't',
      organizationId: 'o',
      userAgent: 'u',
      open: async () => stream(200, [connected, event('never')]),
      onEvent: () => {
        throw new Error('no event is read after stopping')
      },
      stopWhen: (s) => {
        if (s.state === 'connected') secret = s.secret
        return true
      },
    })
    expect(secret).toBe('abc123')
    const failed = await listen({
      baseUrl: 'http://h/v1',
      token: 't',
      organizationId: 'o',
      userAgent: 'u',
      open: async () => stream(502, []),
      onEvent: () => {},
      stopWhen: () => true,
    }).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(NetworkError)
  })
})

describe('forwardEvent', () => {
  /** A local server that records the headers of each request and answers after `delayMs`. */
  async function server(delayMs: number) {
    const {createServer} = await import('node:http')
    const seen: Array<Record<string, string | string[] | undefined>> = []
    const s = createServer((req, res) => {
      seen.push(req.headers)
      req.resume()
      setTimeout(() => res.end('ok'), delayMs).unref()
    })
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(s.address() as {port: number}).port}/hook`
    const close = () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections()
        s.close(() => resolve())
      })
    return {seen, url, close}
  }

  const message = (headers: Record<string, string>) => {
    const decoded = decodeListenMessage(frame({key: 'webhook.created', payload: {webhook_event_id: 'e1', payload: BODY}, headers}).slice(6, -4))
    if (decoded.kind !== 'event') throw new Error('not an event')
    return decoded
  }

  it('sends the headers the stream gave, as they are, but those of the request itself', async () => {
    const s = await server(0)
    try {
      const headers = {
        ...HEADERS,
        'user-agent': 'polar.sh webhooks',
        'x-polar-triggered': 'true',
        'webhook-api-version': '2026-10',
        host: 'x',
        'content-length': '1',
      }
      const result = await forwardEvent(s.url, message(headers))
      expect(result.status).toBe(200)
      expect(s.seen[0]).toMatchObject({...HEADERS, 'user-agent': 'polar.sh webhooks', 'x-polar-triggered': 'true', 'webhook-api-version': '2026-10'})
      expect(s.seen[0]!['content-length']).toBe(String(Buffer.byteLength(BODY)))
      expect(s.seen[0]!.host).toBe(new URL(s.url).host)
    } finally {
      await s.close()
    }
  })

  it('fails a forward whose answer does not come within its time, counted from when it is sent', async () => {
    const s = await server(5_000)
    try {
      const result = await forwardEvent(s.url, message(HEADERS), Date.now, 200)
      expect(result.error).toBe('timed out (no answer within 0.2 s)')
      expect(result.ms).toBeLessThan(4_000)
    } finally {
      await s.close()
    }
  })
})
