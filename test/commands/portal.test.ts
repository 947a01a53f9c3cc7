// The portal surface (`till portal ...`) as processes against the emulator: acting with a session token
// (TILL_CUSTOMER_TOKEN) and with --as-customer / --as-customer-id; one customer cannot see another's
// orders; the portal invoice flow; subscription cancellation with and without a terminal; the errors of
// a customer token on Core commands and of an expired session; and no organization-level command.
import {spawn} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {api, listAll, ROOT, sleep, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {BIN, envVars, expectNoToken, jsonlIds, linesOf, sandbox, sh, stripAnsi, type Sandbox} from '../helpers/cli.js'
import {recordingTill, runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

async function sessionToken(env: EnvHandle, customerId: string): Promise<string> {
  const res = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: customerId}})
  expect(res.status, res.text).toBe(201)
  return res.body.token
}

/** Runs till on a pseudo-terminal and types `keys` once `prompt` shows. */
async function answerOnTty(args: string[], prompt: RegExp, keys: string, env: NodeJS.ProcessEnv): Promise<{code: number | null; screen: string}> {
  const cmd = `${sh(process.execPath)} ${sh(BIN)} ${args.map(sh).join(' ')}`
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe']})
  let screen = ''
  let typed = false
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk
    if (!typed && prompt.test(stripAnsi(screen))) {
      typed = true
      setTimeout(() => child.stdin.write(keys), 150)
    }
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), scaled(20_000))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  clearTimeout(timer)
  return {code, screen: stripAnsi(screen.replaceAll('\r\n', '\n'))}
}

