// Draft orders and their off-session charges: `till orders create` makes a draft (no charge, no invoice
// number, order.created), `till orders finalize` charges the customer's saved card at once (paid, an
// invoice number, order.updated and order.paid), after a confirmation. The service's refusals are one
// line each, and a failed charge leaves the draft as it was. Contract mode on, as for every test.
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, control, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {lossyProxy} from '../helpers/lossy-proxy.js'
import {waitUntil} from '../helpers/machine.js'

let emulator: Emulator
let box: Sandbox
let server: Server
const received: Array<{type: string; data: Json}> = []
const till = (args: string[]) => runInProcess(args, {env: box.env(envVars(emulator.production))})
const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}`).toBe(0)
const seed: Record<string, Json> = {}

const features = (enabled: boolean) =>
  control(emulator.production, 'POST', 'organization/features', {
    body: {off_session_charges_enabled: enabled},
  })

async function eventsOf(orderId: string, count: number): Promise<string[]> {
  const of = () => received.filter((e) => e.data?.id === orderId).map((e) => e.type)
  await waitUntil(() => of().length >= count, 5000, 25)
  return of()
}

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  await api(emulator.production, 'POST', '/webhooks/endpoints', {body: {url, format: 'raw', events: ['order.created', 'order.updated', 'order.paid']}})

  const env = emulator.production
  const products = await listAll(env, '/products/')
  seed.product = products.find((p) => !p.is_recurring && !p.is_archived && p.prices.every((x: Json) => x.amount_type === 'fixed' && x.price_amount > 0))
  seed.recurring = products.find((p) => p.is_recurring && !p.is_archived)
  seed.custom = products.find((p) => !p.is_recurring && p.prices.some((x: Json) => x.amount_type === 'custom'))
  // a paying customer with a billing address has a saved card (their first payment's)
  for (const c of await listAll(env, '/customers/')) {
    if (!c.billing_address) continue
    const methods = (await api(env, 'GET', `/customers/${c.id}/payment-methods`)).body.items
    if (methods.length > 0) {
      seed.payer = c
      seed.card = methods[0]
      break
    }
  }
  seed.newcomer = (
    await api(env, 'POST', '/customers/', {
      body: {email: `new-${Date.now()}@example.com`, billing_address: {country: 'DE', line1: 'Hauptstr. 1', city: 'Berlin', postal_code: '10115'}},
    })
  ).body
  seed.addressless = (await api(env, 'POST', '/customers/', {body: {email: `bare-${Date.now()}@example.com`}})).body
  for (const [name, value] of Object.entries(seed)) expect(value, name).toBeTruthy()
})

afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
  server?.close()
})

describe('till orders create and finalize', () => {
  it('creates a draft (no invoice number, order.created), then charges the saved card: paid, numbered, order.paid', async () => {
    const created = await till(['orders', 'create', '--customer', seed.payer.id, '--product', seed.product.id, '--metadata', 'topup=5000', '--json'])
    ok(created)
    const draft = JSON.parse(created.stdout)
    const price = seed.product.prices[0].price_amount
    expect(draft).toMatchObject({
      status: 'draft',
      paid: false,
      invoice_number: null,
      customer_id: seed.payer.id,
      product_id: seed.product.id,
      subtotal_amount: price,
    })
    expect(draft.metadata).toEqual({topup: '5000'})
    expect(draft.total_amount).toBe(draft.subtotal_amount + draft.tax_amount)
    expect(await eventsOf(draft.id, 1)).toEqual(['order.created'])

    // money moves: without a terminal, --yes is needed, and nothing was charged
    const unconfirmed = await till(['orders', 'finalize', draft.id])
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stderr).toMatch(/--yes/)
    expect((await api(emulator.production, 'GET', `/orders/${draft.id}`)).body.status).toBe('draft')

    // --dry-run says what would be charged, and charges nothing
    const dry = await till(['orders', 'finalize', draft.id, '--dry-run'])
    ok(dry)
    const total = `$${(draft.total_amount / 100).toFixed(2)}`
    expect(dry.stdout).toBe(
      `Dry run: would charge ${total} (order ${draft.id}, ${seed.payer.email}) to the customer's saved payment method (local, profile local); nothing was changed.\n`,
    )
    expect((await api(emulator.production, 'GET', `/orders/${draft.id}`)).body.status).toBe('draft')

    const finalized = await till(['orders', 'finalize', draft.id, '--payment-method', seed.card.id, '--yes', '--json'])
    ok(finalized)
    const paid = JSON.parse(finalized.stdout)
    expect(paid).toMatchObject({id: draft.id, status: 'paid', paid: true, total_amount: draft.total_amount})
    expect(paid.invoice_number).toMatch(/^[A-Z0-9]+-\d{4}$/)
    expect(await eventsOf(draft.id, 3)).toEqual(['order.created', 'order.updated', 'order.paid'])

    // a second finalize: not a draft any more, one line
    const again = await till(['orders', 'finalize', draft.id, '--yes'])
    expect(again.code).toBe(1)
    expect(again.stderr.split('\n')[0]).toBe(`Error: order ${draft.id} is not a draft (it is paid); only drafts can be finalized`)
  })

  it('a custom amount and description make the line; piped, the id alone', async () => {
    const created = await till([
      'orders',
      'create',
      '--customer',
      seed.newcomer.id,
      '--product',
      seed.product.id,
      '--amount',
      '25.00',
      '--description',
      '5,000 tokens',
    ])
    ok(created)
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/)
    const order = (await api(emulator.production, 'GET', `/orders/${created.stdout.trim()}`)).body
    expect(order).toMatchObject({status: 'draft', subtotal_amount: 2500, description: '5,000 tokens'})
    // DE billing address: 19% tax, kept from the draft on
    expect(order.tax_amount).toBe(475)
    expect(order.items).toMatchObject([{label: '5,000 tokens', amount: 2500}])
  })

  it('a customer without a saved payment method: the charge fails, the draft stays a draft', async () => {
    const created = await till(['orders', 'create', '--customer', seed.newcomer.id, '--product', seed.product.id])
    ok(created)
    const id = created.stdout.trim()
    const failed = await till(['orders', 'finalize', id, '--yes'])
    expect(failed.code).toBe(1)
    const [line, hint] = failed.stderr.split('\n')
    expect(line).toBe(`Error: the charge of order ${id} failed: the customer has no saved payment method (or not the one given); the order stays a draft`)
    expect(hint).toMatch(/till customers payment-methods/)
    const after = (await api(emulator.production, 'GET', `/orders/${id}`)).body
    expect(after).toMatchObject({status: 'draft', invoice_number: null})
    // another customer's card is not this customer's
    const wrongCard = await till(['orders', 'finalize', id, '--payment-method', seed.card.id, '--yes'])
    expect(wrongCard.code).toBe(1)
    expect(wrongCard.stderr).toMatch(/no saved payment method/)
  })

  it('a card that is declined, or needs the customer to authenticate: one line each, the draft kept', async () => {
    const card = (outcome: string) => control(emulator.production, 'POST', `customers/${seed.payer.id}/card`, {body: {outcome}})
    const created = await till(['orders', 'create', '--customer', seed.payer.id, '--product', seed.product.id])
    ok(created)
    const id = created.stdout.trim()
    try {
      expect((await card('decline')).status).toBe(200)
      const declined = await till(['orders', 'finalize', id, '--yes'])
      expect(declined.code).toBe(1)
      expect(declined.stderr.split('\n')[0]).toBe(`Error: the charge of order ${id} was declined (card_error); the order stays a draft`)
      await card('authentication_required')
      const sca = await till(['orders', 'finalize', id, '--yes'])
      expect(sca.code).toBe(1)
      expect(sca.stderr.split('\n').slice(0, 2)).toEqual([
        `Error: the charge of order ${id} needs the customer to authenticate (3-D Secure), which cannot be done off-session; the order stays a draft`,
        'Hint: ask the customer to update their payment method in the customer portal, then finalize again',
      ])
      expect((await api(emulator.production, 'GET', `/orders/${id}`)).body).toMatchObject({status: 'draft', invoice_number: null})
    } finally {
      await card('succeed')
    }
    const paid = await till(['orders', 'finalize', id, '--yes', '--json'])
    ok(paid)
    expect(JSON.parse(paid.stdout).status).toBe('paid')
  })

  it("refuses what the service refuses, in the service's words", async () => {
    const refused = async (args: string[], message: RegExp) => {
      const r = await till(['orders', 'create', ...args])
      expect(r.code, r.stderr).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
    await refused(['--customer', seed.payer.id, '--product', seed.recurring.id], /Subscription products are not supported by the off-session charge API/)
    await refused(['--customer', seed.payer.id, '--product', seed.custom.id], /Off-session charges only support fixed-price products/)
    await refused(['--customer', seed.payer.id, '--product', seed.product.id, '--amount', '0.25'], /Amount must be at least \$0\.50/)
    await refused(['--customer', seed.payer.id, '--product', seed.product.id, '--currency', 'jpy'], /Product has no price in currency 'jpy'/)
    await refused(['--customer', seed.addressless.id, '--product', seed.product.id], /needs a complete, valid billing address/)
    await refused(['--customer', crypto.randomUUID(), '--product', seed.product.id], /Customer does not exist/)
  })

  it('an organization without off-session charges: refused at creation and at finalize (OffSessionChargesNotEnabled)', async () => {
    const created = await till(['orders', 'create', '--customer', seed.payer.id, '--product', seed.product.id])
    ok(created)
    await features(false)
    try {
      for (const args of [
        ['orders', 'create', '--customer', seed.payer.id, '--product', seed.product.id],
        ['orders', 'finalize', created.stdout.trim(), '--yes'],
      ]) {
        const r = await till(args)
        expect(r.code).toBe(1)
        expect(r.stderr.split('\n').slice(0, 2)).toEqual([
          'Error: off-session charges (draft orders) are not enabled for this organization',
          'Hint: Polar support enables them on request',
        ])
      }
    } finally {
      await features(true)
    }
    ok(await till(['orders', 'finalize', created.stdout.trim(), '--yes']))
  })

  it('a lost answer: a draft create names its customer in the hint; a finalize is settled by reading the order, charged once', async () => {
    const env = emulator.production
    const through = async (drop: (method: string, path: string) => boolean, args: string[]) => {
      const proxy = await lossyProxy(new URL(env.url), drop)
      try {
        return {...(await runInProcess(args, {env: box.env(envVars(env, {TILL_API_URL: proxy.url}))})), dropped: proxy.dropped}
      } finally {
        proxy.server.close()
      }
    }
    const draftIds = async () => (await listAll(env, '/orders/', `customer_id=${seed.payer.id}&status=draft`)).map((o) => o.id as string)
    const before = await draftIds()
    const created = await through(
      (m, p) => m === 'POST' && p === '/v1/orders/',
      ['orders', 'create', '--customer', seed.payer.id, '--product', seed.product.id],
    )
    expect(created.code, created.stderr).toBe(7)
    expect(created.dropped).toEqual(['POST /v1/orders/'])
    expect(created.stderr).toContain(`Hint: see whether it was done with: till orders list --status draft --customer ${seed.payer.id}\n`)

    const made = (await draftIds()).filter((id) => !before.includes(id))
    expect(made).toHaveLength(1)
    const draft = {id: made[0]!}
    const paid = received.length
    const finalized = await through((m, p) => m === 'POST' && p === `/v1/orders/${draft.id}/finalize`, ['orders', 'finalize', draft.id, '--yes', '--json'])
    expect(finalized.code, finalized.stderr).toBe(0)
    expect(finalized.dropped).toEqual([`POST /v1/orders/${draft.id}/finalize`])
    expect(JSON.parse(finalized.stdout)).toMatchObject({id: draft.id, status: 'paid'})
    expect((await api(env, 'GET', `/orders/${draft.id}`)).body.status).toBe('paid')
    expect(await eventsOf(draft.id, 3)).toContain('order.paid')
    expect(received.slice(paid).filter((e) => e.type === 'order.paid' && e.data.id === draft.id)).toHaveLength(1)
  })

  it('the seeded organization has them on, as its feature settings say', async () => {
    const org = await till(['org', 'show', emulator.production.organizationId, '--json'])
    ok(org)
    expect(JSON.parse(org.stdout).organization.feature_settings.off_session_charges_enabled).toBe(true)
  })
})
