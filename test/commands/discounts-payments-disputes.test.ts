// The operator's other resources as processes against one emulator: discounts (and their use in
// checkouts and orders), checkout updates, payments and disputes. Table and JSON output, usage errors
// (exit 2, nothing sent), confirmations without a terminal (--yes needed), not found (exit 3).
import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {envVars, linesOf, runAnswering, runTty, sandbox, sh, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, ROOT, startEmulator, unknownId, type Emulator, type Json} from '../helpers/emulator.js'
import {allowRefusals} from '../helpers/contract.js'
import {eventually, waitUntil} from '../helpers/machine.js'

describe('operator commands against the emulator', () => {
  let emulator: Emulator
  let box: Sandbox

  const env = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(emulator.production), TILL_ENV: 'local', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) => runInProcess(args, {env: env(extra), input})
  const get = async (path: string) => (await api(emulator.production, 'GET', path)).body as Json
  const json = (r: CliResult) => JSON.parse(r.stdout) as Json
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const usage = (r: CliResult, text: string | RegExp) => {
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(text)
    expect(r.stdout).toBe('')
  }
  const someProduct = async (): Promise<Json> => {
    const res = await api(emulator.production, 'POST', '/products/', {
      body: {name: `Temp ${Math.random().toString(36).slice(2, 8)}`, prices: [{amount_type: 'fixed', price_amount: 2000}]},
    })
    expect(res.status, res.text).toBe(201)
    return res.body
  }

  beforeAll(async () => {
    emulator = await startEmulator({orders: 40, paymentDelay: '0s'})
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('every new command has a summary, a description and examples in its help', async () => {
    const commands = [
      'discounts list',
      'discounts get',
      'discounts create',
      'discounts update',
      'discounts delete',
      'checkouts update',
      'payments list',
      'payments get',
      'disputes list',
      'disputes get',
      'disputes accept',
      'webhooks deliveries list',
      'webhooks redeliver',
      'webhooks endpoints reset-secret',
      'webhooks endpoints get',
      'org update',
      'license-keys update',
      'license-keys activation',
      'checkout-links update',
      'benefit-grants list',
      'orders receipt',
      'orders export',
      'subscriptions export',
      'customers export',
      'customers payment-methods',
      'custom-fields list',
      'custom-fields get',
      'custom-fields create',
      'custom-fields update',
      'custom-fields delete',
      'custom-fields attach',
      'files upload',
      'files list',
      'files update',
      'files delete',
      'emulator dispute',
    ]
    // every command, from the manifest the help is rendered from (spawning dozens of processes overloads a small machine)
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, {summary?: string; description?: string; examples?: unknown[]}>
    }
    for (const c of commands) {
      const entry = manifest.commands[c.replaceAll(' ', ':')]
      expect(entry, c).toBeDefined()
      expect(entry!.summary, c).toBeTruthy()
      expect(entry!.description, c).toBeTruthy()
      expect(entry!.examples?.length, c).toBeGreaterThan(0)
    }
    // and the rendered help of a few, as a person sees it
    const shown = ['discounts create', 'disputes accept', 'files upload']
    const results = await Promise.all(shown.map((c) => till([...c.split(' '), '--help'])))
    results.forEach((r, i) => {
      ok(r)
      expect(r.stdout, shown[i]).toContain('DESCRIPTION')
      expect(r.stdout, shown[i]).toContain('EXAMPLES')
      expect(r.stdout, shown[i]).toContain(`$ till ${shown[i]}`)
    })
  })

  describe('discounts', () => {
    it('creates a percentage discount with a code, lists, shows, updates and deletes it', async () => {
      const created = await till(['discounts', 'create', '--name', 'Launch', '--percent', '25', '--code', 'LAUNCH25', '--json'])
      ok(created)
      const d = json(created)
      expect(d).toMatchObject({name: 'Launch', code: 'LAUNCH25', type: 'percentage', basis_points: 2500, duration: 'once', redemptions_count: 0})
      expect(await get(`/discounts/${d.id}`)).toMatchObject({id: d.id, basis_points: 2500})

      const table = await till(['discounts', 'list', '--query', 'launch25'])
      ok(table)
      const row = linesOf(table.stdout).find((l) => l.includes(d.id))
      expect(row).toContain('\t2500\t') // piped: basis points, raw
      expect(row).toContain('LAUNCH25')

      const updated = await till(['discounts', 'update', d.id, '--percent', '30', '--code', 'LAUNCH30', '--max-redemptions', '5', '--json'])
      ok(updated)
      expect(json(updated)).toMatchObject({basis_points: 3000, code: 'LAUNCH30', max_redemptions: 5})

      const shown = await till(['discounts', 'get', d.id, '-o', 'json'])
      ok(shown)
      expect(json(shown)).toMatchObject({id: d.id, code: 'LAUNCH30'})

      const refused = await till(['discounts', 'delete', d.id])
      usage(refused, /--yes/)
      expect((await api(emulator.production, 'GET', `/discounts/${d.id}`)).status).toBe(200)

      const deleted = await till(['discounts', 'delete', d.id, '--yes'])
      ok(deleted)
      expect(deleted.stderr).toContain(`Deleted discount ${d.id}`)
      expect((await api(emulator.production, 'GET', `/discounts/${d.id}`)).status).toBe(404)
      const gone = await till(['discounts', 'get', d.id])
      expect(gone.code).toBe(3)
    })

    it('creates a fixed repeating discount restricted to a product, in minor units of its currency', async () => {
      const product = await someProduct()
      const r = await till([
        'discounts',
        'create',
        '--name',
        'Spring',
        '--amount',
        '5.00',
        '--currency',
        'usd',
        '--duration',
        'repeating',
        '--months',
        '3',
        '--product',
        product.id,
        '--json',
      ])
      ok(r)
      const d = json(r)
      expect(d).toMatchObject({type: 'fixed', amounts: {usd: 500}, duration: 'repeating', duration_in_months: 3})
      expect(d.products.map((p: Json) => p.id)).toEqual([product.id])
      // till shows current fields only: the deprecated amount/currency pair is left out
      expect(d).not.toHaveProperty('currency')
    })

    it('refuses bad input before anything is sent (exit 2)', async () => {
      const before = (await get('/discounts/?limit=100')).pagination.total_count
      const cases: Array<[string[], RegExp]> = [
        [['discounts', 'create', '--name', 'X'], /--percent 25 or --amount/],
        [['discounts', 'create', '--name', 'X', '--percent', '25', '--amount', '5'], /--percent or --amount, not both/],
        [['discounts', 'create', '--name', 'X', '--percent', '101'], /--percent must be a percentage/],
        [['discounts', 'create', '--name', 'X', '--percent', '10', '--duration', 'repeating'], /needs --months/],
        [['discounts', 'create', '--name', 'X', '--percent', '10', '--code', 'no spaces'], /--code must be 3-256 letters and digits/],
        [['discounts', 'create', '--name', 'X', '--amount', '5.001'], /more decimals/],
        [['discounts', 'create', '--name', 'X', '--percent', '5', '--ends-at', 'tomorrow'], /--ends-at must be a date/],
        [['discounts', 'update', unknownId()], /nothing to update/],
      ]
      const results = await Promise.all(cases.map(([args]) => till(args)))
      results.forEach((r, i) => usage(r, cases[i]![1]))
      expect((await get('/discounts/?limit=100')).pagination.total_count).toBe(before)
    })

    it('reports the service refusing a taken code (422) as the field and its message, exit 2', async () => {
      ok(await till(['discounts', 'create', '--name', 'First', '--percent', '10', '--code', 'TAKEN1']))
      const r = await till(['discounts', 'create', '--name', 'Second', '--percent', '10', '--code', 'taken1'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('body.code: Discount with this code already exists.')
      expect(r.stderr).not.toMatch(/\n\s+at /)
    })

    it('applies in a checkout (discount_amount, net) and counts a redemption once the checkout is paid', async () => {
      const product = await someProduct()
      const d = json(await till(['discounts', 'create', '--name', 'Ten', '--percent', '10', '--product', product.id, '--json']))
      const created = await till(['checkouts', 'create', '--product', product.id, '--discount', d.id, '--json'])
      ok(created)
      const k = json(created)
      expect(k).toMatchObject({discount_id: d.id, amount: 2000, discount_amount: 200, net_amount: 1800})

      // removed and applied again through `checkouts update`
      const removed = await till(['checkouts', 'update', k.id, '--no-discount', '--json'])
      ok(removed)
      expect(json(removed)).toMatchObject({discount_id: null, discount_amount: 0})
      const applied = await till(['checkouts', 'update', k.id, '--discount', d.id, '--json'])
      ok(applied)
      expect(json(applied)).toMatchObject({discount_id: d.id, discount_amount: 200})

      const confirm = await api(emulator.production, 'POST', `/checkouts/client/${k.client_secret}/confirm`, {
        token: null,
        body: {customer_email: 'disc@example.com', customer_name: 'Disc', customer_billing_address: {country: 'FR'}},
      })
      expect(confirm.status, confirm.text).toBe(200)
      const orders = await get(`/orders/?checkout_id=${k.id}`)
      const order = orders.items[0] ?? (await get(`/orders/?customer_id=${confirm.body.customer_id}`)).items[0]
      expect(order).toMatchObject({discount_id: d.id, subtotal_amount: 2000, discount_amount: 200, net_amount: 1800})
      expect((await get(`/discounts/${d.id}`)).redemptions_count).toBe(1)
    })

    it('a discount restricted to another product is refused by the checkout, nothing changed', async () => {
      const [a, b] = [await someProduct(), await someProduct()]
      const d = json(await till(['discounts', 'create', '--name', 'OnlyA', '--percent', '10', '--product', a.id, '--json']))
      const r = await till(['checkouts', 'create', '--product', b.id, '--discount', d.id])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('body.discount_id: Discount does not exist.')
      expect(r.stdout).toBe('')
    })
  })

  describe('payments and disputes', () => {
    /** A paid order through the API, and the dispute `till emulator dispute` opens on it. */
    const disputed = async (): Promise<Json> => {
      const order = (await get('/orders/?limit=100&sorting=-created_at')).items.find((o: Json) => o.paid && o.total_amount > 0 && o.refunded_amount === 0)
      const r = await till(['emulator', 'dispute', order.id, '--reason', 'duplicate', '--json'])
      ok(r)
      const d = json(r)
      expect(d).toMatchObject({status: 'needs_response', order_id: order.id, amount: order.net_amount, tax_amount: order.tax_amount, reason: 'duplicate'})
      return d
    }

    it('emulator dispute refuses an order without a payment (exit 1) and an unknown one (exit 3)', async () => {
      const unpaid = (await get('/orders/?limit=100')).items.find((o: Json) => !o.paid)
      expect(unpaid, 'the seed has orders of every status').toBeDefined()
      const r = await till(['emulator', 'dispute', unpaid.id])
      expect(r.code, r.stderr).toBe(1)
      expect(r.stderr).toContain('has no payment to dispute')
      expect(r.stdout).toBe('')
      const missing = await till(['emulator', 'dispute', unknownId()])
      expect(missing.code).toBe(3)
      expect(missing.stdout).toBe('')
    })

    it('lists payments of paid orders and shows one, by order filter', async () => {
      const order = (await get('/orders/?limit=5')).items.find((o: Json) => o.paid && o.total_amount > 0)
      const r = await till(['payments', 'list', '--order', order.id, '-o', 'jsonl'])
      ok(r)
      const lines = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({order_id: order.id, amount: order.total_amount, currency: order.currency, status: 'succeeded', method: 'card'})
      const shown = await till(['payments', 'get', lines[0].id, '-o', 'table', '--columns', 'id,method'])
      ok(shown)
      expect(shown.stdout).toContain(lines[0].id)
      expect(shown.stdout).toContain('card visa ****4242')
      const missing = await till(['payments', 'get', unknownId()])
      expect(missing.code).toBe(3)
      expect(missing.stdout).toBe('')
    })

    it('the seed has a dispute awaiting a response; list and get show it', async () => {
      const r = await till(['disputes', 'list', '--status', 'needs_response', '-o', 'json'])
      ok(r)
      const list = json(r)
      expect(list.length).toBeGreaterThanOrEqual(1)
      const d = list.find((x: Json) => x.reason === 'product_not_received')
      expect(d).toMatchObject({status: 'needs_response', resolved: false, closed: false})
      const payment = await get(`/payments/${d.payment_id}`)
      expect(payment.order_id).toBe(d.order_id)
      const shown = await till(['disputes', 'get', d.id])
      ok(shown)
      expect(shown.stdout).toContain(d.id)
      expect(shown.stdout).toContain('product_not_received')
    })

    it('accepting needs --yes without a terminal (nothing sent), then settles the dispute as lost; a second accept is refused', async () => {
      const d = await disputed()
      usage(await till(['disputes', 'accept', d.id]), /--yes/)
      expect((await get(`/disputes/${d.id}`)).status).toBe('needs_response')

      const r = await till(['disputes', 'accept', d.id, '--yes', '--json'])
      ok(r)
      expect(json(r)).toMatchObject({id: d.id, status: 'lost', resolved: true, closed: true})
      const again = await till(['disputes', 'accept', d.id, '--yes'])
      expect(again.code).toBe(1)
      expect(again.stderr).toContain(`Dispute ${d.id} is not awaiting a response.`)
      expect(again.stdout).toBe('')
    })

    it('on a terminal, the confirmation names the amount conceded and the environment; answering no changes nothing', async () => {
      const d = await disputed()
      const total = d.amount + d.tax_amount
      const no = await runAnswering(`${TILL} disputes accept ${sh(d.id)}; echo "[exit $?]"`, env(), [{when: /\(y\/N\)/, send: 'n\r'}])
      expect(no.unanswered).toBe(0)
      expect(no.stdout).toContain(`concede $${(total / 100).toFixed(2)} (USD) of order ${d.order_id}`)
      expect(no.stdout).toContain('(local, profile local)')
      expect(no.stdout).toMatch(/\[exit (1|130)\]/)
      expect((await get(`/disputes/${d.id}`)).status).toBe('needs_response')
    })
  })

  describe('webhook deliveries, redelivery and secrets', () => {
    let server: Server
    let url = ''
    const received: string[] = []

    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'))
          res.end('ok')
        })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
    })
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    })

    const until = (check: () => boolean) => eventually('the webhook to arrive', check)

    it('lists deliveries with filters, sends an event again, and replaces a secret shown once', async () => {
      const endpoint = (await api(emulator.production, 'POST', '/webhooks/endpoints', {body: {url, format: 'raw', events: ['customer.created']}})).body
      const email = `hook-${Date.now()}@example.com`
      await api(emulator.production, 'POST', '/customers/', {body: {email}})
      await until(() => received.some((b) => b.includes(email)))

      // the delivery is recorded once the receiver has answered
      await waitUntil(async () => (await get(`/webhooks/deliveries?endpoint_id=${endpoint.id}`)).items.length > 0, 5000)
      const listed = await till([
        'webhooks',
        'deliveries',
        'list',
        '--endpoint',
        endpoint.id,
        '--succeeded',
        '--event-type',
        'customer.created',
        '--http-code-class',
        '2xx',
        '--since',
        '2020-01-01',
        '-o',
        'json',
      ])
      ok(listed)
      const deliveries = json(listed)
      expect(deliveries).toHaveLength(1)
      expect(deliveries[0]).toMatchObject({webhook_endpoint_id: endpoint.id, succeeded: true, http_code: 200, webhook_event: {type: 'customer.created'}})
      const none = await till(['webhooks', 'deliveries', 'list', '--endpoint', endpoint.id, '--no-succeeded', '-o', 'json'])
      ok(none)
      expect(json(none)).toEqual([])
      // dates, times and times ago are read here; anything else is refused before a request
      usage(await till(['webhooks', 'deliveries', 'list', '--since', 'next week']), /--since must be a date/)

      const eventId = deliveries[0].webhook_event.id
      const again = await till(['webhooks', 'redeliver', eventId])
      ok(again)
      expect(again.stderr).toContain(`Queued a new delivery of event ${eventId}`)
      await until(() => received.filter((b) => b.includes(email)).length === 2)
      const missing = await till(['webhooks', 'redeliver', unknownId()])
      expect(missing.code).toBe(3)

      const shown = await till(['webhooks', 'endpoints', 'get', endpoint.id, '--json'])
      ok(shown)
      expect(json(shown)).toMatchObject({id: endpoint.id, url: endpoint.url, events: endpoint.events})
      expect(shown.stdout).not.toContain(endpoint.secret)
      expect((await till(['webhooks', 'endpoints', 'get', unknownId()])).code).toBe(3)

      usage(await till(['webhooks', 'endpoints', 'reset-secret', endpoint.id]), /--yes/)
      expect((await api(emulator.production, 'GET', `/webhooks/endpoints/${endpoint.id}`)).body.secret).toBe(endpoint.secret)
      const reset = await till(['webhooks', 'endpoints', 'reset-secret', endpoint.id, '--yes'])
      ok(reset)
      const secret = reset.stdout.trim()
      expect(secret).toMatch(/^whsec_/)
      expect(secret).not.toBe(endpoint.secret)
      expect((await api(emulator.production, 'GET', `/webhooks/endpoints/${endpoint.id}`)).body.secret).toBe(secret)
      expect(reset.stderr).toContain('not shown again')
      expect(reset.stderr).not.toContain(secret)
    })
  })

  describe('updates of the organization, license keys and checkout links; grants of every benefit', () => {
    it('org update changes the organization; bad input is refused locally', async () => {
      const r = await till(['org', 'update', '--website', 'https://acme-updated.example', '--json'])
      ok(r)
      expect(json(r)).toMatchObject({website: 'https://acme-updated.example'})
      expect((await get(`/organizations/${emulator.production.organizationId}`)).website).toBe('https://acme-updated.example')
      usage(await till(['org', 'update']), /nothing to update/)
      usage(await till(['org', 'update', '--website', 'acme']), /--website must be a URL/)
      usage(await till(['org', 'update', '--name', 'A']), /--name must be 3-64 characters/)
    })

    it('license-keys update changes status and limits; license-keys activation shows one activation', async () => {
      const key = (await get('/license-keys/?limit=1')).items[0]
      const r = await till(['license-keys', 'update', key.id, '--status', 'disabled', '--limit-activations', '3', '--no-expiry', '--json'])
      ok(r)
      expect(json(r)).toMatchObject({id: key.id, status: 'disabled', limit_activations: 3, expires_at: null})
      ok(await till(['license-keys', 'update', key.id, '--status', 'granted']))
      const act = await api(emulator.production, 'POST', '/license-keys/activate', {
        body: {key: key.key, organization_id: emulator.production.organizationId, label: 'laptop'},
      })
      expect(act.status, act.text).toBe(200)
      const shown = await till(['license-keys', 'activation', key.id, act.body.id, '--json'])
      ok(shown)
      expect(json(shown)).toMatchObject({id: act.body.id, label: 'laptop', license_key_id: key.id})
      expect((await till(['license-keys', 'activation', key.id, unknownId()])).code).toBe(3)
      usage(await till(['license-keys', 'update', key.id]), /nothing to update/)
    })

    it('checkout-links update changes the label and applies a discount that checkouts from the link get', async () => {
      const product = await someProduct()
      const link = (await api(emulator.production, 'POST', '/checkout-links/', {body: {payment_processor: 'stripe', products: [product.id], label: 'Old'}}))
        .body
      const d = json(await till(['discounts', 'create', '--name', 'Link20', '--percent', '20', '--json']))
      const r = await till(['checkout-links', 'update', link.id, '--label', 'Spring', '--discount', d.id, '--no-discount-codes', '--json'])
      ok(r)
      expect(json(r)).toMatchObject({id: link.id, label: 'Spring', discount_id: d.id, allow_discount_codes: false})
      const open = await fetch(link.url, {redirect: 'manual'})
      expect(open.status).toBe(307)
      const secret = /\/checkout\/([^/?]+)/.exec(open.headers.get('location')!)![1]
      const k = (await api(emulator.production, 'GET', `/checkouts/client/${secret}`, {token: null})).body
      expect(k).toMatchObject({discount_id: d.id, discount_amount: 400})
      const cleared = await till(['checkout-links', 'update', link.id, '--no-discount', '--label', '', '--json'])
      ok(cleared)
      expect(json(cleared)).toMatchObject({discount_id: null, label: null})
    })

    it('benefit-grants list shows grants across benefits, filtered by customer', async () => {
      const all = await till(['benefit-grants', 'list', '--limit', '100', '-o', 'json'])
      ok(all)
      const grants = json(all)
      expect(grants.length).toBeGreaterThan(0)
      expect(new Set(grants.map((g: Json) => g.benefit_id)).size).toBeGreaterThan(1)
      const customer = grants[0].customer_id
      const mine = await till(['benefit-grants', 'list', '--customer', customer, '--all', '-o', 'jsonl'])
      ok(mine)
      const rows = linesOf(mine.stdout).map((l) => JSON.parse(l))
      expect(rows.length).toBeGreaterThan(0)
      expect(rows.every((g: Json) => g.customer_id === customer)).toBe(true)
    })
  })

  describe('receipts, exports and payment methods', () => {
    it('orders receipt prints a temporary URL or downloads the PDF (titled a receipt) atomically; an unpaid order has none yet (exit 1)', async () => {
      const orders = (await get('/orders/?limit=40')).items
      const paid = orders.find((o: Json) => o.status === 'paid')
      const url = await till(['orders', 'receipt', paid.id])
      ok(url)
      expect(url.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/receipts\/.+\.pdf\?expires=\d+&signature=\w+\n$/)
      const file = `${box.root}/receipt.pdf`
      const saved = await till(['orders', 'receipt', paid.id, '--download', file])
      ok(saved)
      expect(saved.stdout).toBe('')
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
      expect(readdirSync(box.root).filter((f) => f.endsWith('.part'))).toEqual([])
      // titled as a receipt, not as the order's invoice
      const pdf = readFileSync(file, 'latin1')
      expect(pdf).toContain('(Receipt ')
      expect(pdf).not.toContain('(Invoice ')

      const draft = orders.find((o: Json) => o.status === 'draft' || o.status === 'pending')
      const none = await till(['orders', 'receipt', draft.id, '--download', `${box.root}/none.pdf`])
      expect(none.code).toBe(1)
      expect(none.stderr).toContain(`the receipt of order ${draft.id} is not ready yet`)
      expect(existsSync(`${box.root}/none.pdf`)).toBe(false)
    })

    it('orders, subscriptions and customers export: CSV on stdout, or saved whole to a file', async () => {
      allowRefusals()
      const orders = await till(['orders', 'export'])
      ok(orders)
      const lines = orders.stdout.split('\r\n').filter((l) => l !== '')
      expect(lines[0]).toBe('Email,Created At,Product,Net Amount,Currency,Status,Invoice number')
      expect(lines.length - 1).toBe((await get('/orders/?limit=1')).pagination.total_count)

      const product = (await get('/orders/?limit=1')).items[0].product_id
      const filtered = await till(['orders', 'export', '--product', product])
      ok(filtered)
      expect(filtered.stdout.split('\r\n').filter((l) => l !== '').length - 1).toBe(
        (await get(`/orders/?limit=1&product_id=${product}`)).pagination.total_count,
      )

      const file = `${box.root}/subs.csv`
      const subs = await till(['subscriptions', 'export', '--file', file])
      ok(subs)
      expect(subs.stdout).toBe('')
      const total = (await get('/subscriptions/?limit=1')).pagination.total_count
      expect(subs.stderr).toContain(`Saved ${total} subscriptions to ${file}`)
      expect(readFileSync(file, 'utf8').startsWith('Email,Started At,Product,Amount,Currency,Status,Recurring Interval\r\n')).toBe(true)

      const customers = await till(['customers', 'export'])
      ok(customers)
      expect(customers.stdout.split('\r\n')[0]).toBe('ID,External ID,Created At,Email,Name,Billing Country,Metadata')

      allowRefusals() // a product id that is no UUID: the service's 422
      const bad = await till(['orders', 'export', '--product', 'nope'])
      expect(bad.code).toBe(2)
      expect(bad.stdout).toBe('')
    })

    it('customers payment-methods lists the card of a paying customer, by id or external id', async () => {
      const order = (await get('/orders/?limit=100')).items.find((o: Json) => o.status === 'paid' && o.total_amount > 0 && o.customer?.external_id)
      const r = await till(['customers', 'payment-methods', order.customer_id, '-o', 'json'])
      ok(r)
      const methods = json(r)
      expect(methods).toHaveLength(1)
      expect(methods[0]).toMatchObject({type: 'card', customer_id: order.customer_id, method_metadata: {last4: '4242'}})
      const customer = await get(`/customers/${order.customer_id}`)
      const byExternal = await till(['customers', 'payment-methods', '--external-id', customer.external_id])
      ok(byExternal)
      expect(byExternal.stdout).toContain('visa ****4242, expires 12/2030')
      expect((await till(['customers', 'payment-methods', unknownId()])).code).toBe(3)
    })
  })

  describe('custom fields', () => {
    it('creates select and text fields, lists, updates, attaches to a product, and deletes (detached everywhere)', async () => {
      const select = await till([
        'custom-fields',
        'create',
        '--type',
        'select',
        '--slug',
        'team-size',
        '--name',
        'Team size',
        '--option',
        'small=1-10',
        '--option',
        'large=11+',
        '--json',
      ])
      ok(select)
      const field = json(select)
      expect(field).toMatchObject({
        type: 'select',
        slug: 'team-size',
        properties: {
          options: [
            {value: 'small', label: '1-10'},
            {value: 'large', label: '11+'},
          ],
        },
      })
      const text = await till([
        'custom-fields',
        'create',
        '--type',
        'text',
        '--slug',
        'company-name',
        '--name',
        'Company',
        '--max',
        '80',
        '--textarea',
        '--json',
      ])
      ok(text)
      expect(json(text)).toMatchObject({properties: {max_length: 80, textarea: true}})

      const shown = await till(['custom-fields', 'get', field.id, '-o', 'json'])
      ok(shown)
      expect(json(shown)).toMatchObject({id: field.id, slug: 'team-size'})
      expect((await till(['custom-fields', 'get', unknownId()])).code).toBe(3)

      const table = await till(['custom-fields', 'list', '--type', 'select'])
      ok(table)
      expect(linesOf(table.stdout).find((l) => l.includes(field.id))).toContain('1-10, 11+')

      const updated = await till(['custom-fields', 'update', field.id, '--name', 'Team', '--label', 'How many are you?', '--option', 'solo=Just me', '--json'])
      ok(updated)
      expect(json(updated)).toMatchObject({
        name: 'Team',
        type: 'select',
        properties: {form_label: 'How many are you?', options: [{value: 'solo', label: 'Just me'}]},
      })

      const product = await someProduct()
      const attached = await till(['custom-fields', 'attach', field.id, '--product', product.id, '--required', '--json'])
      ok(attached)
      expect(json(attached).attached_custom_fields).toMatchObject([{custom_field_id: field.id, required: true, order: 0, custom_field: {slug: 'team-size'}}])
      ok(await till(['custom-fields', 'attach', json(text).id, '--product', product.id]))
      expect((await get(`/products/${product.id}`)).attached_custom_fields.map((a: Json) => a.custom_field_id)).toEqual([field.id, json(text).id])

      usage(await till(['custom-fields', 'delete', field.id]), /--yes/)
      ok(await till(['custom-fields', 'delete', field.id, '--yes']))
      expect((await api(emulator.production, 'GET', `/custom-fields/${field.id}`)).status).toBe(404)
      expect((await get(`/products/${product.id}`)).attached_custom_fields.map((a: Json) => a.custom_field_id)).toEqual([json(text).id])
    })

    it('checkouts create --field with a slug the product does not have is refused, naming its fields; nothing is created', async () => {
      const tag = Math.random().toString(36).slice(2, 8)
      const size = json(
        await till(['custom-fields', 'create', '--type', 'select', '--slug', `team-size-${tag}`, '--name', 'Team size', '--option', 'small=1-10', '--json']),
      )
      const product = await someProduct()
      ok(await till(['custom-fields', 'attach', size.id, '--product', product.id]))
      const before = (await get(`/checkouts/?product_id=${product.id}`)).pagination.total_count
      const typo = await till(['checkouts', 'create', '--product', product.id, '--field', `team-siez-${tag}=small`])
      usage(
        typo,
        new RegExp(
          `^Error: --field: product "${product.name}" has no custom field "team-siez-${tag}" \\(did you mean "team-size-${tag}"\\?\\); its fields are team-size-${tag}\n$`,
        ),
      )
      const none = await till(['checkouts', 'create', '--product', (await someProduct()).id, '--field', 'company=Acme'])
      usage(none, /has no custom field "company"; it has none \(attach one: till custom-fields attach FIELD_ID --product ID\)/)
      expect((await get(`/checkouts/?product_id=${product.id}`)).pagination.total_count).toBe(before)
      ok(await till(['checkouts', 'create', '--product', product.id, '--field', `team-size-${tag}=small`]))
    })

    it('checkouts create and update --field set custom field data, checked by the service; the order carries it', async () => {
      const tag = Math.random().toString(36).slice(2, 8)
      const seats = json(
        await till(['custom-fields', 'create', '--type', 'number', '--slug', `seats-${tag}`, '--name', 'Seats', '--min', '1', '--max', '20', '--json']),
      )
      const zip = json(await till(['custom-fields', 'create', '--type', 'text', '--slug', `zip-${tag}`, '--name', 'Zip', '--json']))
      const terms = json(await till(['custom-fields', 'create', '--type', 'checkbox', '--slug', `terms-${tag}`, '--name', 'Terms', '--json']))
      const product = await someProduct()
      for (const [f, required] of [
        [seats, false],
        [zip, false],
        [terms, true],
      ] as const)
        ok(await till(['custom-fields', 'attach', f.id, '--product', product.id, ...(required ? ['--required'] : [])]))

      const created = await till(['checkouts', 'create', '--product', product.id, '--field', `${seats.slug}=4`, '--field', `${zip.slug}="01234"`, '--json'])
      ok(created)
      const k = json(created)
      expect(k.custom_field_data).toEqual({[seats.slug]: 4, [zip.slug]: '01234', [terms.slug]: false})

      // a value out of bounds is the service's 422: one line naming the field, exit 2, nothing changed
      const bad = await till(['checkouts', 'update', k.id, '--field', `${seats.slug}=21`])
      expect(bad.code, bad.stderr).toBe(2)
      expect(bad.stderr).toContain(seats.slug)
      expect(bad.stderr).toContain('Input should be less than or equal to 20')
      expect(bad.stderr).not.toMatch(/\n\s+at /)
      expect((await get(`/checkouts/${k.id}`)).custom_field_data[seats.slug]).toBe(4)
      usage(await till(['checkouts', 'update', k.id, '--field', 'no-equals-sign']), /--field takes key=value/)

      const updated = await till(['checkouts', 'update', k.id, '--field', `${seats.slug}=7`, '--field', `${terms.slug}=true`, '--json'])
      ok(updated)
      expect(json(updated).custom_field_data).toEqual({[seats.slug]: 7, [zip.slug]: null, [terms.slug]: true})

      // the customer confirms (the client route, as the checkout page does) and the order carries the data
      const confirm = await api(emulator.production, 'POST', `/checkouts/client/${k.client_secret}/confirm`, {
        token: null,
        body: {
          customer_email: `fields-${tag}@example.com`,
          customer_name: 'Ada',
          customer_billing_address: {country: 'US'},
          custom_field_data: {[seats.slug]: 7, [terms.slug]: true},
        },
      })
      expect(confirm.status, confirm.text).toBe(200)
      const orderId = (await get(`/orders/?checkout_id=${k.id}`)).items[0].id
      const order = await till(['orders', 'get', orderId, '--json'])
      ok(order)
      expect(json(order).custom_field_data).toEqual({[seats.slug]: 7, [zip.slug]: null, [terms.slug]: true})
    })

    it('refuses bad input locally and a taken slug from the service', async () => {
      const cases: Array<[string[], RegExp]> = [
        [['custom-fields', 'create', '--type', 'select', '--slug', 'x', '--name', 'X'], /a select field needs its choices/],
        [['custom-fields', 'create', '--type', 'text', '--slug', 'Bad Slug', '--name', 'X'], /--slug must be lower-case/],
        [['custom-fields', 'create', '--type', 'checkbox', '--slug', 'ok', '--name', 'X', '--min', '1'], /--min and --max are not for checkbox/],
        [['custom-fields', 'create', '--type', 'number', '--slug', 'ok', '--name', 'X', '--option', 'a=b'], /--option is for select fields/],
      ]
      const results = await Promise.all(cases.map(([args]) => till(args)))
      results.forEach((r, i) => usage(r, cases[i]![1]))
      ok(await till(['custom-fields', 'create', '--type', 'checkbox', '--slug', 'terms', '--name', 'Terms']))
      const taken = await till(['custom-fields', 'create', '--type', 'checkbox', '--slug', 'terms', '--name', 'Terms again'])
      expect(taken.code).toBe(2)
      expect(taken.stderr).toContain('body.slug: Custom field with this slug already exists.')
    })
  })

  describe('files', () => {
    it('uploads a file in parts with checksums, lists, renames and deletes it', async () => {
      const path = `${box.root}/handbook.pdf`
      const data = Buffer.alloc(5000, 7)
      data.write('%PDF-1.4 handbook')
      writeFileSync(path, data)
      const r = await till(['files', 'upload', path, '--part-size', '2048', '--version', '1', '--json'])
      ok(r)
      const file = json(r)
      expect(file).toMatchObject({name: 'handbook.pdf', mime_type: 'application/pdf', size: 5000, is_uploaded: true, service: 'downloadable', version: '1'})
      expect(file.checksum_sha256_hex).toBe(createHash('sha256').update(data).digest('hex'))
      expect(file.checksum_etag).toMatch(/-3$/)
      expect(r.stderr).toContain(`Uploaded ${path} as file ${file.id} (4.9 KiB, SHA-256 checked)`)

      const listed = await till(['files', 'list', '-o', 'json'])
      ok(listed)
      expect(json(listed).map((f: Json) => f.id)).toContain(file.id)
      // a downloadable benefit references the uploaded file; an unknown file is refused by the service
      const benefit = await till([
        'benefits',
        'create',
        '--type',
        'downloadables',
        '--description',
        'The handbook',
        '--properties',
        JSON.stringify({files: [file.id]}),
        '--json',
      ])
      ok(benefit)
      expect(json(benefit)).toMatchObject({type: 'downloadables', properties: {files: [file.id], archived: {}}})
      const unknown = await till([
        'benefits',
        'create',
        '--type',
        'downloadables',
        '--description',
        'Nothing',
        '--properties',
        JSON.stringify({files: [unknownId()]}),
      ])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toContain('body.properties.files.0: File does not exist or is not uploaded.')

      const renamed = await till(['files', 'update', file.id, '--name', 'Handbook', '--json'])
      ok(renamed)
      expect(json(renamed)).toMatchObject({name: 'Handbook'})
      usage(await till(['files', 'delete', file.id]), /--yes/)
      ok(await till(['files', 'delete', file.id, '--yes']))
      expect(json(await till(['files', 'list', '-o', 'json'])).map((f: Json) => f.id)).not.toContain(file.id)
    })

    it('uploads parts larger than a JSON body may be (10 MiB), as the object store takes them', async () => {
      const path = `${box.root}/large.bin`
      const data = Buffer.alloc(12 * 1024 * 1024, 3)
      writeFileSync(path, data)
      const r = await till(['files', 'upload', path, '--part-size', String(11 * 1024 * 1024), '--json'])
      ok(r)
      expect(json(r)).toMatchObject({size: data.length, is_uploaded: true, checksum_sha256_hex: createHash('sha256').update(data).digest('hex')})
      expect(json(r).checksum_etag).toMatch(/-2$/)
    })

    it('shows a progress bar on a terminal, and refuses a missing file before sending anything', async () => {
      const path = `${box.root}/bar.bin`
      writeFileSync(path, Buffer.alloc(4096, 1))
      const tty = await runTty(`${TILL} files upload ${sh(path)} --part-size 1024`, {env: env()})
      expect(tty.code, tty.stdout).toBe(0)
      expect(stripAnsi(tty.stdout)).toMatch(/Uploading \[.*\] 100% \| 4\.0 KiB of 4\.0 KiB/)
      usage(await till(['files', 'upload', `${box.root}/missing.bin`]), /cannot read .*missing\.bin: no such file or folder/)
    })

    it('the storage refuses a part whose bytes do not match the declared checksum', async () => {
      const good = Buffer.from('good bytes')
      const created = await api(emulator.production, 'POST', '/files/', {
        body: {
          name: 'x.txt',
          mime_type: 'text/plain',
          size: good.length,
          service: 'downloadable',
          upload: {
            parts: [{number: 1, chunk_start: 0, chunk_end: good.length - 1, checksum_sha256_base64: createHash('sha256').update(good).digest('base64')}],
          },
        },
      })
      expect(created.status, created.text).toBe(201)
      const url = created.body.upload.parts[0].url
      const bad = await fetch(url, {method: 'PUT', body: Buffer.from('bad bytes!')})
      expect(bad.status).toBe(400)
      expect(await bad.json()).toMatchObject({error: 'BadDigest'})
      const fine = await fetch(url, {method: 'PUT', body: good})
      expect(fine.status).toBe(200)
      expect(fine.headers.get('etag')).toBe(`"${createHash('md5').update(good).digest('hex')}"`)
    })
  })
})
