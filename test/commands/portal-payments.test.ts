// The portal's order payments against the emulator, in-process and in the contract mode: an order's
// receipt, its payment status, the customer's retry of a failed renewal payment (a saved method, a new
// card's token, a declined one, an order not eligible, the limit of five), and the portal's own
// cancellation (DELETE) when no reason is given.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {expectNoToken, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, control as controlRoute, listAll, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {recordingTill} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

describe('till portal: order payments', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let subscriptions: Json[]
  let orders: Json[]

  const {till, outputs} = recordingTill(
    () => box,
    () => env,
  )
  const as = (customerId: string, args: string[], extra: Record<string, string | undefined> = {}) => till([...args, '--as-customer-id', customerId], extra)
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const json = (r: CliResult) => JSON.parse(r.stdout)
  const control = (path: string) => controlRoute(env, 'POST', path)
  /** A live subscription of its own customer, renewed now with a payment that fails: its pending order. */
  const failedRenewal = async (): Promise<{subscription: Json; order: Json}> => {
    const s = subscriptions.shift()!
    const res = await control(`/subscriptions/${s.id}/fail-payment`)
    expect(res.status, res.text).toBe(200)
    expect(res.body.subscription.status).toBe('past_due')
    return {subscription: res.body.subscription, order: res.body.order}
  }

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '0s'})
    env = emulator.production
    orders = await listAll(env, '/orders/')
    const paid = (customerId: string) => orders.some((o) => o.customer_id === customerId && o.status === 'paid' && o.total_amount > 0)
    const all = await listAll(env, '/subscriptions/', 'status=active')
    // one subscription per customer, of customers who have paid (so a saved card); not one set to cancel at
    // its period's end, which renews no more
    const seen = new Set<string>()
    subscriptions = all.filter((s) => s.amount > 0 && !s.cancel_at_period_end && paid(s.customer_id) && !seen.has(s.customer_id) && seen.add(s.customer_id))
    expect(subscriptions.length, 'active paid subscriptions of distinct paying customers').toBeGreaterThanOrEqual(4)
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const text of outputs) expectNoToken(text, env.token)
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it("receipt: a paid order's URL (a PDF), saved with --download; another customer's order is not found", async () => {
    const order = orders.find((o) => o.status === 'paid')!
    const r = await as(order.customer_id, ['portal', 'orders', 'receipt', order.id])
    ok(r)
    const url = r.stdout.trim()
    const pdf = await fetch(url)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const file = `${box.root}/receipt.pdf`
    const saved = await as(order.customer_id, ['portal', 'orders', 'receipt', order.id, '--download', file, '--json'])
    ok(saved)
    expect(json(saved)).toMatchObject({order_id: order.id, file})
    const other = orders.find((o) => o.customer_id !== order.customer_id)!
    expect((await as(other.customer_id, ['portal', 'orders', 'receipt', order.id])).code).toBe(3)
  })

  it('payment-status and retry-payment with a saved card: the order is paid and the subscription active again', async () => {
    const {subscription, order} = await failedRenewal()
    const status = await as(order.customer_id, ['portal', 'orders', 'payment-status', order.id, '--json'])
    ok(status)
    expect(json(status)).toEqual({order_id: order.id, status: 'failed', error: 'Your card was declined.'})
    const paid = orders.find((o) => o.customer_id === order.customer_id && o.status === 'paid')!
    expect(json(await as(order.customer_id, ['portal', 'orders', 'payment-status', paid.id, '--json'])).status).toBe('succeeded')

    const [card] = json(await as(order.customer_id, ['portal', 'payment-methods', 'list', '-o', 'json']))
    // without a terminal, --yes is needed and nothing is charged
    const refused = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--payment-method', card.id])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--yes')
    const dry = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--payment-method', card.id, '--dry-run'])
    ok(dry)
    expect(dry.stdout).toMatch(/^Dry run: would charge \$[\d.,]+ for order/)
    expect((await api(env, 'GET', `/orders/${order.id}`)).body.status).toBe('pending')

    const r = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--payment-method', card.id, '--yes', '--json'])
    ok(r)
    expect(json(r)).toMatchObject({order_id: order.id, status: 'succeeded', error: null})
    expect((await api(env, 'GET', `/orders/${order.id}`)).body.status).toBe('paid')
    expect((await api(env, 'GET', `/subscriptions/${subscription.id}`)).body.status).toBe('active')
    expect(json(await as(order.customer_id, ['portal', 'orders', 'payment-status', order.id, '--json'])).status).toBe('succeeded')

    // paid now: not eligible for another retry
    const again = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--payment-method', card.id, '--yes'])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(`order ${order.id} has no failed payment to retry`)
    expect(again.stderr).toContain(`till portal orders payment-status ${order.id}`)
  })

  it('retry-payment with a new card: a declined one exits 1 naming why; a 3-D Secure one prints its client secret', async () => {
    const {order} = await failedRenewal()
    const declined = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--confirmation-token', 'ctoken_declined', '--yes'])
    expect(declined.code).toBe(1)
    expect(declined.stderr).toContain(`the payment of order ${order.id} failed: Your card was declined.`)
    expect(declined.stdout).toBe('')
    const action = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--confirmation-token', 'ctoken_3ds', '--yes', '--json'])
    ok(action)
    expect(json(action)).toMatchObject({status: 'requires_action', client_secret: expect.stringMatching(/^pi_.+_secret_/)})
    expect((await api(env, 'GET', `/orders/${order.id}`)).body.status).toBe('pending')
    // exactly one way to pay
    const both = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--yes'])
    expect(both.code).toBe(2)
  })

  it('the customer may retry five times; the sixth is refused by the service', async () => {
    const {order} = await failedRenewal()
    const session = await api(env, 'POST', '/customer-sessions/', {body: {customer_id: order.customer_id}})
    const retry = () =>
      api(env, 'POST', `/customer-portal/orders/${order.id}/confirm-payment`, {
        token: session.body.token,
        body: {confirmation_token_id: 'ctoken_declined'},
        noRetry: true,
      })
    for (let i = 0; i < 5; i++) expect((await retry()).body.status).toBe('failed')
    const sixth = await retry()
    expect(sixth.status).toBe(429)
    expect(sixth.body).toEqual({
      error: 'ManualRetryLimitExceeded',
      detail: `Maximum number of manual payment retry attempts has been reached for order ${order.id}.`,
    })
    // till reads it as the service's answer, not as a rate limit to wait out
    const r = await as(order.customer_id, ['portal', 'orders', 'retry-payment', order.id, '--confirmation-token', 'ctoken_visa', '--yes'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`order ${order.id} has had the 5 payment retries a customer may start`)
    expect(r.ms).toBeLessThan(scaled(5000))
  })

  it('subscriptions cancel without a reason sends the portal cancellation (DELETE): at period end', async () => {
    const s = subscriptions.shift()!
    const r = await as(s.customer_id, ['portal', 'subscriptions', 'cancel', s.id, '--yes', '--json'], {TILL_DEBUG: '1'})
    ok(r)
    expect(r.stderr).toMatch(new RegExp(`DELETE \\S*/customer-portal/subscriptions/${s.id}`))
    expect(json(r)).toMatchObject({id: s.id, status: 'active', cancel_at_period_end: true, customer_cancellation_reason: null})
    // done already: said so, nothing sent
    const again = await as(s.customer_id, ['portal', 'subscriptions', 'cancel', s.id, '--yes', '--json'])
    ok(again)
    expect(json(again).cancel_at_period_end).toBe(true)
  })
})
