// `till migrate` against sources that misbehave, each a loopback server written here (or the fake Stripe
// with a fault): an answer that is not JSON, paging that never advances (Stripe, Paddle, Lemon Squeezy
// alike), a `next` link on another origin, an answer trickled a byte at a time past the request deadline,
// a redirect that echoes the key into a URL; and an --out that cannot be written, a writer killed on the
// way, a folder where a file goes, a missing key file. None may hang, crash, leak the key or change a run
// silently: each stops with one line, its exit code, and --out as it was.
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'

import {type Sandbox, sandbox, spawnCli} from '../helpers/cli.js'
import {type FakeStripe, generatedStripe, startFakeStripe} from '../helpers/fake-stripe.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const KEY = `rk_live_${'Hq7'.repeat(12)}`
const SECRET = KEY.slice(8)

interface Loopback {
  url: string
  /** Each request's path and query, in order. */
  requests: string[]
  close(): Promise<void>
}

/** A server on 127.0.0.1:0 answering with `handle`; closed with its connections (a held answer too). */
async function loopback(handle: (req: IncomingMessage, res: ServerResponse, base: string) => void): Promise<Loopback> {
  const requests: string[] = []
  let base = ''
  const server = createServer((req, res) => {
    requests.push(req.url ?? '')
    handle(req, res, base)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, {'content-type': 'application/json'})
  res.end(JSON.stringify(body))
}

describe('till migrate: sources that misbehave', () => {
  let box: Sandbox
  let stripe: FakeStripe
  const servers: Loopback[] = []
  const serve = async (handle: Parameters<typeof loopback>[0]) => {
    const server = await loopback(handle)
    servers.push(server)
    return server
  }
  const till = (args: string[], extra: Record<string, string | undefined> = {}) =>
    runInProcess(args, {env: box.env({STRIPE_API_KEY: KEY, PADDLE_API_KEY: KEY, LEMONSQUEEZY_API_KEY: KEY, ...extra})})
  const migrate = (source: string, base: string, out: string, extra: string[] = [], env: Record<string, string | undefined> = {}) =>
    till(['migrate', source, '--out', join(box.root, out), '--api-base', base, '--no-target', ...extra], env)

  beforeAll(async () => {
    box = sandbox()
    stripe = await startFakeStripe(generatedStripe(4, 6), KEY)
  })
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  afterAll(async () => {
    await stripe?.stop()
    box?.cleanup()
  })

  it('an --out that cannot be written is exit 2 naming the folder, before the source is read', async () => {
    // Tests run as root here, where a mode-555 folder does not stop a write; /sys refuses a new file even
    // to root (EACCES; EROFS where it is mounted read-only). Anyone else gets a mode-555 folder.
    let out: string
    if (process.getuid?.() === 0) out = '/sys/fs'
    else {
      out = join(box.root, 'ro')
      mkdirSync(out, {mode: 0o555})
    }
    const before = stripe.requests.length
    const r = await till(['migrate', 'stripe', '--out', out, '--api-base', stripe.url, '--no-target'])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(
      new RegExp(`^Error: cannot write ${out}: (permission denied|the file system is read-only)\\nHint: give --out a folder you can write to\\n$`),
    )
    expect(stripe.requests.length).toBe(before)
    // /proc takes no new file, and says "no such file": the folder is there, so that is not what is said
    const proc = await till(['migrate', 'stripe', '--out', '/proc/self', '--api-base', stripe.url, '--no-target'])
    expect(proc.code, proc.stderr).toBe(2)
    expect(proc.stderr).toContain('cannot write /proc/self: the folder takes no new files')
  })

  it('a 200 answer that is not JSON (an HTML page, a cut one, a list without its data) is exit 6 saying so', async () => {
    const html = await serve((_req, res) => {
      res.writeHead(200, {'content-type': 'text/html'})
      res.end('<html><body>Sign in to the Wi-Fi</body></html>')
    })
    const page = await migrate('stripe', html.url, 'html')
    expect(page.code, page.stderr).toBe(6)
    expect(page.stderr).toContain(
      'Error: Stripe answered GET /v1/prices?active=true&limit=100 with something that is not JSON (text/html: "<html><body>Sign in to the Wi-Fi</body></html>")',
    )
    expect(page.stderr).not.toContain('internal error')
    const cut = await serve((_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'})
      res.end('{"object":"list","data":[{"id":"price_1","act')
    })
    const truncated = await migrate('paddle', cut.url, 'cut')
    expect(truncated.code, truncated.stderr).toBe(6)
    expect(truncated.stderr).toContain('Paddle answered GET /products?')
    expect(truncated.stderr).toContain('with something that is not JSON (application/json: "{"object":"list","data":[{"id":"price_1","act")')
    const bare = await serve((_req, res) => json(res, {jsonapi: {version: '1.0'}}))
    const noData = await migrate('lemonsqueezy', bare.url, 'no-data')
    expect(noData.code, noData.stderr).toBe(6)
    expect(noData.stderr).toContain('Lemon Squeezy answered GET /stores?page%5Bnumber%5D=1&page%5Bsize%5D=100 without the list it reads')
    for (const out of ['html', 'cut', 'no-data']) expect(readdirSync(join(box.root, out))).toEqual([])
  })

  it('paging that never advances stops with exit 6, whatever the source (a page, a cursor or a next link sent again)', async () => {
    // Stripe answering the same page with has_more: true, whatever starting_after says
    const stuck = await serve((_req, res) => json(res, {object: 'list', data: [{id: 'price_1', object: 'price'}], has_more: true}))
    const s = await migrate('stripe', stuck.url, 'stripe-loop')
    expect(s.code, s.stderr).toBe(6)
    expect(s.stderr).toContain('Error: Stripe sent a page of /v1/prices it had sent before (the same item, price_1): its paging does not advance')
    expect(stuck.requests).toHaveLength(2)

    // Paddle's next pointing back at the page it came with
    const paddle = await serve((req, res, base) => {
      const after = new URL(req.url ?? '/', base).searchParams.get('after')
      const id = after === null ? 'pro_1' : 'pro_2'
      json(res, {
        data: [{id, name: `Product ${id}`, status: 'active', prices: []}],
        meta: {pagination: {next: `${base}/products?after=pro_1`, has_more: true, per_page: 200}},
      })
    })
    const p = await migrate('paddle', paddle.url, 'paddle-loop')
    expect(p.code, p.stderr).toBe(6)
    expect(p.stderr).toContain(`Error: Paddle pointed the next page of /products at one it had already given (${paddle.url}/products?after=pro_1)`)
    expect(paddle.requests).toHaveLength(2)

    // Lemon Squeezy ignoring page[number], with a next link and no last page
    const lemon = await serve((_req, res, base) =>
      json(res, {data: [{id: '1', type: 'stores', attributes: {currency: 'USD'}}], links: {next: `${base}/stores?page[number]=2`}}),
    )
    const l = await migrate('lemonsqueezy', lemon.url, 'lemon-loop')
    expect(l.code, l.stderr).toBe(6)
    expect(l.stderr).toContain('Error: Lemon Squeezy sent a page of /stores it had sent before (the same item, 1)')
    expect(lemon.requests).toHaveLength(2)
  })

  it("a next link on another origin is refused (Paddle's): not fetched, exit 6", async () => {
    const elsewhere = await serve((_req, res) => json(res, {data: [], meta: {pagination: {next: null, has_more: false}}}))
    // 127.0.0.1 and localhost: the same machine, another origin
    const paddle = await serve((_req, res) =>
      json(res, {
        data: [{id: 'pro_1', name: 'Product 1', status: 'active', prices: []}],
        meta: {pagination: {next: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/products?after=pro_1`, has_more: true}},
      }),
    )
    const r = await migrate('paddle', paddle.url, 'elsewhere')
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(
      `Error: Paddle gave a link to another site for its next page (${elsewhere.url.replace('127.0.0.1', 'localhost')}, not ${paddle.url})`,
    )
    expect(elsewhere.requests).toEqual([])
  })

  it(
    'an answer trickled a byte at a time ends the run at the request deadline (TILL_REQUEST_DEADLINE), every try together',
    async () => {
      const body = JSON.stringify({object: 'list', data: [], has_more: false})
      const trickle = await serve((_req, res) => {
        res.writeHead(200, {'content-type': 'application/json'})
        let sent = 0
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer)
          res.write(body[sent++]!)
          if (sent === body.length) {
            clearInterval(timer)
            res.end()
          }
        }, 200)
        res.on('close', () => clearInterval(timer))
      })
      // the whole body would take 43 x 200 ms, against a deadline of 2 s (undici's own timeouts, which
      // measure the gaps between bytes, never trip)
      const started = performance.now()
      const r = await migrate('stripe', trickle.url, 'trickled', ['--debug'], {TILL_REQUEST_DEADLINE: '2'})
      const took = performance.now() - started
      expect(r.code, r.stderr).toBe(6)
      expect(r.stderr).toContain(
        `Error: Stripe did not answer GET /v1/prices?active=true&limit=100 in time: no whole answer within 2 s, the deadline of a request`,
      )
      expect(r.stderr).toContain('Hint: run the migration again later, or give each request longer with TILL_REQUEST_DEADLINE (seconds)')
      // one try, given up at the deadline, and none after it
      expect(r.stderr.match(/failed after \d+ms: TILL_DEADLINE/g)).toHaveLength(1)
      expect(trickle.requests).toHaveLength(1)
      expect(took).toBeLessThan(2000 + scaled(3000))
      expect(readdirSync(join(box.root, 'trickled'))).toEqual([])
    },
    scaled(30_000),
  )

  it('--debug and the errors never show the key, even when the source echoes it in a redirect', async () => {
    // a redirect on its own origin to a URL carrying the key (followed), then one to another origin (not)
    const echo = await serve((req, res, base) => {
      const url = new URL(req.url ?? '/', base)
      const key = String(req.headers.authorization).replace(/^Bearer /, '')
      if (url.pathname === '/v1/customers') {
        res.writeHead(302, {location: `${base.replace('127.0.0.1', 'localhost')}/v1/customers?key=${key}`})
        return res.end()
      }
      if (!url.searchParams.has('key')) {
        res.writeHead(302, {location: `${url.pathname}${url.search}&key=${encodeURIComponent(key)}`})
        return res.end()
      }
      json(res, {object: 'list', data: [], has_more: false})
    })
    const r = await migrate('stripe', echo.url, 'echo', ['--debug'])
    expect(r.code, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/following redirect to http:\/\/127\.0\.0\.1:\d+\/v1\/prices\?active=true&limit=100&key=…\n/)
    expect(r.stderr).toMatch(
      /Error: GET http:\/\/127\.0\.0\.1:\d+\/v1\/customers\?.* answered 302 redirecting to http:\/\/localhost:\d+\/v1\/customers\?key=…; not followed/,
    )
    expect(r.stdout + r.stderr).not.toContain(SECRET)
  })

  it('a source out of reach, or not found, is hinted without the hidden --api-base', async () => {
    const gone = await serve((_req, res) => json(res, {}))
    await gone.close()
    const r = await migrate('stripe', gone.url, 'unreachable')
    expect(r.code, r.stderr).toBe(6)
    expect(r.stderr).toContain(`Error: could not reach Stripe (${gone.url}/v1/prices?active=true&limit=100): connection refused`)
    expect(r.stderr).toContain(`Hint: check the network, and that ${gone.url} can be reached from here`)
    const missing = await serve((_req, res) => json(res, {errors: [{detail: 'Not found'}]}, 404))
    const n = await migrate('lemonsqueezy', missing.url, 'missing')
    expect(n.code, n.stderr).toBe(3)
    for (const text of [r.stderr, n.stderr]) expect(text).not.toContain('--api-base')
  })

  it('a missing --api-key-file is said in words (exit 2); a key from a file that is refused is hinted as that file', async () => {
    const missing = join(box.root, 'no-such-key.txt')
    const r = await migrate('stripe', stripe.url, 'no-key-file', ['--api-key-file', missing], {STRIPE_API_KEY: undefined})
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain(`Error: cannot read the API key file ${missing}: no such file or folder\n`)
    expect(r.stderr).not.toContain('ENOENT')
    const file = join(box.root, 'wrong-key.txt')
    writeFileSync(file, `rk_live_${'W'.repeat(30)}\n`)
    const refused = await migrate('stripe', stripe.url, 'refused', ['--api-key-file', file])
    expect(refused.code, refused.stderr).toBe(4)
    expect(refused.stderr).toContain(`Hint: check the key in ${file} (--api-key-file): a read-only key`)
    expect(refused.stderr).not.toContain('STRIPE_API_KEY')
  })

  it('writes the three files all or nothing: a folder where precheck.json goes changes none, and is named', async () => {
    const out = join(box.root, 'whole')
    const first = await migrate('stripe', stripe.url, 'whole')
    expect(first.code, first.stderr).toBe(0)
    const catalog = readFileSync(join(out, 'catalog.yaml'), 'utf8')
    const customers = readFileSync(join(out, 'customers.jsonl'), 'utf8')
    stripe.data.products[0]!.name = 'Renamed before the run that fails'
    stripe.data.customers[0]!.name = 'Renamed customer'
    rmSync(join(out, 'precheck.json'))
    mkdirSync(join(out, 'precheck.json'))
    writeFileSync(join(out, 'precheck.json', 'notes.txt'), 'mine\n')
    const r = await migrate('stripe', stripe.url, 'whole')
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain(`Error: cannot write ${join(out, 'precheck.json')}: it is a folder, not a file\n`)
    expect(readFileSync(join(out, 'catalog.yaml'), 'utf8')).toBe(catalog)
    expect(readFileSync(join(out, 'customers.jsonl'), 'utf8')).toBe(customers)
    expect(readdirSync(out).sort()).toEqual(['catalog.yaml', 'customers.jsonl', 'precheck.json'])
    expect(readdirSync(join(out, 'precheck.json'))).toEqual(['notes.txt'])
  })

  it(
    'a writer killed with SIGKILL leaves its temporary file, and the next run removes it',
    async () => {
      // the source holds its first answer: the run is killed while it waits
      const held = await serve(() => {})
      const out = join(box.root, 'killed')
      const run = spawnCli(['migrate', 'stripe', '--out', out, '--api-base', held.url, '--no-target'], {
        env: box.env({STRIPE_API_KEY: KEY}),
        timeoutMs: scaled(60_000),
      })
      const part = `.customers.jsonl.${run.child.pid}.part`
      const until = Date.now() + scaled(45_000)
      while (!(existsSync(join(out, part)) && held.requests.length > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
      expect(readdirSync(out)).toEqual([part])
      run.child.kill('SIGKILL')
      const killed = await run.done
      expect(killed.signal).toBe('SIGKILL')
      expect(readdirSync(out)).toEqual([part])
      const again = await migrate('stripe', stripe.url, 'killed')
      expect(again.code, again.stderr).toBe(0)
      expect(readdirSync(out).sort()).toEqual(['catalog.yaml', 'customers.jsonl', 'precheck.json'])
    },
    scaled(60_000),
  )
})
