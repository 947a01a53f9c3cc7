// till listen and till trigger --through-api end to end against the emulator: events forwarded to a local
// receiver with their signed bytes, verified with the secret --print-secret prints by the SDK's
// validateEvent; a reconnect message in the middle goes unnoticed; a local receiver down then up.
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {validateEvent} from '@polar-sh/sdk-0.49/webhooks'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, spawnCli, type Running, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {eventually, scaled} from '../helpers/machine.js'
import {startReceiver} from '../helpers/receiver.js'

interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/** A local webhook receiver that can be stopped and started again on the same port. */
function receiver() {
  const received: Received[] = []
  let server: Server | undefined
  let port = 0
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          received.push({headers: req.headers, body: Buffer.concat(chunks).toString('utf8')})
          res.writeHead(200).end('ok')
        })
      })
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port
        resolve()
      })
    })
  const stop = () =>
    new Promise<void>((resolve) => {
      server?.close(() => resolve())
      server?.closeAllConnections()
    })
  return {received, start, stop, url: () => `http://127.0.0.1:${port}/hook`}
}

/** `eventually` (helpers/machine.ts) with this file's default: 15 s, scaled to the machine. */
const waitFor = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000): Promise<T> => eventually(what, check, ms)

const typeOf = (r: Received) => (JSON.parse(r.body) as {type: string}).type
const dataOf = (r: Received) => (JSON.parse(r.body) as {data: {id: string; checkout_id?: string}}).data

