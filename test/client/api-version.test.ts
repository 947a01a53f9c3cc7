// The client library's Polar-Version: sent on every request, the service's current version (2026-10)
// unless told another, none when told null; a version the service does not serve is its own error, told
// apart from a missing object, against the emulator serving fewer versions.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ApiClient, type ClientOptions} from '../../src/client/client.js'
import {ApiError} from '../../src/client/errors.js'
import {VersionNotServedError} from '../../src/client/answers.js'
import {Pacer} from '../../src/client/pace.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'

describe("the client's API version", () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await startEmulator({orders: 0, apiVersions: ['2026-10', '2027-01']})
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  const client = (lines: string[], options: Partial<ClientOptions> = {}) =>
    new ApiClient({
      baseUrl: emulator.production.url,
      token: emulator.production.token,
      userAgent: 'test',
      budgets: [],
      pacer: new Pacer({sleep: async () => {}}),
      maxWaitMs: 0,
      label: 'test',
      debug: (line) => lines.push(line),
      ...options,
    })

  it('sends 2026-10 when told none, another when told it, and no header when told null', async () => {
    for (const [options, sent] of [
      [{}, 'Polar-Version 2026-10]'],
      [{apiVersion: '2027-01'}, 'Polar-Version 2027-01]'],
    ] as const) {
      const lines: string[] = []
      const page = await client(lines, options).get<{items: unknown[]}>('/products/?limit=1')
      expect(page.items).toHaveLength(1)
      expect(lines.find((l) => l.startsWith('→ GET'))).toContain(sent)
    }
    const lines: string[] = []
    await client(lines, {apiVersion: null}).get('/products/?limit=1')
    expect(lines.find((l) => l.startsWith('→ GET'))).not.toContain('Polar-Version')
  })

  it('a version the service does not serve is VersionNotServedError (exit 2); a missing object stays an ApiError 404', async () => {
    const refused = await client([], {apiVersion: '2026-04'})
      .get(`/orders/${crypto.randomUUID()}`)
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(VersionNotServedError)
    expect(refused).toMatchObject({
      exitCode: 2,
      message: 'the service does not serve API version 2026-04 (it answers 404 to every request); give the client another apiVersion',
    })
    const missing = await client([])
      .get(`/orders/${crypto.randomUUID()}`)
      .catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(ApiError)
    expect(missing).toMatchObject({status: 404})
  })
})
