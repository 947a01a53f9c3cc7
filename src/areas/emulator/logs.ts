// `till emulator logs`: the emulator's request log (GET /_emulator/logs), filtered by status and path, one
// line per request or one JSON line each, and with --follow the requests that come after, read by long polls
// with the log's cursor until Ctrl-C.
import type {ApiClient} from '../../client/client.js'
import {usageError} from '../../client/till-error.js'
import {terminalText} from '../../cli/output/format.js'
import {controlUrl} from './control.js'

export interface LoggedRequest {
  id: number
  request_id: string
  environment: string
  time: string
  method: string
  path: string
  query: string
  status: number
  duration_ms: number
}

interface Page {
  items: LoggedRequest[]
  last_id: number
}

/** How long the emulator holds a poll of --follow open when no request comes. */
const WAIT_S = 20

/** A test of a status: a class (`4xx`) or one status (`404`); `--status 4xx,5xx` takes either. */
export function statusFilter(value: string | undefined): (status: number) => boolean {
  if (value === undefined) return () => true
  const tests = value.split(',').map((part) => {
    const p = part.trim().toLowerCase()
    if (/^[1-5]xx$/.test(p)) return (s: number) => Math.floor(s / 100) === Number(p[0])
    if (/^[1-5]\d\d$/.test(p)) return (s: number) => s === Number(p)
    const hint = 'e.g. --status 4xx, --status 5xx or --status 404'
    throw usageError(`--status "${part}" is not a status or a class of them`, hint)
  })
  return (s) => tests.some((test) => test(s))
}

/** A test of a path: it starts with `prefix` (`/v1/orders` takes `/v1/orders/` and `/v1/orders/ID`). */
export function pathFilter(prefix: string | undefined): (path: string) => boolean {
  if (prefix === undefined) return () => true
  const hint = 'give one from its first slash, e.g. --path /v1/orders'
  if (!prefix.startsWith('/')) throw usageError(`--path "${prefix}" is not a path`, hint)
  return (path) => path.startsWith(prefix)
}

/** `2026-12-08T01:58:35Z  [404] GET /v1/orders/ID?x=1  3.2 ms  [request id]` */
export function logLine(r: LoggedRequest): string {
  const target = terminalText(`${r.path}${r.query ? `?${r.query}` : ''}`)
  const status = r.status === 0 ? 'cut' : String(r.status)
  const time = r.time.replace(/\.\d{3}Z$/, 'Z')
  return `${time}  [${status}] ${terminalText(r.method)} ${target}  ${r.duration_ms} ms  [${r.request_id}]`
}

export interface LogsOptions {
  follow: boolean
  keep: (r: LoggedRequest) => boolean
  print: (r: LoggedRequest) => void
}

/** Prints the log's requests that `keep` takes; with `follow`, goes on with each later one (never returns). */
export async function readLogs(client: ApiClient, o: LogsOptions): Promise<void> {
  let after = 0
  for (let first = true; ; first = false) {
    // the first read answers at once; each later one waits for a request to come
    const wait = o.follow && !first ? WAIT_S : 0
    const url = controlUrl(client.baseUrl, `/logs?after=${after}&wait=${wait}`)
    const page = await client.get<Page>(url, {deadlineMs: (WAIT_S + 30) * 1000})
    for (const r of page.items) if (o.keep(r)) o.print(r)
    // a log newer than the cursor was restarted (another emulator run): read it from its start
    after = page.last_id < after ? 0 : (page.items.at(-1)?.id ?? page.last_id)
    if (!o.follow) return
  }
}
