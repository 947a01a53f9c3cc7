import {describe, expect, it} from 'vitest'

import type {ApiClient} from '../client/client.js'
import {environmentClock, isEmulated} from './environment-clock.js'

const local = {environment: 'local', baseUrl: 'http://127.0.0.1:4010/v1'}

describe("the environment's clock", () => {
  it('an emulator profile is the local one, or any on a loopback address; never the service', () => {
    expect(isEmulated(local)).toBe(true)
    expect(isEmulated({environment: 'sandbox', baseUrl: 'http://127.0.0.1:4011/v1'})).toBe(true)
    expect(isEmulated({environment: 'production', baseUrl: 'http://[::1]:4010/v1'})).toBe(true)
    expect(isEmulated({environment: 'sandbox', baseUrl: 'https://sandbox-api.polar.sh/v1'})).toBe(false)
    expect(isEmulated({environment: 'production', baseUrl: 'not a url'})).toBe(false)
  })

  it('is read once, and tables of a command that sends nothing never reach an emulator for it', async () => {
    let asked = 0
    const client = {
      baseUrl: local.baseUrl,
      get: async () => {
        asked++
        return {now: new Date(Date.now() + 86_400_000).toISOString()}
      },
    } as unknown as ApiClient
    const host: {profile: typeof local; client(): Promise<ApiClient>; clientPromise?: Promise<ApiClient>} = {
      profile: local,
      client: () => (host.clientPromise ??= Promise.resolve(client)),
    }
    const clock = environmentClock(host)
    const before = await clock.reader()
    expect(Math.abs(before() - Date.now())).toBeLessThan(1000)
    expect(asked).toBe(0)
    expect((await clock.now()) - Date.now()).toBeGreaterThan(86_000_000)
    const after = await clock.reader()
    expect(after() - Date.now()).toBeGreaterThan(86_000_000)
    expect(asked).toBe(1)
  })
})
