// Lists whose pages claim no end: every page says `max_page` is 10^9, and then holds nothing, or the same
// items each time (a server that ignores the page number). Reading every page (`till api --paginate`, a
// list's `--all`, the client's paginate) stops at the first empty page, and a page that repeats an earlier
// one is an error naming the list (exit 6), after a handful of requests rather than a billion.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {createClient, listProducts, TillError} from '../../src/client/index.js'
import {linesOf, sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const TOKEN = `polar_oat_${'e'.repeat(43)}`
const BILLION = 1_000_000_000
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const product = (n: number) => ({id: id(n), name: `P${n}`, is_archived: false, prices: [], benefits: [], medias: []})

/** What the server answers for a page of one of its lists: the items of that page. */
type Pages = (page: number, limit: number) => unknown[]

const LISTS: Record<string, Pages> = {
  // nothing at all, on every page of a billion
  empty: () => [],
  // one page of items, then empty pages up to a billion
  'then-empty': (page, limit) => (page === 1 ? Array.from({length: limit}, (_, i) => product(i)) : []),
  // the same items on every page
  same: (_page, limit) => Array.from({length: limit}, (_, i) => product(i)),
}

describe('lists whose pages claim no end', () => {
  let server: Server
  let url: string
  let box: Sandbox
  // each run has a base URL of its own, /RUN/v1, that names the list its products are, and counts its
  // requests (an aborted request of an earlier run may arrive after that run has ended)
  const sent = new Map<string, number>()
  let runs = 0

  beforeAll(async () => {
    server = createServer((req, res) => {
      const at = new URL(req.url ?? '/', 'http://x')
      const [, run = '', , resource = ''] = at.pathname.split('/')
      sent.set(run, (sent.get(run) ?? 0) + 1)
      // a bound for a reader that would go on: past it, connections are dropped (a network error)
      if (sent.get(run)! > 200) return req.socket.destroy()
      const name = resource === 'products' ? run.replace(/-\d+$/, '') : resource
      const page = Number(at.searchParams.get('page') ?? 1)
      const limit = Number(at.searchParams.get('limit') ?? 10)
      const items = LISTS[name]?.(page, limit)
      if (!items) return res.writeHead(404, {'content-type': 'application/json'}).end('{"error":"ResourceNotFound","detail":"Not found"}')
      res.writeHead(200, {'content-type': 'application/json'})
      res.end(JSON.stringify({items, pagination: {total_count: BILLION * limit, max_page: BILLION}}))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    box = sandbox()
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    box?.cleanup()
  })

  /** A base URL of a run of its own, whose /products/ is the list `products`; and how many requests it sent. */
  const base = (products = 'empty') => {
    const run = `${products}-${++runs}`
    return {url: `${url}/${run}/v1`, sent: () => sent.get(run) ?? 0}
  }
  const till = (args: string[], at: {url: string}) => runInProcess(args, {env: box.env({TILL_API_URL: at.url, TILL_TOKEN: TOKEN})})

  it('`till api --paginate` of empty pages stops at the first one: exit 0, no items', async () => {
    const at = base()
    const r = await till(['api', '/empty/', '--paginate'], at)
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual([])
    expect(at.sent()).toBe(1)
    const then = base()
    const after = await till(['api', '/then-empty/', '--paginate', '-o', 'jsonl'], then)
    expect(after.code, after.stderr).toBe(0)
    expect(linesOf(after.stdout)).toHaveLength(100)
    // the first page, and at most the pages in flight beside the first empty one
    expect(then.sent()).toBeLessThanOrEqual(5)
  })

  it('`till api --paginate` of pages that repeat fails at the first repeat: one line, exit 6', async () => {
    const at = base()
    const r = await till(['api', '/same/', '--paginate', '-o', 'jsonl'], at)
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toBe(
      `Error: page 2 of GET /same/ repeats page 1 (the same 100 items, ${id(0)} to ${id(99)}): its paging does not advance, ` +
        'so the list would never end\n' +
        'Hint: the list was read up to that page; try again later, and if it happens again, report it to whoever runs the API\n',
    )
    expect(linesOf(r.stdout)).toHaveLength(100)
    expect(at.sent()).toBeLessThanOrEqual(5)
  })

  it('a list command with --all: empty pages end it, repeated pages are exit 6 naming the list', async () => {
    const at = base('empty')
    const empty = await till(['products', 'list', '--all', '-o', 'jsonl'], at)
    expect(empty.code, empty.stderr).toBe(0)
    expect(empty.stdout).toBe('')
    expect(at.sent()).toBe(1)
    const again = base('same')
    const same = await till(['products', 'list', '--all', '-o', 'jsonl'], again)
    expect(same.code, same.stderr).toBe(6)
    expect(linesOf(same.stderr)[0]).toBe(
      `Error: page 2 of GET /products/ repeats page 1 (the same 100 items, ${id(0)} to ${id(99)}): its paging does not advance, ` +
        'so the list would never end',
    )
    expect(linesOf(same.stdout)).toHaveLength(100)
    expect(again.sent()).toBeLessThanOrEqual(5)
  })

  it("the client's paginate, as a script uses it: the same end and the same error", async () => {
    const then = base('then-empty')
    const same = base('same')
    const client = createClient({baseUrl: then.url, token: TOKEN, budget: 'off'})
    const other = createClient({baseUrl: same.url, token: TOKEN, budget: 'off'})
    try {
      const read: string[] = []
      for await (const p of listProducts(client, {}, {all: true, limit: 100})) read.push(p.id)
      expect(read).toHaveLength(100)
      expect(then.sent()).toBeLessThanOrEqual(5)
      const error = await (async () => {
        for await (const _ of listProducts(other, {}, {all: true, limit: 100}));
      })().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(TillError)
      expect((error as TillError).exitCode).toBe(6)
      expect((error as TillError).message).toMatch(/^page 2 of GET \/products\/ repeats page 1 \(the same 100 items, /)
      expect(same.sent()).toBeLessThanOrEqual(5)
    } finally {
      await client.close()
      await other.close()
    }
  })
})
