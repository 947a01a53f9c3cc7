// The portal's account commands against the emulator, in-process and in the contract mode: who the
// session is (till portal session show), saved payment methods (list, add with each kind of test token,
// confirm a 3-D Secure setup, delete, and the last method a live subscription needs), the e-mail change
// (request, check, verify; the token from the emulator's control API), wallets and the organization page.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js'
import {expectNoToken, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, control as controlRoute, listAll, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {recordingTill, runInProcess} from '../helpers/in-process.js'

describe('till portal: the account', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  /** A customer with a paid subscription that has not ended (so a card it paid with), and one who never paid. */
  let payer: Json
  let newcomer: Json

  const {till, outputs} = recordingTill(
    () => box,
    () => env,
  )
  const as = (customer: Json, args: string[], input?: string) => till([...args, '--as-customer-id', customer.id], {}, input)
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const json = (r: CliResult) => JSON.parse(r.stdout)
  const control = (method: string, path: string, body?: unknown) => controlRoute(env, method, path, body === undefined ? {} : {body})
  const methodsOf = async (customer: Json) => json(await as(customer, ['portal', 'payment-methods', 'list', '-o', 'json'])) as Json[]

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '0s'})
    env = emulator.production
    const customers = await listAll(env, '/customers/')
    const subscriptions = await listAll(env, '/subscriptions/')
    const orders = await listAll(env, '/orders/')
    const live = (c: Json) => subscriptions.some((s) => s.customer_id === c.id && s.ended_at === null && s.amount > 0 && s.status === 'active')
    const paid = (c: Json) => orders.some((o) => o.customer_id === c.id && o.status === 'paid' && o.total_amount > 0)
    payer = customers.find((c) => live(c) && paid(c) && c.type !== 'team')
    expect(payer, 'a customer paying a subscription').toBeTruthy()
    const created = await api(env, 'POST', '/customers/', {body: {email: `newcomer-${Date.now()}@example.com`, name: 'New Comer'}})
    expect(created.status, created.text).toBe(201)
    newcomer = created.body
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const text of outputs) expectNoToken(text, env.token)
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('session show: the customer the session belongs to and when it expires', async () => {
    const r = await as(payer, ['portal', 'session', 'show', '--json'])
    ok(r)
    const shown = json(r)
    expect(shown).toMatchObject({type: 'customer', email: payer.email, name: payer.name, customer_id: payer.id, member_id: null, role: null})
    expect(Date.parse(shown.expires_at)).toBeGreaterThan(Date.now())
    const table = await as(payer, ['portal', 'session', 'show', '-o', 'table'])
    ok(table)
    expect(table.stdout).toContain(payer.email)
  })

  describe('payment methods', () => {
    it("lists the card of the customer's first payment; a customer who never paid has none", async () => {
      const [card, ...rest] = await methodsOf(payer)
      expect(rest).toEqual([])
      expect(card).toMatchObject({customer_id: payer.id, type: 'card', processor: 'stripe', method_metadata: {brand: 'visa', last4: '4242'}})
      expect(await methodsOf(newcomer)).toEqual([])
      // the organization's view of the same customer agrees
      const core = await api(env, 'GET', `/customers/${payer.id}/payment-methods`)
      expect(core.body.items.map((m: Json) => m.id)).toEqual([card.id])
    })

    it('add: a card saved from a token (the id alone when piped), made the default; listed newest first', async () => {
      const before = await methodsOf(payer)
      const r = await as(payer, ['portal', 'payment-methods', 'add', '--confirmation-token', 'ctoken_mastercard_1', '--default'])
      ok(r)
      const id = r.stdout.trim()
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      const after = await methodsOf(payer)
      expect(after.map((m) => m.id)).toEqual([id, ...before.map((m) => m.id)])
      expect(after[0]).toMatchObject({method_metadata: {brand: 'mastercard', last4: '4444'}})
      const me = json(await as(payer, ['portal', 'customer', 'show', '--json']))
      expect(me.default_payment_method_id).toBe(id)
      const core = await api(env, 'GET', `/customers/${payer.id}/payment-methods`)
      expect(core.body.items.find((m: Json) => m.id === id).is_default).toBe(true)
    })

    it('add: a declined card is one line naming the reason, exit 2 (the input is refused), nothing saved', async () => {
      const before = await methodsOf(newcomer)
      const r = await as(newcomer, ['portal', 'payment-methods', 'add', '--confirmation-token', 'ctoken_declined'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('Could not add this payment method: Your card was declined.')
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(r.stdout).toBe('')
      expect(await methodsOf(newcomer)).toEqual(before)
    })

    it('a 3-D Secure card waits for the customer: its client secret, then confirm saves it once', async () => {
      // a customer the processor does not know yet cannot confirm anything
      allowRefusals()
      const early = await as(newcomer, ['portal', 'payment-methods', 'confirm', 'seti_unknown'])
      expect(early.code).toBe(1)
      expect(early.stderr).toContain('the customer has no card setup to confirm')

      const r = await as(newcomer, ['portal', 'payment-methods', 'add', '--confirmation-token', 'ctoken_3ds_required'])
      ok(r)
      const secret = r.stdout.trim()
      expect(secret).toMatch(/^seti_[A-Za-z0-9]+_secret_/)
      const setupIntent = secret.replace(/_secret_.*$/, '')
      expect(r.stderr).toContain(`till portal payment-methods confirm ${setupIntent}`)
      expect(await methodsOf(newcomer)).toEqual([])

      const confirmed = await as(newcomer, ['portal', 'payment-methods', 'confirm', setupIntent, '--json'])
      ok(confirmed)
      const card = json(confirmed)
      expect(card).toMatchObject({customer_id: newcomer.id, type: 'card', method_metadata: {last4: '4242'}})
      const again = await as(newcomer, ['portal', 'payment-methods', 'confirm', setupIntent, '--json'])
      ok(again)
      expect(json(again).id).toBe(card.id)
      expect((await methodsOf(newcomer)).map((m) => m.id)).toEqual([card.id])

      const unknown = await as(newcomer, ['portal', 'payment-methods', 'confirm', 'seti_nothing'])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toContain('Invalid setup_intent_id.')
    })

    it('delete: confirmed (--yes without a terminal); the last card a live subscription needs stays', async () => {
      const [added] = await methodsOf(payer)
      const unconfirmed = await as(payer, ['portal', 'payment-methods', 'delete', added.id])
      expect(unconfirmed.code).toBe(2)
      expect(unconfirmed.stderr).toContain('--yes')
      expect((await methodsOf(payer)).map((m) => m.id)).toContain(added.id)

      ok(await as(payer, ['portal', 'payment-methods', 'delete', added.id, '--yes']))
      const left = await methodsOf(payer)
      expect(left.map((m) => m.id)).not.toContain(added.id)
      expect(json(await as(payer, ['portal', 'customer', 'show', '--json'])).default_payment_method_id).toBeNull()

      // the first payment's card is now the only one, and a subscription still bills it
      expect(left).toHaveLength(1)
      const last = await as(payer, ['portal', 'payment-methods', 'delete', left[0]!.id, '--yes'])
      expect(last.code, last.stderr).toBe(1)
      expect(last.stderr).toContain('the payment method is still needed to bill a subscription')
      expect(last.stderr).toContain('till portal payment-methods add')
      expect(await methodsOf(payer)).toHaveLength(1)

      const missing = await as(payer, ['portal', 'payment-methods', 'delete', unknownId(), '--yes'])
      expect(missing.code).toBe(3)
    })

    it('customer update --default-payment-method takes a saved method only', async () => {
      const [card] = await methodsOf(newcomer)
      const r = await as(newcomer, ['portal', 'customer', 'update', '--default-payment-method', card!.id, '--json'])
      ok(r)
      expect(json(r).default_payment_method_id).toBe(card!.id)
      allowRefusals()
      const other = await as(newcomer, ['portal', 'customer', 'update', '--default-payment-method', unknownId()])
      expect(other.code).toBe(2)
      expect(other.stderr).toContain('Payment method not found.')
    })
  })

  describe('the e-mail change', () => {
    const pending = async (customer: Json) => {
      const res = await control('GET', '/email-verifications')
      expect(res.status, res.text).toBe(200)
      return (res.body.items as Json[]).find((v) => v.customer_id === customer.id)
    }

    it('request, check and verify (token from stdin): the address changes and a new session token is printed', async () => {
      const address = `new-${Date.now()}@example.com`
      const requested = await as(newcomer, ['portal', 'email', 'request', address, '--json'])
      ok(requested)
      expect(json(requested)).toEqual({email: address, status: 'verification_sent'})
      expect(requested.stderr).toContain(`A verification link was sent to ${address}`)
      const {token} = await pending(newcomer)
      expect(token).toMatch(/^polar_cev_/)

      const checked = await till(['portal', 'email', 'check', token])
      ok(checked)
      expect(checked.stdout).toBe('valid\n')
      const asJson = await till(['portal', 'email', 'check', token, '--json'])
      ok(asJson)
      expect(json(asJson)).toEqual({valid: true})

      const verified = await till(['portal', 'email', 'verify', '-'], {}, `${token}\n`)
      ok(verified)
      const session = verified.stdout.trim()
      expect(session).toMatch(/^polar_cst_/)
      expect((await api(env, 'GET', `/customers/${newcomer.id}`)).body).toMatchObject({email: address, email_verified: true})
      const shown = await till(['portal', 'session', 'show', '--json'], {TILL_CUSTOMER_TOKEN: session})
      ok(shown)
      expect(json(shown).email).toBe(address)

      // used up: checking or verifying it again fails in one line
      const stale = await till(['portal', 'email', 'check', token])
      expect(stale.code).toBe(1)
      expect(stale.stderr).toContain('the e-mail change token is invalid or has expired')
      const twice = await till(['portal', 'email', 'verify', token])
      expect(twice.code).toBe(1)
      expect(twice.stderr).toContain('till portal email request')
    })

    it("the service's rules: not the same address; a newer request replaces the pending one; an address taken by then", async () => {
      allowRefusals()
      const same = await as(payer, ['portal', 'email', 'request', payer.email.toUpperCase()])
      expect(same.code).toBe(2)
      expect(same.stderr).toContain('New email is the same as your current email.')

      ok(await as(payer, ['portal', 'email', 'request', 'first@example.com']))
      const first = (await pending(payer)).token
      ok(await as(payer, ['portal', 'email', 'request', 'second@example.com']))
      const second = await pending(payer)
      expect(second.token).not.toBe(first)
      expect((await till(['portal', 'email', 'check', first])).code).toBe(1)

      // another customer takes the address before the link is followed
      const taken = await api(env, 'POST', '/customers/', {body: {email: 'second@example.com'}})
      expect(taken.status, taken.text).toBe(201)
      const r = await till(['portal', 'email', 'verify', second.token])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('This email address is already in use.')
      expect((await api(env, 'GET', `/customers/${payer.id}`)).body.email).toBe(payer.email)
    })
  })

  it("wallets: a top-up's balance, one wallet by id; another customer's is not found", async () => {
    expect(json(await as(payer, ['portal', 'wallets', 'list', '-o', 'json']))).toEqual([])
    expect((await control('POST', `/customers/${payer.id}/wallet`, {amount: 2500})).status).toBe(201)
    const topped = await control('POST', `/customers/${payer.id}/wallet`, {amount: 500, currency: 'usd'})
    expect(topped.body).toMatchObject({customer_id: payer.id, balance: 3000, currency: 'usd'})
    const listed = json(await as(payer, ['portal', 'wallets', 'list', '-o', 'json']))
    expect(listed).toEqual([topped.body])
    const table = await as(payer, ['portal', 'wallets', 'list', '-o', 'table'])
    expect(table.stdout).toContain('$30.00')
    const one = await as(payer, ['portal', 'wallets', 'get', topped.body.id, '--json'])
    ok(one)
    expect(json(one)).toEqual(topped.body)
    expect((await as(newcomer, ['portal', 'wallets', 'get', topped.body.id])).code).toBe(3)
  })

  it("organization show: the organization's portal page, without a customer token", async () => {
    const org = (await api(env, 'GET', '/organizations/')).body.items[0]
    const r = await till(['portal', 'organization', 'show', '--json'])
    ok(r)
    const page = json(r)
    expect(page.organization).toMatchObject({id: org.id, slug: org.slug, name: org.name})
    expect(page.products.length).toBeGreaterThan(0)
    for (const p of page.products) expect(p.is_recurring).toBe(true)
    const named = await till(['portal', 'organization', 'show', org.slug, '-o', 'table'])
    ok(named)
    expect(named.stdout).toContain(org.slug)
    expect((await till(['portal', 'organization', 'show', 'no-such-organization'])).code).toBe(3)
    // with a customer token only, the slug cannot be looked up: one line asking for it
    const customerOnly = await runInProcess(['portal', 'organization', 'show'], {env: box.env({TILL_API_URL: env.url, TILL_TOKEN: undefined})})
    expect(customerOnly.code, customerOnly.stderr).toBe(2)
    expect(customerOnly.stderr).toContain('till portal organization show SLUG')
    const bySlug = await runInProcess(['portal', 'organization', 'show', org.slug, '--json'], {env: box.env({TILL_API_URL: env.url, TILL_TOKEN: undefined})})
    expect(bySlug.code, bySlug.stderr).toBe(0)
  })
})
