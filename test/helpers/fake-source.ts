// What the fake migration sources (fake-lemonsqueezy.ts, fake-paddle.ts) share: an HTTP server on
// 127.0.0.1:0 that checks the bearer key, records each request, and answers the faults a test queues
// (429 with Retry-After, 5xx) before its routes. Test helpers only: nothing of it ships.
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

import {expect} from 'vitest'

import {TillError} from '../../src/client/till-error.js'

export interface Fault {
  status: number
  /** Retry-After of a 429 (seconds), when it has one. */
  retryAfter?: string
  /** Only requests whose path starts with this. */
  path?: string
}

export interface Recorded {
  path: string
  query: URLSearchParams
  authorization: string | undefined
  accept: string | undefined
}

export type Route = (path: string, query: URLSearchParams, base: string) => {status: number; body: unknown} | undefined

export class FakeSource {
  readonly requests: Recorded[] = []
  private readonly faults: Fault[] = []
  private server: Server | undefined
  url = ''

  constructor(
    readonly key: string,
    private readonly route: Route,
    private readonly refusal: (status: number) => unknown,
    private readonly contentType = 'application/json',
  ) {}

  /** The next `times` requests (matching `fault.path`) get this answer instead of their own. */
  fail(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(fault)
  }

  /** Requests to `path` (no query), counted. */
  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this.url
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url)
    this.requests.push({path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, accept: req.headers.accept})
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {'content-type': this.contentType, ...headers})
      res.end(JSON.stringify(body))
    }
    const at = this.faults.findIndex((f) => !f.path || url.pathname.startsWith(f.path))
    if (at >= 0) {
      const [fault] = this.faults.splice(at, 1)
      send(fault!.status, this.refusal(fault!.status), fault!.retryAfter === undefined ? {} : {'retry-after': fault!.retryAfter})
    } else if (req.method !== 'GET') send(405, this.refusal(405))
    else if (req.headers.authorization !== `Bearer ${this.key}`) send(401, this.refusal(401))
    else {
      const answer = this.route(url.pathname, url.searchParams, this.url)
      if (answer) send(answer.status, answer.body)
      else send(404, this.refusal(404))
    }
  }
}

export const STAMP = '2026-01-02T03:04:05.000000Z'

/** Every item a source's list yields. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

/** The TillError `promise` fails with (and that it fails with one). */
export async function failure(promise: Promise<unknown>): Promise<TillError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TillError)
  return error as TillError
}
