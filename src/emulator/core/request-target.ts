// The request target of an incoming request, read without throwing: a target no URL parser takes
// (`GET http://[::1 HTTP/1.1`) is refused with a 400, as the service's server does, and the emulator
// goes on serving.
import type {IncomingMessage, ServerResponse} from 'node:http'

/** The request's URL against `origin`, or undefined when the target is not one. */
export function requestUrl(target: string | undefined, origin: string): URL | undefined {
  try {
    return new URL(target ?? '/', origin)
  } catch {
    return undefined
  }
}

/** Answers a malformed request target: 400, plain text, connection closed. Returns the status. */
export function refuseTarget(req: IncomingMessage, res: ServerResponse): number {
  req.resume()
  res.writeHead(400, {'content-type': 'text/plain; charset=utf-8', connection: 'close'}).end('Invalid HTTP request received.')
  return 400
}
