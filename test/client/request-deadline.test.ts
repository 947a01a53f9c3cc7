// The deadline of a request, in the client's one retry loop: from sending it to the last byte of its
// answer, its tries and the pauses between them together (src/client/deadline.ts). A server that trickles
// its answer a byte at a time never trips undici's timeouts (they measure the gaps between bytes); the
// deadline ends the request, with no other try, as a network error (exit 6 on the command line), within
// the deadline and not one deadline per try. TILL_REQUEST_DEADLINE sets it, for the API, a document's
// download and the migration sources alike (test/commands/migrate-hostile-sources.test.ts); a forwarded
// webhook's answer has a deadline of its own.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ApiClient} from '../../src/client/client.js'
import {NetworkError} from '../../src/client/errors.js'
import {forwardEvent} from '../../src/client/listen.js'
import {Pacer} from '../../src/client/pace.js'
import {type Sandbox, sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const BODY = JSON.stringify({items: [], pagination: {total_count: 0, max_page: 1}})
const TOKEN = `polar_oat_${'d'.repeat(43)}`

describe('the deadline of a request', () => {
  let server: Server
  let url: string
  let requests = 0
  let dropped = 0
  let box: Sandbox

  beforeAll(async () => {
    // every answer trickled, a byte each 100 ms: 5.5 s for the whole of it; /drop/ closes the connection
    server = createServer((req, res) => {
      requests++
      if (req.url?.startsWith('/drop/')) {
        dropped++
        return req.socket.destroy()
      }
      res.writeHead(200, {'content-type': 'application/json'})
      let sent = 0
      const timer = setInterval(() => {
        res.write(BODY[sent++]!)
        if (sent === BODY.length) {
          clearInterval(timer)
          res.end()
        }
      }, 100)
      res.on('close', () => clearInterval(timer))
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

  const client = (deadlineMs: number, lines: string[] = []) =>
    new ApiClient({
      baseUrl: url,
      userAgent: 'test',
      budgets: [{name: 'test', limit: 1000, windowMs: 1000}],
      pacer: new Pacer({sleep: async () => {}}),
      maxWaitMs: 0,
      label: 'test',
      deadlineMs,
      debug: (line) => lines.push(line),
      sleep: async () => {},
    })
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    )

  it('ends a GET at the deadline, every try together: one try, then a network error', async () => {
    const lines: string[] = []
    const api = client(300, lines)
    const before = requests
    const started = performance.now()
    const error = await failure(api.get('/v1/products/'))
    const took = performance.now() - started
    await api.close()
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).code).toBe('TILL_DEADLINE')
    expect((error as NetworkError).message).toBe('no whole answer within 0.3 s, the deadline of a request')
    expect(requests - before).toBe(1)
    expect(lines.filter((l) => /failed after \d+ms: TILL_DEADLINE$/.test(l))).toHaveLength(1)
    expect(took).toBeLessThan(300 + scaled(4000))
  })

  it('tries a GET whose connection drops again while the deadline leaves time, every time', async () => {
    const api = client(scaled(30_000))
    const before = dropped
    const error = await failure(api.get('/drop/'))
    await api.close()
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).code).not.toBe('TILL_DEADLINE')
    expect(dropped - before).toBe(5)
  })

  it("ends a document's download at the deadline too", async () => {
    const api = client(300)
    const before = requests
    const started = performance.now()
    const error = await failure(api.download(`${url}/invoice.pdf`))
    const took = performance.now() - started
    await api.close()
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).message).toBe('no whole answer within 0.3 s, the deadline of a request')
    expect(requests - before).toBe(1)
    expect(took).toBeLessThan(300 + scaled(4000))
  })

  it('ends the forwarding of a webhook event whose handler trickles its answer', async () => {
    const started = performance.now()
    const event = {kind: 'event' as const, webhookEventId: 'e1', body: '{}', form: 'string' as const, type: 'order.paid', headers: {}}
    const result = await forwardEvent(`${url}/hook`, event, Date.now, 300)
    expect(result.error).toBe('no whole answer within 0.3 s')
    expect(result.status).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(300 + scaled(4000))
  })

  it(
    'TILL_REQUEST_DEADLINE sets it on the command line: the command ends within it, exit 6 in one line',
    async () => {
      const env = (deadline: string) => box.env({TILL_API_URL: url, TILL_TOKEN: TOKEN, TILL_REQUEST_DEADLINE: deadline})
      for (const args of [
        ['products', 'list'],
        ['api', '/products/'],
        ['products', 'list', '--all'],
      ]) {
        const before = requests
        const started = performance.now()
        const r = await runInProcess(args, {env: env('2')})
        const took = performance.now() - started
        expect(r.code, r.stderr).toBe(6)
        expect(r.stderr).toBe(
          `Error: cannot reach the API at ${url}: no whole answer within 2 s, the deadline of a request\n` +
            `Hint: check the network and the profile's URL; profile "local" (local, ${url})\n`,
        )
        expect(requests - before).toBe(1)
        expect(took, args.join(' ')).toBeLessThan(2000 + scaled(5000))
      }
      const bad = await runInProcess(['products', 'list'], {env: env('soon')})
      expect(bad.code, bad.stderr).toBe(2)
      expect(bad.stderr).toContain('TILL_REQUEST_DEADLINE must be a number of seconds from 0.001 to 2147483 (e.g. 60), not "soon"')
    },
    scaled(60_000),
  )
})
