// Page/limit pagination as an async generator of items (server/polar/kit/pagination.py).
// With `all`, page 1 tells `max_page`; the other pages are fetched a few at a time and yielded in order,
// so memory is bounded by the window of pages in flight, never by the size of the list. Whatever `max_page`
// says, a list always has an end: reading stops at an empty page, and a page that repeats an earlier one
// (a server that ignores the page number) is an error, exit 6, rather than the same items without end.
import {RepeatedPages} from './page-repeat.js'
import {ExitCode, TillError} from './till-error.js'

export interface PageResult<T> {
  items: T[]
  pagination: {total_count: number; max_page: number}
}

export type FetchPage<T> = (page: number, limit: number, signal: AbortSignal) => Promise<PageResult<T>>

export interface PaginateOptions {
  /** Page size, 1-100; the API's default is 10. */
  limit?: number
  /** First page to read (default 1). */
  page?: number
  /** Read every page from `page` to the last. */
  all?: boolean
  /** Stop after this many items. */
  maxItems?: number
  /** Pages in flight at once when reading all of them (default 4). */
  concurrency?: number
  /** Called once if `total_count` changes while reading: items may have shifted between pages. */
  onShift?: (before: number, after: number) => void
  /** The list in what an error says of its paging (`GET /products/`); `the list` unless said. */
  list?: string
  /** Filled in as pages arrive: the list's `total_count` and `max_page`, and how many items were yielded. */
  seen?: {total?: number; maxPage?: number; yielded: number}
}

export const MAX_LIMIT = 100

export async function* paginate<T>(fetchPage: FetchPage<T>, options: PaginateOptions = {}): AsyncGenerator<T, void, undefined> {
  const limit = options.limit ?? 10
  const first = options.page ?? 1
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY
  const concurrency = Math.max(1, options.concurrency ?? 4)
  if (maxItems <= 0) return
  const controller = new AbortController()
  let yielded = 0
  let warned = false
  let total: number | undefined
  const check = (result: PageResult<T>) => {
    if (total !== undefined && result.pagination.total_count !== total && !warned) {
      warned = true
      options.onShift?.(total, result.pagination.total_count)
    }
    total ??= result.pagination.total_count
    if (options.seen) {
      options.seen.total = result.pagination.total_count
      options.seen.maxPage = result.pagination.max_page
    }
  }
  const count = () => {
    yielded++
    if (options.seen) options.seen.yielded = yielded
    return yielded
  }

  const repeats = new RepeatedPages()
  const repeated = (result: PageResult<T>, page: number) => {
    const repeat = repeats.record(result.items, page)
    if (!repeat) return
    const list = options.list ?? 'the list'
    return new TillError(
      `page ${page} of ${list} repeats page ${repeat.page} (${repeat.same}): its paging does not advance, so the list would never end`,
      ExitCode.unavailable,
      'the list was read up to that page; try again later, and if it happens again, report it to whoever runs the API',
    )
  }

  const inflight: Array<Promise<PageResult<T>>> = []
  try {
    const head = await fetchPage(first, limit, controller.signal)
    check(head)
    repeats.record(head.items, first)
    for (const item of head.items) {
      yield item
      if (count() >= maxItems) return
    }
    // One page, unless every page or a number of items was asked for; an empty page is the end.
    if (!options.all && !Number.isFinite(maxItems)) return
    if (head.items.length === 0) return
    // Never ask for more pages than the item cap needs.
    const needed = Number.isFinite(maxItems) ? first + Math.ceil((maxItems - yielded) / limit) : Number.POSITIVE_INFINITY
    const last = Math.min(head.pagination.max_page, needed)
    let next = first + 1
    const launch = () => {
      const p = fetchPage(next++, limit, controller.signal)
      p.catch(() => {}) // surfaced when awaited in order
      inflight.push(p)
    }
    while (next <= last && inflight.length < concurrency) launch()
    for (let page = first + 1; inflight.length > 0; page++) {
      const result = await inflight.shift()!
      check(result)
      if (result.items.length === 0) return
      const error = repeated(result, page)
      if (error) throw error
      if (next <= last) launch()
      for (const item of result.items) {
        yield item
        if (count() >= maxItems) return
      }
    }
  } finally {
    controller.abort()
  }
}
