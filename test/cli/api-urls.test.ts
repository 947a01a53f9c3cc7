// What is an absolute URL, one rule for `till api` and the client (src/client/origin.ts): a scheme in any
// case is one (`HTTP://` as `http://`), and `http:/x` or `http:\\x`, which the URL parser would read as
// `http://x/`, is refused as malformed (exit 2) rather than sent, as a path under the base URL or anywhere.
// A fake API on 127.0.0.1 and an "outside" host on 127.0.0.2 record what they receive.
import {createServer, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {createClient, TillError} from '../../src/client/index.js'
import {sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const TOKEN = `polar_oat_${'u'.repeat(43)}`

interface Seen {
  host: string
  url: string
  authorization?: string
}

describe('absolute URLs, one rule for till api and the client', () => {
  const seen: Seen[] = []
  let api: Server
  let outside: Server
  let apiUrl: string
  let outsideUrl: string
  let box: Sandbox

  const serve = (host: string, server: Server) =>
    new Promise<string>((resolve) => server.listen(0, host, () => resolve(`${host}:${(server.address() as AddressInfo).port}`)))
  const answer = (name: string) => (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    seen.push({host: name, url: req.url ?? '', authorization: req.headers.authorization})
    res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({from: name}))
  }

  beforeAll(async () => {
    api = createServer(answer('api'))
    outside = createServer(answer('outside'))
    apiUrl = await serve('127.0.0.1', api)
    outsideUrl = await serve('127.0.0.2', outside)
    box = sandbox()
  })
  afterAll(async () => {
    for (const server of [api, outside]) {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
    box?.cleanup()
  })

  const till = (args: string[]) => runInProcess(args, {env: box.env({TILL_API_URL: `http://${apiUrl}/v1`, TILL_TOKEN: TOKEN})})
  const since = (from: number) => seen.slice(from)

  it('`till api HTTP://...` is an absolute URL: --no-auth sends it there without credentials, else it is refused', async () => {
    let before = seen.length
    const r = await till(['api', `HTTP://${outsideUrl}/x`, '--no-auth'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({from: 'outside'})
    expect(since(before)).toEqual([{host: 'outside', url: '/x', authorization: undefined}])

    before = seen.length
    const refused = await till(['api', `Https://${outsideUrl}/x`])
    expect(refused.code, refused.stderr).toBe(2)
    expect(refused.stderr).toMatch(/^Error: https:\/\/127\.0\.0\.2:\d+ is not the profile's API origin/)
    expect(since(before)).toEqual([])

    // on the API's own origin, in capitals, it keeps the token
    before = seen.length
    const own = await till(['api', `HTTP://${apiUrl}/v1/orders/`])
    expect(own.code, own.stderr).toBe(0)
    expect(since(before)).toEqual([{host: 'api', url: '/v1/orders/', authorization: `Bearer ${TOKEN}`}])
  })

  it.each([
    ['http:/', 'http:'],
    ['http:\\\\', 'http:'],
    ['HTTP:/', 'HTTP:'],
    ['https:', 'https:'],
  ])('`till api %sHOST/x` is a malformed URL: exit 2 in one line, nothing sent', async (prefix, scheme) => {
    const before = seen.length
    const given = `${prefix}${outsideUrl}/x`
    const r = await till(['api', given, '--no-auth'])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      `Error: "${given}" is a malformed URL: ${scheme} must be followed by //host\n` +
        'Hint: give a path such as /products/, or a whole URL such as https://api.polar.sh/v1/products/\n',
    )
    expect(since(before)).toEqual([])
  })

  it('another scheme is refused, in any case', async () => {
    const before = seen.length
    const r = await till(['api', 'FTP://127.0.0.2/x', '--no-auth'])
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/^Error: "FTP:\/\/127\.0\.0\.2\/x" is not an http\(s\) URL\n/)
    expect(since(before)).toEqual([])
  })

  it('the client takes the same rule: HTTP:// goes where it says without the token, http:/ is refused unsent', async () => {
    const client = createClient({baseUrl: `http://${apiUrl}/v1`, token: TOKEN, budget: 'off'})
    try {
      let before = seen.length
      expect(await client.get(`HTTP://${outsideUrl}/y`)).toEqual({from: 'outside'})
      expect(since(before)).toEqual([{host: 'outside', url: '/y', authorization: undefined}])
      before = seen.length
      const error = await client.get(`http:/${outsideUrl}/y`).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(TillError)
      expect((error as TillError).exitCode).toBe(2)
      expect((error as TillError).message).toBe(`"http:/${outsideUrl}/y" is a malformed URL: http: must be followed by //host`)
      expect(since(before)).toEqual([])
    } finally {
      await client.close()
    }
  })
})
