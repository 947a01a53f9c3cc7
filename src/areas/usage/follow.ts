// `events list --follow`: the latest events, then every newer one, polled until Ctrl-C.
import type {ApiClient} from '../../client/client.js'
import {eventsQuery, type EventFilters} from '../../client/resources/events.js'
import type {Item} from '../../client/resources/common.js'
import type {PageResult} from '../../client/paginate.js'

export interface FollowOptions {
  intervalMs: number
  /** How many of the latest events to show first. */
  backlog: number
  json: boolean
  out: NodeJS.WritableStream
  sleep?: (ms: number) => Promise<void>
  /** Stops after this many polls (tests); forever otherwise. */
  polls?: number
}

/** One readable line: time, name, customer, metadata. */
export function eventLine(e: Item): string {
  const customer = (e.customer as {email?: string} | null)?.email ?? e.external_customer_id ?? e.customer_id ?? ''
  const metadata = e.metadata && Object.keys(e.metadata as object).length > 0 ? ` ${JSON.stringify(e.metadata)}` : ''
  return `${String(e.timestamp)}  ${String(e.name)}  ${String(customer)}${metadata}`
}

export async function followEvents(client: ApiClient, filters: EventFilters, o: FollowOptions): Promise<void> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const print = (e: Item) => o.out.write(`${o.json ? JSON.stringify(e) : eventLine(e)}\n`)
  const base = eventsQuery({...filters, sorting: undefined})
  const first = await client.get<PageResult<Item>>('/events/', {
    query: {...base, sorting: ['-timestamp'], page: 1, limit: Math.max(1, Math.min(o.backlog, 100))},
  })
  const latest = o.backlog > 0 ? [...first.items].reverse() : []
  for (const e of latest) print(e)
  // the newest time seen, and the ids seen at exactly that time (the bound is exclusive on the service)
  let since = first.items[0]?.timestamp as string | undefined
  let atSince = new Set(first.items.filter((e) => e.timestamp === since).map((e) => e.id))
  for (let poll = 0; o.polls === undefined || poll < o.polls; poll++) {
    await sleep(o.intervalMs)
    const start = since ? new Date(Date.parse(since) - 1).toISOString() : filters.start
    for (let page = 1; ; page++) {
      const res = await client.get<PageResult<Item>>('/events/', {query: {...base, start_timestamp: start, sorting: ['timestamp'], page, limit: 100}})
      for (const e of res.items) {
        if (since && (e.timestamp as string) < since) continue
        if (e.timestamp === since && atSince.has(e.id)) continue
        print(e)
        if (since === undefined || (e.timestamp as string) > since) {
          since = e.timestamp as string
          atSince = new Set()
        }
        atSince.add(e.id)
      }
      if (page >= res.pagination.max_page) break
    }
  }
}
