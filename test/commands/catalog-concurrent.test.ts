// `till catalog apply` run twice at once (two CI jobs, a double click): each object is created once, the
// second apply waiting for the first and then finding nothing to do; and objects that record the same key
// (twins, as two applies at once used to make) are reported by plan, pull and apply, not silently renamed.
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli, sandbox, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

describe('catalog apply twice at once', () => {
  let emulator: Emulator
  let box: Sandbox
  let file: string
  const env = () => box.env({TILL_RATE_LIMIT: '100000/min'})

  beforeAll(async () => {
    // every answer a little late, so that the first apply surely still holds the lock when the second,
    // started at the same moment, looks for it (a busy machine may start one process a second later)
    emulator = await startEmulator({latency: '80ms'})
    box = sandbox()
    file = join(box.root, 'catalog.yaml')
    for (const [name, handle] of [
      ['sb', emulator.sandbox],
      ['prod', emulator.production],
    ] as const) {
      const r = await runInProcess(['auth', 'login', '--environment', handle.name, '--url', handle.url, '--name', name, '--token-stdin'], {
        env: env(),
        input: `${handle.token}\n`,
      })
      expect(r.code, r.stderr).toBe(0)
    }
    const emptied = await control(emulator.production, 'POST', 'empty', {body: {}})
    expect(emptied.status, emptied.text).toBe(200)
    const pulled = await runInProcess(['catalog', 'pull', '-p', 'sb', '--out', file], {env: env()})
    expect(pulled.code, pulled.stderr).toBe(0)
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  const liveProducts = async () => (await listAll(emulator.production, '/products/')).filter((p: Json) => !p.is_archived)

  it(
    'creates each object once: the second apply waits for the first, then has nothing to do',
    async () => {
      const [a, b] = await Promise.all([
        runCli(['catalog', 'apply', file, '-p', 'prod', '--yes'], {env: env(), timeoutMs: scaled(90_000)}),
        runCli(['catalog', 'apply', file, '-p', 'prod', '--yes'], {env: env(), timeoutMs: scaled(90_000)}),
      ])
      expect(a.code, a.stderr).toBe(0)
      expect(b.code, b.stderr).toBe(0)
      const [first, second] = /Nothing to do/.test(a.stderr) ? [b, a] : [a, b]
      expect(first.stderr).toMatch(/^Applied to PRODUCTION .*: \d+ changes\.$/m)
      expect(second.stderr).toMatch(/^Waiting for another till catalog apply to the same environment \(pid \d+\) to finish…$/m)
      expect(second.stderr).toMatch(/^Nothing to do: PRODUCTION .* matches the file\.$/m)
      const keys = (await liveProducts()).map((p: Json) => p.metadata.key as string)
      expect(keys.length).toBeGreaterThan(2)
      expect(new Set(keys).size).toBe(keys.length)
    },
    scaled(120_000),
  )

  it('plan, pull and apply name the objects that record the same key', async () => {
    const [original] = await liveProducts()
    const key = original.metadata.key as string
    const twin = await api(emulator.production, 'POST', '/products/', {
      body: {name: original.name, recurring_interval: null, metadata: {key}, prices: [{amount_type: 'fixed', price_amount: 1000, price_currency: 'usd'}]},
    })
    expect(twin.status, twin.text).toBe(201)
    const warning = new RegExp(
      `^Warning: 2 products record the key "${key}" \\(${original.id}, ${twin.body.id}; two applies at once make such twins\\): the file's entry stands for ${original.id}`,
      'm',
    )
    const plan = await runInProcess(['catalog', 'plan', file, '-p', 'prod'], {env: env()})
    expect(plan.stderr).toMatch(warning)
    const pull = await runInProcess(['catalog', 'pull', '-p', 'prod'], {env: env()})
    expect(pull.code, pull.stderr).toBe(0)
    expect(pull.stderr).toMatch(warning)
    const apply = await runInProcess(['catalog', 'apply', file, '-p', 'prod', '--yes'], {env: env()})
    expect(apply.stderr).toMatch(warning)
  })
})
