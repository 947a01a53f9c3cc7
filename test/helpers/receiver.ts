// A local webhook receiver for tests: records every request in arrival order and answers as told.
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** performance.now() at arrival. */
  at: number
  /** What the receiver answered, and when (performance.now()). */
  status: number
  answeredAt: number
}

export type Arrival = Omit<Received, 'status' | 'answeredAt'>

export interface Receiver {
  url: string
  received: Received[]
  close(): Promise<void>
}

/**
 * A local HTTP server that records every request (in arrival order) and answers `answer(request)`,
 * 200 by default; an answer may be a promise (a slow receiver).
 */
export async function startReceiver(answer: (r: Arrival) => number | Promise<number> = () => 200): Promise<Receiver> {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        status: 0,
        answeredAt: 0,
      }
      received.push(r)
      void Promise.resolve(answer(r)).then((status) => {
        Object.assign(r, {status, answeredAt: performance.now()})
        res.writeHead(status, {'content-type': 'text/plain'})
        res.end(status < 300 ? 'ok' : 'nope')
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
