// Durable state: two emulator processes writing one data folder concurrently lose
// nothing, and a store killed (SIGKILL) mid-write loads again with every acknowledged write.
import {existsSync, readdirSync} from 'node:fs'

import {afterAll, describe, expect, it} from 'vitest'

import {api, listAll, sleep, type EnvHandle, type Json} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {cleanup, launch, tempDataDir} from './spawn.js'
import {scaled} from '../helpers/machine.js'

const product = (name: string, marker: string) => ({name, prices: [{amount_type: 'fixed', price_amount: 1000}], metadata: {durability: marker}})
const marked = async (env: EnvHandle, marker: string) => listAll(env, '/products/', `metadata[durability]=${marker}`)

afterAll(cleanup)

describe('two processes on one data folder', () => {
  it('20 concurrent POST /products/ spread across both: each process lists all 20', async () => {
    const dataDir = tempDataDir()
    const a = await launch(['--rate-limit', 'off'], {dataDir})
    const b = await launch(['--rate-limit', 'off'], {dataDir})
    expect(b.production.token).toBe(a.production.token)
    const envs = [a.production, b.production]
    const before = (await listAll(a.production, '/products/')).length

    const names = Array.from({length: 20}, (_, i) => `Concurrent Writer ${i}`)
    const posts = await Promise.all(names.map((name, i) => api(envs[i % 2]!, 'POST', '/products/', {body: product(name, 'concurrent')})))
    for (const res of posts) expect(res.status, brief(res)).toBe(201)
    const ids = posts.map((r) => r.body.id as string).sort()
    expect(new Set(ids).size).toBe(20)

    for (const env of envs) {
      const listed = await marked(env, 'concurrent')
      expect(listed.map((p: Json) => p.id).sort()).toEqual(ids)
      expect(listed.map((p: Json) => p.name).sort()).toEqual([...names].sort())
      expect((await listAll(env, '/products/')).length).toBe(before + 20)
    }
    await Promise.all([a.stop(), b.stop()])
    expect(existsSync(`${dataDir}/production.json.lock`)).toBe(false)
  })

  it('20 concurrent refunds of 1 cent on one order, across both processes: the order adds up all 20', async () => {
    const dataDir = tempDataDir()
    const a = await launch(['--rate-limit', 'off'], {dataDir})
    const b = await launch(['--rate-limit', 'off'], {dataDir})
    const orders = await listAll(a.production, '/orders/')
    const order = orders.find((o: Json) => o.status === 'paid' && o.refunded_amount === 0 && o.refundable_amount >= 100)
    expect(order, 'a paid seeded order with room for 20 refunds').toBeDefined()

    const envs = [a.production, b.production]
    const refunds = await Promise.all(
      Array.from({length: 20}, (_, i) => api(envs[i % 2]!, 'POST', '/refunds/', {body: {order_id: order.id, reason: 'other', amount: 1}})),
    )
    for (const res of refunds) expect(res.status, brief(res)).toBe(201)
    for (const env of envs) {
      const now = await api(env, 'GET', `/orders/${order.id}`)
      expect(now.body).toMatchObject({refunded_amount: 20, refundable_amount: order.refundable_amount - 20, status: 'partially_refunded'})
      const listed = await listAll(env, '/refunds/', `order_id=${order.id}`)
      expect(listed.map((r: Json) => r.id).sort()).toEqual(refunds.map((r) => r.body.id).sort())
    }
  })
})

describe('a store killed mid-write', () => {
  it(
    'loads again after SIGKILL at random moments, with every product whose POST got a 201',
    async () => {
      const dataDir = tempDataDir()
      const acknowledged: string[] = []
      const leftovers: string[] = []
      const moments: number[] = []
      let env: EnvHandle | undefined

      for (let round = 0; round < 3; round++) {
        const seedFlags = round === 0 ? ['--orders', '20000'] : []
        const emulator = await launch(['--rate-limit', 'off', ...seedFlags], {dataDir, timeoutMs: scaled(60_000)})
        env = emulator.production
        await expectAll(env, acknowledged, `after restart ${round}`)
        // a seed this large (20,000 orders) is generated at each start, never kept beside the store
        if (round === 0) expect(readdirSync(dataDir).filter((f) => f.endsWith('.seed'))).toEqual([])

        let stop = false
        const writer = async (w: number) => {
          for (let i = 0; !stop; i++) {
            try {
              const res = await api(env!, 'POST', '/products/', {body: product(`Killed Store ${round}-${w}-${i}`, 'killed'), noRetry: true})
              if (res.status === 201) acknowledged.push(res.body.id)
            } catch {
              return // the connection died with the process
            }
          }
        }
        const writers = [writer(0), writer(1)]
        // The writes are under way (two acknowledged in this round, however loaded the machine), then a random moment.
        const before = acknowledged.length
        for (let waited = 0; acknowledged.length < before + 2 && waited < 30_000; waited += 20) await sleep(20)
        const moment = Math.floor(Math.random() * 1000)
        moments.push(moment)
        await sleep(moment)
        await emulator.kill()
        stop = true
        await Promise.all(writers)
        // What the kill left behind: a lock file and/or a temporary file means it hit a write.
        leftovers.push(
          readdirSync(dataDir)
            .filter((f) => f.endsWith('.lock') || f.endsWith('.tmp'))
            .join(','),
        )
      }

      const last = await launch(['--rate-limit', 'off'], {dataDir, timeoutMs: scaled(60_000)})
      env = last.production
      const where = `kills at ${moments.join(', ')} ms; left behind: ${JSON.stringify(leftovers)}`
      expect(acknowledged.length, where).toBeGreaterThan(3)
      expect(leftovers.filter((l) => l !== '').length, `at least one kill should land in a write (${where})`).toBeGreaterThan(0)
      await expectAll(env, acknowledged, where)
      // It answers and writes (the dead process's lock is taken over) and the seeded store is intact.
      const orders = await api(env, 'GET', '/orders/?limit=1')
      expect(orders.status, brief(orders)).toBe(200)
      expect(orders.body.pagination.total_count).toBeGreaterThanOrEqual(20_000)
      const fresh = await api(env, 'POST', '/products/', {body: product('After The Kills', 'killed')})
      expect(fresh.status, brief(fresh)).toBe(201)
      const listed = new Set((await marked(env, 'killed')).map((p: Json) => p.id))
      for (const id of [...acknowledged, fresh.body.id]) expect(listed.has(id), `${id} listed (${where})`).toBe(true)
      await last.stop()
    },
    scaled(300_000),
  )
})

/** Every id answers GET /products/{id} with 200. */
async function expectAll(env: EnvHandle, ids: string[], where: string): Promise<void> {
  for (const id of ids) {
    const res = await api(env, 'GET', `/products/${id}`)
    expect(res.status, `${id} ${where}: ${brief(res)}`).toBe(200)
  }
}