describe('till listen and till trigger --through-api', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let vars: NodeJS.ProcessEnv
  const local = receiver()
  let listener: Running

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '300ms', orders: 5, customers: 5, products: 4})
    env = emulator.production
    box = sandbox()
    vars = box.env(envVars(env))
    await local.start()
    listener = spawnCli(['listen', '--forward-to', local.url()], {env: vars, timeoutMs: scaled(120_000)})
    await waitFor('the listener to connect', async () => (await control(env, 'GET', '/listeners')).body?.listeners === 1)
  })

  afterAll(async () => {
    listener?.child.kill('SIGKILL')
    await local.stop()
    await emulator?.stop()
    box?.cleanup()
  })

  it('forwards order.created, order.updated and order.paid of a triggered order, each once, verified by the SDK with the printed secret', async () => {
    const secret = await runInProcess(['listen', '--print-secret'], {env: vars})
    expect(secret.code, secret.stderr).toBe(0)
    expect(secret.stdout).toBe(`${env.organizationId.replaceAll('-', '')}\n`)

    const trigger = await runInProcess(['trigger', 'order.paid', '--through-api'], {env: vars, timeoutMs: scaled(60_000)})
    expect(trigger.code, trigger.stderr).toBe(0)
    const checkoutId = /^checkout\t(\S+)$/m.exec(trigger.stdout)![1]!
    const orderId = /^order\t(\S+)$/m.exec(trigger.stdout)![1]!
    const mine = () => local.received.filter((r) => typeOf(r).startsWith('order.') && dataOf(r).id === orderId)
    await waitFor('three order events', () => mine().length >= 3)
    // forwarded one at a time in the stream's order (src/areas/webhooks/listen.ts)
    expect(mine().map(typeOf)).toEqual(['order.created', 'order.updated', 'order.paid'])
    expect(dataOf(mine().find((r) => typeOf(r) === 'order.created')!).checkout_id).toBe(checkoutId)
    const key = secret.stdout.trim()
    for (const r of mine()) {
      const event = validateEvent(r.body, r.headers as Record<string, string>, key)
      expect(event.type).toBe(typeOf(r))
      expect(r.headers['webhook-id']).toMatch(/^[0-9a-f-]{36}$/)
      expect(r.headers['user-agent']).toBe('polar.sh webhooks')
      // the stream's payloads, of no endpoint, are of the current version, named in the body and the header
      expect(JSON.parse(r.body).api_version).toBe('2026-10')
      expect(r.headers['webhook-api-version']).toBe('2026-10')
      // A wrong secret or a changed byte is refused.
      expect(() => validateEvent(r.body, r.headers as Record<string, string>, `${key}x`)).toThrow()
      expect(() => validateEvent(`${r.body} `, r.headers as Record<string, string>, key)).toThrow()
    }
    // One line per event on stdout: time, type, event id, the order's id, the local answer.
    await waitFor('the listener lines', () => listener.stdout().includes(`order.paid`))
    const line = listener
      .stdout()
      .split('\n')
      .find((l) => l.includes('order.paid') && l.includes(orderId))!
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}order\.paid +[0-9a-f-]{36} {2}\([0-9a-f-]{36}\) {2}-> 200 in \d+ ms$/)
  })

  it('a reconnect message in the middle goes unnoticed, and events after the new stream opened all arrive', async () => {
    const before = (await control(env, 'GET', '/listeners')).body.streams_opened as number
    const stderrBefore = listener.stderr()
    const asked = await control(env, 'POST', '/listeners/reconnect')
    expect(asked.body).toEqual({reconnected: 1})
    await waitFor('the new stream', async () => {
      const state = (await control(env, 'GET', '/listeners')).body
      return state.listeners === 1 && state.streams_opened === before + 1
    })
    const names = ['After Reconnect One', 'After Reconnect Two', 'After Reconnect Three']
    const ids: string[] = []
    for (const name of names) {
      const res = await api(env, 'POST', '/products/', {body: {name, prices: [{amount_type: 'fixed', price_amount: 700}]}})
      expect(res.status).toBe(201)
      ids.push(res.body.id)
    }
    await waitFor('the three product.created events', () =>
      ids.every((id) => local.received.some((r) => typeOf(r) === 'product.created' && dataOf(r).id === id)),
    )
    expect(listener.stderr()).toBe(stderrBefore)
    expect(listener.child.exitCode).toBeNull()
  })

  it('keeps listening while the local receiver is down, and forwards again once it is back', async () => {
    await local.stop()
    const down = await api(env, 'POST', '/customers/', {body: {email: 'listen.down@example.com'}})
    expect(down.status).toBe(201)
    await waitFor('the failed forward line', () =>
      listener
        .stdout()
        .split('\n')
        .some((l) => l.includes(down.body.id) && l.includes('-> failed: connection refused')),
    )
    await waitFor('the note that the receiver is down', () => listener.stderr().includes(`Nothing answers at ${local.url()}`))
    await local.start()
    const up = await api(env, 'POST', '/customers/', {body: {email: 'listen.up@example.com'}})
    expect(up.status).toBe(201)
    await waitFor('the event after the receiver came back', () => local.received.some((r) => typeOf(r) === 'customer.created' && dataOf(r).id === up.body.id))
    expect(local.received.some((r) => dataOf(r).id === down.body.id)).toBe(false)
    // said once the forward's answer is back, which may be just after the receiver saw it
    await waitFor('the note that the receiver answers again', () => listener.stderr().includes(`${local.url()} answers again.`))
  })

  it('--json prints each event as one JSON line, --events filters, Ctrl-C exits 130 without a stack trace', async () => {
    const json = spawnCli(['listen', '--json', '--events', 'product.updated'], {env: vars, timeoutMs: scaled(60_000)})
    await waitFor('the second listener', async () => (await control(env, 'GET', '/listeners')).body.listeners === 2)
    const created = await api(env, 'POST', '/products/', {body: {name: 'Json Listen', prices: [{amount_type: 'fixed', price_amount: 300}]}})
    await api(env, 'PATCH', `/products/${created.body.id}`, {body: {description: 'changed'}})
    await waitFor('the JSON line', () => json.stdout().includes('\n'))
    const lines = json
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as {type: string; data: {id: string}})
    expect(lines.map((l) => [l.type, l.data.id])).toEqual([['product.updated', created.body.id]])
    json.child.kill('SIGINT')
    const done = await json.done
    expect(done.code).toBe(130)
    expect(done.stderr).not.toMatch(/\n\s+at /)
  })

  it('triggers the seat events of a seat-based subscription: assigned, claimed, revoked', async () => {
    for (const type of ['customer_seat.assigned', 'customer_seat.claimed', 'customer_seat.revoked']) {
      const made = await runInProcess(['trigger', type, '--through-api'], {env: vars, timeoutMs: scaled(60_000)})
      expect(made.code, made.stderr).toBe(0)
      const seatId = /^seat\t(\S+)$/m.exec(made.stdout)![1]!
      await waitFor(type, () => local.received.some((r) => typeOf(r) === type && dataOf(r).id === seatId))
    }
  })

  it('triggers the member events of a team customer: created, updated (its role), deleted', async () => {
    for (const type of ['member.created', 'member.updated', 'member.deleted']) {
      const made = await runInProcess(['trigger', type, '--through-api'], {env: vars})
      expect(made.code, made.stderr).toBe(0)
      const memberId = /^member\t(\S+)$/m.exec(made.stdout)![1]!
      await waitFor(type, () => local.received.some((r) => typeOf(r) === type && dataOf(r).id === memberId))
    }
    const updated = local.received.find((r) => typeOf(r) === 'member.updated')
    expect(dataOf(updated!)).toMatchObject({role: 'billing_manager'})
  })

  it('till emulator subcommands use the control surface: renew, a failing payment, pay now, reconnect the listeners', async () => {
    const made = await runInProcess(['trigger', 'subscription.created', '--through-api'], {env: vars, timeoutMs: scaled(60_000)})
    expect(made.code, made.stderr).toBe(0)
    const subscriptionId = /^subscription\t(\S+)$/m.exec(made.stdout)![1]!
    const failed = await runInProcess(['emulator', 'renew', subscriptionId, '--fail-payment', '--json'], {env: vars})
    expect(failed.code, failed.stderr).toBe(0)
    const result = JSON.parse(failed.stdout) as {subscription: {status: string}; order: {id: string; status: string; billing_reason: string}}
    expect(result.subscription.status).toBe('past_due')
    expect(result.order).toMatchObject({status: 'pending', billing_reason: 'subscription_cycle'})
    await waitFor('subscription.past_due', () => local.received.some((r) => typeOf(r) === 'subscription.past_due' && dataOf(r).id === subscriptionId))
    const paid = await runInProcess(['emulator', 'pay', result.order.id, '--json'], {env: vars})
    expect(paid.code, paid.stderr).toBe(0)
    expect(JSON.parse(paid.stdout)).toMatchObject({id: result.order.id, status: 'paid'})
    await waitFor('order.paid of the renewal', () => local.received.some((r) => typeOf(r) === 'order.paid' && dataOf(r).id === result.order.id))
    const again = await runInProcess(['emulator', 'pay', result.order.id], {env: vars})
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('not pending')
    const renewed = await runInProcess(['emulator', 'renew', subscriptionId, '--json'], {env: vars})
    expect(JSON.parse(renewed.stdout).subscription.status).toBe('active')
    await waitFor(
      'subscription.cycled',
      () => local.received.filter((r) => typeOf(r) === 'subscription.cycled' && dataOf(r).id === subscriptionId).length === 2,
    )
    const reconnect = await runInProcess(['emulator', 'reconnect-listeners'], {env: vars})
    expect(reconnect.stdout).toBe('1\n')
    const missing = await runInProcess(['emulator', 'renew', crypto.randomUUID()], {env: vars})
    expect(missing.code).toBe(3)
  })

  it("the emulator's stream speaks the service's framing: connected with the secret, webhook.created with the raw payload string and its signed headers", async () => {
    const other = await api(env, 'GET', `/cli/listen/${crypto.randomUUID()}`)
    expect(other.status).toBe(404)
    expect(other.body).toEqual({error: 'ResourceNotFound', detail: 'Not found'})
    expect((await api(env, 'GET', `/cli/listen/${env.organizationId}`, {token: null})).status).toBe(401)
    const controller = new AbortController()
    const res = await fetch(`${env.url}/cli/listen/${env.organizationId}`, {headers: {authorization: `Bearer ${env.token}`}, signal: controller.signal})
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = res.body!.getReader()
    let text = ''
    const frames = async (n: number) => {
      while (text.split('\r\n\r\n').length - 1 < n) text += new TextDecoder().decode((await reader.read()).value)
      return (
        text
          .split('\r\n\r\n')
          .slice(0, n)
          // biome-ignore lint/suspicious/noExplicitAny: frames are read field by field
          .map((f) => JSON.parse(f.replace(/^data: /, '')) as Record<string, any>)
      )
    }
    const [connected] = await frames(1)
    expect(Object.keys(connected!).sort()).toEqual(['key', 'secret', 'ts'])
    expect(connected).toMatchObject({key: 'connected', secret: env.organizationId.replaceAll('-', '')})
    expect(connected!.ts).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00:00$/)
    await api(env, 'POST', '/benefits/', {body: {type: 'custom', description: 'Framing check', properties: {note: null}}})
    // events of earlier tests' delayed work (a payment settling) may come first: each message is checked,
    // and the benefit's is the one looked for
    let event: {type: string} | undefined
    for (let n = 2; event?.type !== 'benefit.created'; n++) {
      expect(n, 'the benefit.created message within 10 frames').toBeLessThan(12)
      const message = (await frames(n))[n - 1]!
      expect(Object.keys(message).sort()).toEqual(['headers', 'id', 'key', 'payload'])
      expect(message.key).toBe('webhook.created')
      expect(Object.keys(message.payload).sort()).toEqual(['payload', 'triggered', 'webhook_event_id'])
      expect(typeof message.payload.payload).toBe('string')
      const names = ['content-type', 'user-agent', 'webhook-api-version', 'webhook-id', 'webhook-signature', 'webhook-timestamp']
      expect(Object.keys(message.headers).sort()).toEqual(names)
      expect(message.headers['webhook-api-version']).toBe('2026-10')
      expect(JSON.parse(message.payload.payload)).toMatchObject({api_version: '2026-10'})
      expect(message.headers['webhook-id']).toBe(message.payload.webhook_event_id)
      event = validateEvent(message.payload.payload, message.headers, connected!.secret)
    }
    controller.abort()
    expect(event.type).toBe('benefit.created')
  })

  it('refuses production, a bad token and unknown events with one clear line and the documented code', async () => {
    // the service's production (an emulator's production, on loopback, is the emulator: it runs there)
    const real = {TILL_ENV: 'production', TILL_API_URL: 'https://api.polar.invalid/v1'}
    const production = await runInProcess(['trigger', 'order.paid', '--through-api'], {env: box.env(envVars(env, real))})
    expect(production.code).toBe(2)
    expect(production.stderr).toMatch(/does not run on production/)
    // The emulator's sandbox, on loopback, is the emulator whatever the profile's environment: its checkouts
    // are paid through the control surface, so a refund can be made there
    const sandboxVars = box.env(envVars(emulator.sandbox, {TILL_ENV: 'sandbox'}))
    const refund = await runInProcess(['trigger', 'refund.created', '--through-api'], {env: sandboxVars, timeoutMs: scaled(60_000)})
    expect(refund.code, refund.stderr).toBe(0)
    expect(refund.stderr).not.toContain('sandbox cannot pay a checkout through the API')
    const unknown = await runInProcess(['trigger', 'order.nope', '--through-api'], {env: vars})
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('till cannot trigger "order.nope"')
    const badEvents = await runInProcess(['listen', '--events', 'order.nope'], {env: vars})
    expect(badEvents.code).toBe(2)
    const badToken = await runInProcess(['listen'], {env: box.env({...envVars(env), TILL_TOKEN: 'polar_oat_notARealTokenAtAll0000000000000000000000'})})
    expect(badToken.code).toBe(4)
    expect(badToken.stderr).toMatch(/profile "local".*TILL_TOKEN/)
    expect(badToken.stderr).not.toContain('notARealToken')
    const list = await runInProcess(['trigger', '--list', '--through-api'], {env: vars})
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('order.refunded, refund.created')
  })

  it(
    "a clock walk's events reach a slow local server through --forward-to one at a time, in time order",
    async () => {
      // each answer takes 150 ms, so that a walk's events, all on the stream at once, would be sent side by
      // side by anything but one forward at a time (the earlier order wait of 3 s from arrival let them through)
      const slow = await startReceiver(() => new Promise<number>((resolve) => setTimeout(() => resolve(200), 150)))
      const url = `${slow.url}/hook`
      const before = (await control(env, 'GET', '/listeners')).body.listeners as number
      const second = spawnCli(['listen', '--forward-to', url], {env: vars, timeoutMs: scaled(180_000)})
      try {
        await waitFor('the second listener to connect', async () => (await control(env, 'GET', '/listeners')).body?.listeners === before + 1)
        const walk = await control(env, 'POST', 'clock/advance', {body: {duration: '2mo'}})
        expect(walk.status, walk.text).toBe(200)
        const total = walk.body.total_events as number
        expect(total).toBeGreaterThan(30)
        await waitFor(`the ${total} events of the walk`, () => slow.received.filter((r) => r.status !== 0).length >= total, 120_000)
        const arrived = slow.received
        // never two in flight: each arrives once the one before was answered
        for (let i = 1; i < arrived.length; i++) expect(arrived[i]!.at, `event ${i} of ${arrived.length}`).toBeGreaterThanOrEqual(arrived[i - 1]!.answeredAt)
        const times = arrived.map((r) => Date.parse((JSON.parse(r.body) as {timestamp: string}).timestamp))
        expect(times).toEqual([...times].sort((a, b) => a - b))
      } finally {
        second.child.kill('SIGTERM')
        await second.done
        await slow.close()
      }
    },
    scaled(120_000),
  )
})