describe('till portal', () => {
  let emulator: Emulator
  let env: EnvHandle
  let customers: Json[]
  let orders: Json[]
  /** Customer A (has an external id and a paid order without an invoice) and customer B (has orders). */
  let a: Json
  let b: Json
  let tokenA: string
  let box: Sandbox

  const {till, outputs} = recordingTill(
    () => box,
    () => env,
  )
  /** As customer A through TILL_CUSTOMER_TOKEN. */
  const asA = (args: string[]) => till(args, {TILL_CUSTOMER_TOKEN: tokenA})
  const ordersOf = (customer: Json) => orders.filter((o) => o.customer_id === customer.id)

  beforeAll(async () => {
    emulator = await startEmulator({invoiceDelay: '300ms'})
    env = emulator.production
    customers = await listAll(env, '/customers/')
    orders = await listAll(env, '/orders/')
    const invoiceable = (c: Json) => ordersOf(c).some((o) => o.status === 'paid' && !o.is_invoice_generated && !o.billing_address)
    a = customers.filter((c) => c.external_id && invoiceable(c)).sort((x, y) => ordersOf(y).length - ordersOf(x).length)[0]
    b = customers.find((c) => c.id !== a?.id && ordersOf(c).length > 0)
    expect(a && b, 'two customers with orders, one of them with an external id and an order to invoice').toBeTruthy()
    tokenA = await sessionToken(env, a.id)
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const text of outputs) expectNoToken(text, env.token)
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  describe('with a session token (TILL_CUSTOMER_TOKEN)', () => {
    it('customer show: the signed-in customer, in a table and as JSON', async () => {
      const table = await asA(['portal', 'customer', 'show', '-o', 'table'])
      expect(table.code, table.stderr).toBe(0)
      expect(table.stderr).toBe('')
      expect(table.stdout).toContain(a.id)
      expect(table.stdout).toContain(a.email)
      const json = await asA(['portal', 'customer', 'show', '--json'])
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toMatchObject({id: a.id, email: a.email})
    })

    it("orders list: exactly the customer's orders, newest first (table and JSON lines)", async () => {
      const own = ordersOf(a).map((o) => o.id)
      const jsonl = await asA(['portal', 'orders', 'list', '--all', '-o', 'jsonl'])
      expect(jsonl.code, jsonl.stderr).toBe(0)
      expect(jsonl.stderr).toBe('')
      expect(jsonlIds(jsonl.stdout)).toEqual(own)
      const table = await asA(['portal', 'orders', 'list', '-o', 'table'])
      expect(table.code, table.stderr).toBe(0)
      const lines = linesOf(table.stdout)
      expect(lines[0]).toMatch(/^ID\s+CREATED\s+STATUS\s+CUSTOMER/)
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(own.slice(0, 10))
    })

    it("orders get: the customer's own order; another customer's order is not found (exit 3)", async () => {
      const mine = ordersOf(a)[0]
      const own = await asA(['portal', 'orders', 'get', mine.id, '--json'])
      expect(own.code, own.stderr).toBe(0)
      expect(JSON.parse(own.stdout)).toMatchObject({id: mine.id, customer_id: a.id, net_amount: mine.net_amount})
      const theirs = ordersOf(b)[0]
      const other = await asA(['portal', 'orders', 'get', theirs.id])
      expect(other.code).toBe(3)
      expect(other.stderr).toContain('not found')
      expect(other.stdout).toBe('')
      expect((await asA(['portal', 'orders', 'update', theirs.id, '--billing-name', 'Hijack'])).code).toBe(3)
      expect((await api(env, 'GET', `/orders/${theirs.id}`)).body.billing_name).toBe(theirs.billing_name)
    })

    it('the invoice flow: get before generate exits 3 naming the portal command; update, generate --wait, get --download; no update afterwards', async () => {
      const order = ordersOf(a).find((o) => o.status === 'paid' && !o.is_invoice_generated && !o.billing_address)
      const early = await asA(['portal', 'orders', 'invoice', 'get', order.id])
      expect(early.code).toBe(3)
      expect(early.stderr).toContain(`till portal orders invoice generate ${order.id}`)
      expect(early.stdout).toBe('')

      const update = await asA([
        'portal',
        'orders',
        'update',
        order.id,
        '--billing-name',
        'Acme GmbH',
        '--country',
        'de',
        '--line1',
        'Unter den Linden 5',
        '--postal-code',
        '10117',
        '--city',
        'Berlin',
        '--json',
      ])
      expect(update.code, update.stderr).toBe(0)
      expect(JSON.parse(update.stdout)).toMatchObject({
        billing_name: 'Acme GmbH',
        billing_address: {country: 'DE', line1: 'Unter den Linden 5', postal_code: '10117', city: 'Berlin'},
      })
      const merged = await asA(['portal', 'orders', 'update', order.id, '--line2', 'Floor 3', '--json'])
      expect(merged.code, merged.stderr).toBe(0)
      expect(JSON.parse(merged.stdout).billing_address).toMatchObject({country: 'DE', line1: 'Unter den Linden 5', line2: 'Floor 3', city: 'Berlin'})

      const generated = await asA(['portal', 'orders', 'invoice', 'generate', order.id, '--wait'])
      expect(generated.code, generated.stderr).toBe(0)
      expect(generated.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/invoices\/.+\.pdf\?\S+\n$/)

      const file = join(box.root, 'invoice.pdf')
      const got = await asA(['portal', 'orders', 'invoice', 'get', order.id, '--download', file])
      expect(got.code, got.stderr).toBe(0)
      expect(got.stdout).toBe('')
      expect(got.stderr).toContain(`Saved the invoice of order ${order.id}`)
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
      const url = await asA(['portal', 'orders', 'invoice', 'get', order.id])
      expect(url.code, url.stderr).toBe(0)
      expect(url.stdout).toContain(`/files/invoices/${order.id}.pdf`)

      const late = await asA(['portal', 'orders', 'update', order.id, '--billing-name', 'Too late'])
      expect(late.code).toBe(2)
      expect(late.stderr).toContain('body.billing_name: This field cannot be updated after the invoice is generated.')
      expect((await api(env, 'GET', `/orders/${order.id}`)).body.billing_name).toBe('Acme GmbH')
    })

    it('customer update: billing name and address, merged into the address the customer has', async () => {
      const first = await asA([
        'portal',
        'customer',
        'update',
        '--billing-name',
        'Ada Ltd',
        '--country',
        'GB',
        '--line1',
        '1 High St',
        '--city',
        'London',
        '-o',
        'table',
      ])
      expect(first.code, first.stderr).toBe(0)
      expect(first.stdout).toContain('Ada Ltd')
      const second = await asA(['portal', 'customer', 'update', '--postal-code', 'EC1A 1AA', '--json'])
      expect(second.code, second.stderr).toBe(0)
      const address = {country: 'GB', line1: '1 High St', city: 'London', postal_code: 'EC1A 1AA'}
      expect(JSON.parse(second.stdout)).toMatchObject({billing_name: 'Ada Ltd', billing_address: address})
      expect((await api(env, 'GET', `/customers/${a.id}`)).body).toMatchObject({billing_name: 'Ada Ltd', billing_address: address})
      const nothing = await asA(['portal', 'customer', 'update'])
      expect(nothing.code).toBe(2)
      expect(nothing.stderr).toContain('nothing to update')
    })

    it("subscriptions, benefit grants and license keys: the customer's own, as the portal API lists them", async () => {
      const portal = async (path: string) => (await api(env, 'GET', `/customer-portal/${path}?limit=100`, {token: tokenA})).body.items.map((i: Json) => i.id)
      for (const [topic, path] of [
        ['subscriptions', 'subscriptions/'],
        ['benefit-grants', 'benefit-grants/'],
        ['license-keys', 'license-keys/'],
      ]) {
        const r = await asA(['portal', topic!, 'list', '--all', '-o', 'jsonl'])
        expect(r.code, r.stderr).toBe(0)
        expect(jsonlIds(r.stdout), topic).toEqual(await portal(path!))
        for (const line of linesOf(r.stdout)) expect(JSON.parse(line).customer_id).toBe(a.id)
      }
      const keys = await listAll(env, '/customer-portal/license-keys/', '', tokenA)
      if (keys.length > 0) {
        const key = await asA(['portal', 'license-keys', 'get', keys[0].id, '--json'])
        expect(key.code, key.stderr).toBe(0)
        expect(JSON.parse(key.stdout)).toMatchObject({id: keys[0].id, activations: expect.any(Array)})
      }
    })
  })

  describe('with --as-customer / --as-customer-id (a session made with the organization token)', () => {
    it('--as-customer EXTERNAL_ID and --as-customer-id ID act as that customer; no token is printed', async () => {
      const byExternal = await till(['portal', 'orders', 'list', '--all', '-o', 'jsonl', '--as-customer', a.external_id])
      expect(byExternal.code, byExternal.stderr).toBe(0)
      expect(jsonlIds(byExternal.stdout)).toEqual(ordersOf(a).map((o) => o.id))
      expect(byExternal.stdout + byExternal.stderr).not.toMatch(/polar_cst_/)
      const byId = await till(['portal', 'customer', 'show', '--json', '--as-customer-id', b.id])
      expect(byId.code, byId.stderr).toBe(0)
      expect(JSON.parse(byId.stdout).id).toBe(b.id)
      const theirs = await till(['portal', 'orders', 'get', ordersOf(b)[0].id, '--as-customer', a.external_id])
      expect(theirs.code).toBe(3)
    })

    it('an unknown customer is not found, named by its flag; no customer at all says how to give one', async () => {
      const unknown = await till(['portal', 'orders', 'list', '--as-customer', 'nobody-has-this-id'])
      expect(unknown.code).toBe(3)
      expect(unknown.stderr).toContain('no customer of this organization has the external id nobody-has-this-id (--as-customer)')
      const none = await till(['portal', 'orders', 'list'])
      expect(none.code).toBe(2)
      expect(none.stderr).toContain('TILL_CUSTOMER_TOKEN')
      expect(none.stderr).toContain('--as-customer')
    })
  })

  describe('subscriptions cancel (at period end, confirmed)', () => {
    let subs: Json[]
    beforeAll(async () => {
      subs = (await listAll(env, '/subscriptions/', 'status=active')).filter((s) => !s.cancel_at_period_end)
      expect(subs.length).toBeGreaterThanOrEqual(2)
    })
    const current = async (id: string) => (await api(env, 'GET', `/subscriptions/${id}`)).body

    it('without a terminal --yes is required (exit 2, nothing changed); with --yes it cancels at period end', async () => {
      const s = subs[0]
      const refused = await till(['portal', 'subscriptions', 'cancel', s.id, '--as-customer-id', s.customer_id])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('--yes is required')
      expect((await current(s.id)).cancel_at_period_end).toBe(false)
      const done = await till(['portal', 'subscriptions', 'cancel', s.id, '--as-customer-id', s.customer_id, '--reason', 'too_expensive', '--yes', '--json'])
      expect(done.code, done.stderr).toBe(0)
      const body = JSON.parse(done.stdout)
      expect(body).toMatchObject({id: s.id, status: 'active', cancel_at_period_end: true, customer_cancellation_reason: 'too_expensive'})
      expect(body.ends_at).toBe(s.current_period_end)
      const again = await till(['portal', 'subscriptions', 'get', s.id, '--as-customer-id', s.customer_id, '--json'])
      expect(JSON.parse(again.stdout).cancel_at_period_end).toBe(true)
    })

    it('on a terminal: "n" leaves it as it was, "y" cancels it; the question says what and when', async () => {
      const s = subs[1]
      const ttyEnv = box.env(envVars(env))
      const no = await answerOnTty(['portal', 'subscriptions', 'cancel', s.id, '--as-customer-id', s.customer_id], /\?/, 'n\r', ttyEnv)
      expect(no.code, no.screen).toBe(1)
      expect(no.screen).toContain(`subscription ${s.id}`)
      expect(no.screen).toContain(String(s.current_period_end).slice(0, 10))
      expect(no.screen).toContain('nothing was changed')
      expect((await current(s.id)).cancel_at_period_end).toBe(false)
      const yes = await answerOnTty(
        ['portal', 'subscriptions', 'cancel', s.id, '--as-customer-id', s.customer_id, '--columns', 'id,cancel_at_period_end'],
        /\?/,
        'y\r',
        ttyEnv,
      )
      expect(yes.code, yes.screen).toBe(0)
      expect((await current(s.id)).cancel_at_period_end).toBe(true)
    })
  })

  describe('tokens on the wrong surface', () => {
    it('a customer token on a Core command: exit 4, the message names the Customer Portal', async () => {
      const r = await till(['orders', 'list'], {TILL_TOKEN: tokenA})
      expect(r.code).toBe(4)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('customer access token')
      expect(r.stderr).toContain('Customer Portal')
      expect(r.stderr).toContain('till portal')
      expectNoToken(r.stderr, tokenA)
    })

    it('the portal has no organization-level commands (products, refunds, ...)', () => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
      const portal = Object.keys(manifest.commands)
        .filter((id) => id.startsWith('portal:'))
        .sort()
      expect(portal).toEqual([
        'portal:benefit-grants:get',
        'portal:benefit-grants:list',
        'portal:benefit-grants:update',
        'portal:customer:show',
        'portal:customer:update',
        'portal:downloadables:list',
        'portal:email:check',
        'portal:email:request',
        'portal:email:verify',
        'portal:license-keys:activate',
        'portal:license-keys:deactivate',
        'portal:license-keys:get',
        'portal:license-keys:list',
        'portal:license-keys:rotate',
        'portal:license-keys:validate',
        'portal:members:add',
        'portal:members:list',
        'portal:members:remove',
        'portal:members:update',
        'portal:meters:get',
        'portal:meters:list',
        'portal:orders:get',
        'portal:orders:invoice:generate',
        'portal:orders:invoice:get',
        'portal:orders:list',
        'portal:orders:payment-status',
        'portal:orders:receipt',
        'portal:orders:retry-payment',
        'portal:orders:update',
        'portal:organization:show',
        'portal:payment-methods:add',
        'portal:payment-methods:confirm',
        'portal:payment-methods:delete',
        'portal:payment-methods:list',
        'portal:seats:assign',
        'portal:seats:list',
        'portal:seats:resend',
        'portal:seats:revoke',
        'portal:seats:subscriptions',
        'portal:session:show',
        'portal:subscriptions:cancel',
        'portal:subscriptions:get',
        'portal:subscriptions:list',
        'portal:subscriptions:update',
        'portal:wallets:get',
        'portal:wallets:list',
      ])
      expect(existsSync(join(ROOT, 'dist', 'commands', 'portal', 'refunds'))).toBe(false)
    })
  })
})

describe('till portal with an expired session (emulator --session-ttl 1s)', () => {
  let emulator: Emulator
  let box: Sandbox

  beforeAll(async () => {
    emulator = await startEmulator({sessionTtl: '1s'})
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  it('a token that worked exits 4 once expired, saying the token expired and how to make a new one', async () => {
    const env = emulator.production
    const [customer] = await listAll(env, '/customers/')
    const token = await sessionToken(env, customer.id)
    const vars = box.env({...envVars(env), TILL_CUSTOMER_TOKEN: token})
    expect((await api(env, 'GET', '/customer-portal/customers/me', {token})).status).toBe(200)
    await sleep(1500)
    const r = await runInProcess(['portal', 'orders', 'list'], {env: vars})
    expect(r.code).toBe(4)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('expired')
    expect(r.stderr).toContain('till sessions create')
    expect(r.stderr).toContain('--as-customer')
    expectNoToken(r.stderr, token)
  })
})
