// The requests an environment answered, the last 1,000 of them, in memory (`till emulator logs`, read on the
// control route GET /_emulator/logs): method, path, query, status, time taken, a correlation id and the
// environment. Never a token or a body: the headers and bodies are not kept, and the path and query go
// through the client's redaction (a token in a query, a seat invitation's token in its path).
import {randomUUID} from 'node:crypto'

import {redact} from '../../client/redact.js'
import type {EnvName} from './model.js'

export const REQUEST_LOG_SIZE = 1000

export interface LoggedRequest {
  /** Its place in the environment's log: 1, 2, 3... (the `after` cursor of the control route). */
  id: number
  /** A correlation id of its own, as the service makes one for each request and only logs it. */
  request_id: string
  environment: EnvName
  /** When it arrived (the wall clock). */
  time: string
  method: string
  path: string
  /** The query string without its `?`, empty when none. */
  query: string
  /** The status answered; 0 when the connection was cut instead (the --reset-rate fault). */
  status: number
  duration_ms: number
}

export type RequestFacts = Omit<LoggedRequest, 'id' | 'request_id' | 'path' | 'query'> & {url: string}

/** Splits a request target into its path and query, both redacted. */
function target(url: string): {path: string; query: string} {
  const at = url.indexOf('?')
  const [path, query] = at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)]
  return {path: redact(path), query: redact(query)}
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = []
  private last = 0
  private readonly waiting = new Set<() => void>()

  constructor(private readonly size = REQUEST_LOG_SIZE) {}

  add(facts: RequestFacts): LoggedRequest {
    const {url, ...rest} = facts
    const entry: LoggedRequest = {id: ++this.last, request_id: randomUUID(), ...rest, ...target(url)}
    this.entries.push(entry)
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size)
    for (const wake of [...this.waiting]) wake()
    return entry
  }

  /** The id of the newest entry (0 before any). */
  get lastId(): number {
    return this.last
  }

  /** The entries after `id`, oldest first, at most `limit`. */
  after(id: number, limit = this.size): LoggedRequest[] {
    const first = this.entries.findIndex((e) => e.id > id)
    return first === -1 ? [] : this.entries.slice(first, first + limit)
  }

  /** Resolves once an entry after `id` is kept, `ms` have passed or `signal` aborts, whichever is first. */
  waitAfter(id: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (this.last > id || ms <= 0 || signal?.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      timer.unref()
      this.waiting.add(done)
      signal?.addEventListener('abort', done)
    })
  }
}
