// A write of an input that a stopped run of a bulk job may have sent is settled as one whose answer was
// lost, before anything is sent again (src/client/attempt.ts, ApiClient.request): resent when the
// operation is idempotent (an answer that means "done" is then "already done"), looked up first when it
// has a lookup, and never sent when it can only be unknown. A small HTTP server records what arrives.
import {createServer, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runAttempt, type Attempt} from './attempt.js'
import {ApiClient} from './client.js'
import {OutcomeUnknownError} from './errors.js'
import {Pacer} from './pace.js'

describe('the writes of an input an earlier run may have sent', () => {
  let server: Server
  let client: ApiClient
  const seen: string[] = []
  const answers = new Map<string, {status: number; body: unknown}>()

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const key = `${req.method} ${req.url}`
      seen.push(key)
      const answer = answers.get(key) ?? {status: 200, body: {}}
      res.writeHead(answer.status, {'content-type': 'application/json'}).end(JSON.stringify(answer.body))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const {port} = server.address() as AddressInfo
    client = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: 'polar_oat_test',
      userAgent: 'till/test',
      budgets: [],
      pacer: new Pacer({}),
      maxWaitMs: 0,
      label: 'test',
    })
  })
  afterAll(async () => {
    await client.close()
    await new Promise((resolve) => server.close(resolve))
  })

  const attempt = async <T>(earlier: boolean, fn: () => Promise<T>): Promise<{result: T; attempt: Attempt}> => {
    seen.length = 0
    const a: Attempt = {earlier}
    return {result: await runAttempt(a, fn), attempt: a}
  }

  it('an idempotent DELETE is sent again; its 404 means an earlier run did it: already done', async () => {
    answers.set('DELETE /v1/customers/c1', {status: 404, body: {error: 'ResourceNotFound', detail: 'Not found'}})
    const {attempt: a} = await attempt(true, () => client.delete('/customers/c1'))
    expect(seen).toEqual(['DELETE /v1/customers/c1'])
    expect(a.alreadyDone).toBe('done by an earlier run')
    // the same 404 in a first run is an error
    await expect(attempt(false, () => client.delete('/customers/c1'))).rejects.toMatchObject({status: 404})
  })

  it('an idempotent write answered as usual is ok, not already done', async () => {
    const {attempt: a} = await attempt(true, () => client.patch('/customers/c2', {name: 'x'}))
    expect(seen).toEqual(['PATCH /v1/customers/c2'])
    expect(a.alreadyDone).toBeUndefined()
  })

  it('a write settled by a lookup is looked up first: found, it is not sent again', async () => {
    const customer = {id: 'c3', external_id: 'u3', email: 'u3@example.com'}
    answers.set('GET /v1/customers/external/u3', {status: 200, body: customer})
    const {result, attempt: a} = await attempt(true, () => client.post('/customers/', {email: 'u3@example.com', external_id: 'u3'}))
    expect(seen).toEqual(['GET /v1/customers/external/u3'])
    expect(result).toEqual(customer)
    expect(a.alreadyDone).toBe('done by an earlier run (found by a lookup)')
  })

  it('a write that can only be unknown is not sent: its outcome stays unknown', async () => {
    const sent = attempt(true, () => client.post('/products/', {name: 'P'}))
    await expect(sent).rejects.toBeInstanceOf(OutcomeUnknownError)
    await expect(sent).rejects.toThrow('(an earlier run of this job stopped before its answer was recorded)')
    expect(seen).toEqual([])
  })

  it('reads are not affected', async () => {
    const {attempt: a} = await attempt(true, () => client.get('/products/p1'))
    expect(seen).toEqual(['GET /v1/products/p1'])
    expect(a.alreadyDone).toBeUndefined()
  })
})
