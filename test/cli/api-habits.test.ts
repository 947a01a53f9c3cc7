// What gh api users reach for in `till api`: -H headers (never Authorization), -i/--include, --silent, and a
// path without its leading slash. A fake API on 127.0.0.1 records what it receives.
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'

const TOKEN = `polar_oat_${'h'.repeat(43)}`

interface Seen {
  url: string
  headers: IncomingMessage['headers']
}

describe('till api as gh api users call it', () => {
  const seen: Seen[] = []
  let server: Server
  let box: Sandbox

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      seen.push({url: req.url ?? '', headers: req.headers})
      const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page')
      const items = page === null || page === '1' ? [{id: 'a'}] : []
      res.writeHead(200, {'content-type': 'application/json', 'x-answer': 'yes'}).end(JSON.stringify({items, pagination: {total_count: 1, max_page: 1}}))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    box = sandbox()
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    box?.cleanup()
  })

  const till = (args: string[]) =>
    runInProcess(args, {env: box.env({TILL_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, TILL_TOKEN: TOKEN})})
  const last = () => seen.at(-1)!

  it('takes a path without its leading slash', async () => {
    const r = await till(['api', 'products/'])
    expect(r.code, r.stderr).toBe(0)
    expect(last().url).toBe('/v1/products/')
    expect(JSON.parse(r.stdout).items).toEqual([{id: 'a'}])
  })

  it('-H sends headers (repeatable), with --paginate too; the token stays the profile’s', async () => {
    const r = await till(['api', '/products/', '-H', 'X-Trace: one', '-H', 'accept: application/json, text/plain'])
    expect(r.code, r.stderr).toBe(0)
    expect(last().headers).toMatchObject({'x-trace': 'one', accept: 'application/json, text/plain', authorization: `Bearer ${TOKEN}`})
    const before = seen.length
    const paged = await till(['api', '/products/', '--paginate', '-H', 'X-Trace: pages'])
    expect(paged.code, paged.stderr).toBe(0)
    const pages = seen.slice(before).map((s) => s.headers['x-trace'])
    expect(pages.length).toBeGreaterThan(0)
    expect(new Set(pages)).toEqual(new Set(['pages']))
  })

  it('-H Authorization and a malformed header are refused before anything is sent (exit 2)', async () => {
    const before = seen.length
    for (const header of ['Authorization: Bearer polar_oat_other', 'authorization:x', 'no colon here', 'X-Bad\u0000: y']) {
      const r = await till(['api', '/products/', '-H', header])
      expect(r.code, header).toBe(2)
      expect(r.stderr).toMatch(/^Error: -H /)
      expect(r.stderr).not.toContain('polar_oat_other')
    }
    expect(seen.length).toBe(before)
  })

  it('-i prints the status line and headers before the body; --silent prints no body', async () => {
    const included = await till(['api', '/products/', '-i'])
    expect(included.code, included.stderr).toBe(0)
    const [head, body] = included.stdout.split('\n\n')
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK')
    expect(head).toMatch(/^x-answer: yes$/m)
    expect(head).toMatch(/^content-type: application\/json$/m)
    expect(JSON.parse(body!).items).toEqual([{id: 'a'}])
    const silent = await till(['api', '/products/', '--silent'])
    expect(silent.code, silent.stderr).toBe(0)
    expect(silent.stdout).toBe('')
    const both = await till(['api', '/products/', '-i', '--silent'])
    expect(both.stdout).toMatch(/^HTTP\/1\.1 200 OK\n[\s\S]*\n\n$/)
  })
})
