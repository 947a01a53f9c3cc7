// Renewals and events across resources, as processes against one emulator: renewals that apply a
// subscription's discount as the service does (once, forever, repeating), the webhook events the new
// resources send (discount.created|updated|deleted; the service has no file, dispute, payment or custom
// field events),
// and a file that changes while it is being uploaded (one line, exit 1, nothing left half-uploaded).
import {readFileSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, linesOf, sandbox, spawnCli, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {scaled, waitUntil} from '../helpers/machine.js'

describe('discounts at renewals, events of the new resources, a file changed during its upload', () => {
  let emulator: Emulator
  let box: Sandbox

  const env = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(emulator.production), TILL_ENV: 'local', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}) => runInProcess(args, {env: env(extra), timeoutMs: scaled(60_000)})
  const get = async (path: string) => (await api(emulator.production, 'GET', path)).body as Json
  const json = (r: CliResult) => JSON.parse(r.stdout) as Json
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)

  beforeAll(async () => {
    emulator = await startEmulator({orders: 20, paymentDelay: '0s'})
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  describe('renewals apply the subscription discount while it lasts', () => {
    const monthly = async (): Promise<Json> => {
      const res = await api(emulator.production, 'POST', '/products/', {
        body: {name: `Monthly ${Math.random().toString(36).slice(2, 8)}`, recurring_interval: 'month', prices: [{amount_type: 'fixed', price_amount: 2000}]},
      })
      expect(res.status, res.text).toBe(201)
      return res.body
    }

    /** A subscription bought through a checkout with `discount` (created with till), confirmed by a customer. */
    const subscribe = async (discountArgs: string[]): Promise<{subscription: Json; order: Json; discount: Json}> => {
      const product = await monthly()
      const made = await till(['discounts', 'create', '--name', `Renewal ${discountArgs.join(' ')}`, ...discountArgs, '--json'])
      ok(made)
      const discount = json(made)
      const created = await till(['checkouts', 'create', '--product', product.id, '--discount', discount.id, '--json'])
      ok(created)
      const k = json(created)
      const email = `renew-${Math.random().toString(36).slice(2, 8)}@example.com`
      const confirm = await api(emulator.production, 'POST', `/checkouts/client/${k.client_secret}/confirm`, {
        token: null,
        body: {customer_email: email, customer_name: 'Renewing', customer_billing_address: {country: 'US'}},
      })
      expect(confirm.status, confirm.text).toBe(200)
      const subscription = (await get(`/subscriptions/?customer_id=${confirm.body.customer_id}`)).items[0]
      const order = (await get(`/orders/?customer_id=${confirm.body.customer_id}`)).items[0]
      expect(subscription).toMatchObject({discount_id: discount.id, discount: {id: discount.id}})
      expect(order).toMatchObject({billing_reason: 'subscription_create', discount_id: discount.id})
      return {subscription, order, discount}
    }

    const renew = async (id: string): Promise<{subscription: Json; order: Json}> => {
      const r = await till(['emulator', 'renew', id, '--json'])
      ok(r)
      return json(r)
    }

    it('once: the first period only; the first renewal is billed in full and the discount leaves the subscription', async () => {
      const {subscription, order, discount} = await subscribe(['--percent', '50', '--duration', 'once'])
      expect(order).toMatchObject({subtotal_amount: 2000, discount_amount: 1000, net_amount: 1000})
      const first = await renew(subscription.id)
      expect(first.order).toMatchObject({billing_reason: 'subscription_cycle', subtotal_amount: 2000, discount_amount: 0, net_amount: 2000, discount_id: null})
      expect(first.subscription).toMatchObject({discount_id: null, discount: null})
      expect((await get(`/discounts/${discount.id}`)).redemptions_count).toBe(1)
    })

    it('forever: every renewal, a fixed amount in the currency', async () => {
      const {subscription, order, discount} = await subscribe(['--amount', '5.00', '--currency', 'usd', '--duration', 'forever'])
      expect(order).toMatchObject({discount_amount: 500, net_amount: 1500})
      for (let i = 0; i < 2; i++) {
        const next = await renew(subscription.id)
        expect(next.order).toMatchObject({discount_amount: 500, net_amount: 1500, discount_id: discount.id})
        expect(next.subscription).toMatchObject({discount_id: discount.id})
      }
    })

    it('repeating: the renewals within its months keep it (its end is covered by the unit test of the rule)', async () => {
      const {subscription, discount} = await subscribe(['--percent', '25', '--duration', 'repeating', '--months', '3'])
      const next = await renew(subscription.id)
      expect(next.order).toMatchObject({discount_amount: 500, net_amount: 1500, discount_id: discount.id})
      expect(next.subscription.discount).toMatchObject({id: discount.id, duration: 'repeating', duration_in_months: 3})
    })

    it('a discount set on a running subscription counts a redemption and applies from its next renewal (once: that one only)', async () => {
      const {subscription} = await subscribe(['--amount', '1.00', '--currency', 'usd', '--duration', 'forever'])
      const once = json(await till(['discounts', 'create', '--name', 'Loyalty', '--percent', '10', '--duration', 'once', '--json']))
      const set = await api(emulator.production, 'PATCH', `/subscriptions/${subscription.id}`, {body: {discount_id: once.id}})
      expect(set.status, set.text).toBe(200)
      expect(set.body).toMatchObject({discount_id: once.id})
      expect((await get(`/discounts/${once.id}`)).redemptions_count).toBe(1)
      const first = await renew(subscription.id)
      expect(first.order).toMatchObject({discount_amount: 200, discount_id: once.id})
      const second = await renew(subscription.id)
      expect(second.order).toMatchObject({discount_amount: 0, discount_id: null})
      expect(second.subscription.discount).toBeNull()

      const restricted = json(await till(['discounts', 'create', '--name', 'Elsewhere', '--percent', '10', '--product', (await monthly()).id, '--json']))
      const refused = await api(emulator.production, 'PATCH', `/subscriptions/${subscription.id}`, {body: {discount_id: restricted.id}})
      expect(refused.status).toBe(422)
      expect(refused.body.detail[0]).toMatchObject({loc: ['body', 'discount_id']})
    })
  })

  it('discounts send discount.created|updated|deleted; custom fields, files, payments and disputes send none (as the service)', async () => {
    const listener = spawnCli(['listen', '--json'], {env: env(), timeoutMs: scaled(120_000)})
    const listening = async () => (await control(emulator.production, 'GET', 'listeners')).body
    await waitUntil(async () => (await listening()).listeners >= 1, 10_000)
    expect((await listening()).listeners).toBeGreaterThanOrEqual(1)

    const d = json(await till(['discounts', 'create', '--name', 'Quiet', '--percent', '5', '--code', 'QUIET5', '--json']))
    ok(await till(['discounts', 'update', d.id, '--name', 'Quieter']))
    ok(await till(['discounts', 'delete', d.id, '--yes']))
    ok(await till(['custom-fields', 'create', '--type', 'checkbox', '--slug', 'quiet-terms', '--name', 'Terms']))
    const path = join(box.root, 'quiet.txt')
    writeFileSync(path, 'a quiet file\n')
    ok(await till(['files', 'upload', path]))
    const paid = (await get('/orders/?limit=100')).items.find((o: Json) => o.paid && o.total_amount > 0 && o.refunded_amount === 0)
    const dispute = json(await till(['emulator', 'dispute', paid.id, '--json']))
    ok(await till(['disputes', 'accept', dispute.id, '--yes']))
    ok(await till(['payments', 'list', '--limit', '1']))
    ok(await till(['org', 'update', '--website', 'https://quiet.example']))

    await waitUntil(() => listener.stdout().includes('organization.updated'), 10_000)
    listener.child.kill('SIGINT')
    const done = await listener.done
    const events = linesOf(done.stdout).map((l) => JSON.parse(l) as {type: string; data: Json})
    expect(events.map((e) => e.type)).toEqual(['discount.created', 'discount.updated', 'discount.deleted', 'organization.updated'])
    expect(events[0]!.data).toMatchObject({id: d.id, name: 'Quiet', code: 'QUIET5', basis_points: 500})
    expect(events[1]!.data).toMatchObject({id: d.id, name: 'Quieter'})
    expect(events[2]!.data).toMatchObject({id: d.id})
    expect(events[3]!.data).toMatchObject({website: 'https://quiet.example'})
  })

  describe('till files upload of a file that changes while it is being uploaded', () => {
    let proxy: Server
    let proxyUrl = ''
    let onDeclared: () => void = () => {}
    const seen: Array<{method: string; path: string; status: number}> = []
    let declaredId = ''

    const read = (req: IncomingMessage) =>
      new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => resolve(Buffer.concat(chunks)))
        req.on('error', reject)
      })

    // A pass-through to the emulator's API that changes the local file right after the service has
    // accepted its declaration (checksums taken), before any part is read and sent.
    beforeAll(async () => {
      const upstream = emulator.production.url.replace(/\/v1$/, '')
      proxy = createServer((req, res) => {
        void (async () => {
          const body = await read(req)
          const headers: Record<string, string> = {}
          for (const name of ['authorization', 'content-type', 'polar-version', 'user-agent', 'accept']) {
            const value = req.headers[name]
            if (typeof value === 'string') headers[name] = value
          }
          const answer = await fetch(`${upstream}${req.url}`, {
            method: req.method,
            headers,
            body: body.length > 0 ? new Uint8Array(body) : undefined,
            redirect: 'manual',
          })
          const data = Buffer.from(await answer.arrayBuffer())
          seen.push({method: req.method ?? '', path: req.url ?? '', status: answer.status})
          if (req.method === 'POST' && req.url === '/v1/files/' && answer.status === 201) {
            declaredId = (JSON.parse(data.toString('utf8')) as {id: string}).id
            onDeclared()
          }
          const out: Record<string, string> = {}
          answer.headers.forEach((value, name) => {
            if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value
          })
          res.writeHead(answer.status, out)
          res.end(data)
        })().catch((error: Error) => {
          res.writeHead(502)
          res.end(error.message)
        })
      })
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`
    })
    afterAll(async () => {
      await new Promise<void>((resolve) => proxy.close(() => resolve()))
    })

    it('fails with one line naming the part and the fix (exit 1), deletes the declared file, and sends nothing twice', async () => {
      const path = join(box.root, 'changing.bin')
      const original = Buffer.alloc(3000, 7)
      writeFileSync(path, original)
      // same size, other bytes in the second part: the declared checksums no longer match
      onDeclared = () => writeFileSync(path, Buffer.concat([original.subarray(0, 1500), Buffer.alloc(1500, 9)]))
      seen.length = 0
      const r = await till(['files', 'upload', path, '--part-size', '1024', '--name', 'changing.bin'], {TILL_API_URL: proxyUrl})
      expect(r.code, r.stderr).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`part 2 of ${path} does not match the checksum taken before the upload: the file changed while it was being uploaded`)
      expect(r.stderr).toContain(`upload it again once it no longer changes: till files upload ${path}`)
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(readFileSync(path)).not.toEqual(original)

      // declared once, deleted once, never completed
      const declared = seen.filter((s) => s.method === 'POST' && s.path === '/v1/files/')
      expect(declared).toHaveLength(1)
      expect(seen.filter((s) => s.method === 'DELETE' && s.path === `/v1/files/${declaredId}`)).toEqual([
        {method: 'DELETE', path: `/v1/files/${declaredId}`, status: 204},
      ])
      expect(seen.some((s) => s.path.endsWith('/uploaded'))).toBe(false)
      const gone = await api(emulator.production, 'PATCH', `/files/${declaredId}`, {body: {name: 'still here?'}})
      expect(gone.status).toBe(404)
      expect((await get('/files/?limit=100')).items.some((f: Json) => f.name === 'changing.bin')).toBe(false)

      // the same file, no longer changing, uploads
      onDeclared = () => {}
      const again = await till(['files', 'upload', path, '--part-size', '1024', '--name', 'changing.bin', '--json'], {TILL_API_URL: proxyUrl})
      ok(again)
      expect(json(again)).toMatchObject({name: 'changing.bin', size: 3000, is_uploaded: true})
    })
  })
})
