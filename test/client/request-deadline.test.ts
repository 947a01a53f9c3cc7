// The deadline of a request, in the client's one retry loop: from sending it to the last byte of its
// answer. A server that trickles its answer a byte at a time never trips undici's timeouts (they measure
// the gaps between bytes); the deadline gives each try up, the loop tries again as after any lost
// answer, and the last failure is a network error (exit 6 on the command line). TILL_REQUEST_DEADLINE
// sets it, for the API as for the migration sources (test/commands/migrate-hostile-sources.test.ts).
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ApiClient} from '../../src/client/client.js'
import {NetworkError} from '../../src/client/errors.js'
import {Pacer} from '../../src/client/pace.js'
import {type Sandbox, sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const BODY = JSON.stringify({items: [], pagination: {total_count: 0, max_page: 1}})

describe('the deadline of a request', () => {
  let server: Server
  let url: string
  let requests = 0
  let box: Sandbox

  beforeAll(async () => {
    // every answer trickled, a byte each 100 ms: 5.5 s for the whole of it
    server = createServer((_req, res) => {
      requests++
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

  it('gives each try of a GET up at the deadline, and fails as a network error after the last', async () => {
    const lines: string[] = []
    const client = new ApiClient({
      baseUrl: url,
      userAgent: 'test',
      budgets: [{name: 'test', limit: 1000, windowMs: 1000}],
      pacer: new Pacer({sleep: async () => {}}),
      maxWaitMs: 0,
      label: 'test',
      deadlineMs: 300,
      debug: (line) => lines.push(line),
      sleep: async () => {},
    })
    const before = requests
    const error = await client.get('/v1/products/').then(
      () => undefined,
      (e: unknown) => e,
    )
    await client.close()
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).code).toBe('TILL_DEADLINE')
    expect((error as NetworkError).message).toBe('no whole answer within 0.3 s, the deadline of a request')
    expect(requests - before).toBe(5)
    expect(lines.filter((l) => /failed after \d+ms: TILL_DEADLINE$/.test(l))).toHaveLength(5)
  })

  it(
    'TILL_REQUEST_DEADLINE sets it on the command line: exit 6 naming it; a value that is not seconds is exit 2',
    async () => {
      const env = (deadline: string) => box.env({TILL_API_URL: url, TILL_TOKEN: `polar_oat_${'d'.repeat(43)}`, TILL_REQUEST_DEADLINE: deadline})
      const r = await runInProcess(['products', 'list'], {env: env('0.3')})
      expect(r.code, r.stderr).toBe(6)
      expect(r.stderr).toContain('no whole answer within 0.3 s, the deadline of a request')
      const bad = await runInProcess(['products', 'list'], {env: env('soon')})
      expect(bad.code, bad.stderr).toBe(2)
      expect(bad.stderr).toContain('TILL_REQUEST_DEADLINE must be a number of seconds over 0 (e.g. 60), not "soon"')
    },
    scaled(30_000),
  )
})
