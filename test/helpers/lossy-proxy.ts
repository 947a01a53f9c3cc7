// A proxy to the emulator that passes everything on, and for the requests `drop` picks lets the emulator
// do the work and then cuts the connection before its answer arrives: an answer lost after the write.
// `meanwhile` runs after the emulator answered a request and before the answer is passed on: what another
// client did between the two (another import creating the customer just looked up).
import {createServer, request, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface LossyProxy {
  server: Server
  /** The proxy's base URL (with /v1), for TILL_API_URL. */
  url: string
  /** `METHOD /path` of each request whose answer was cut. */
  dropped: string[]
}

export function lossyProxy(
  target: URL,
  drop: (method: string, path: string) => boolean,
  meanwhile?: (method: string, path: string, status: number) => Promise<void>,
): Promise<LossyProxy> {
  const dropped: string[] = []
  const server = createServer((req, res) => {
    const upstream = request({host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers}, (answer) => {
      if (drop(req.method ?? 'GET', req.url ?? '')) {
        dropped.push(`${req.method} ${req.url}`)
        answer.resume()
        answer.on('end', () => req.socket.destroy())
        return
      }
      const pass = () => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
      if (meanwhile) {
        answer.pause()
        meanwhile(req.method ?? 'GET', req.url ?? '', answer.statusCode ?? 0).then(pass, (error: unknown) => res.destroy(error as Error))
      } else pass()
    })
    req.pipe(upstream)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, dropped})),
  )
}
