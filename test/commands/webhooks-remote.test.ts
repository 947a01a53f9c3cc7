// Webhook deliveries stay on this machine unless asked: the emulator posts to loopback URLs only, records a
// delivery to any other host as failed and not sent (and `webhooks endpoints create` says so on stderr), and
// `till emulator start --allow-remote-webhooks` sends them. A listener on this machine's own address off
// loopback stands for the other host: a delivery sent there opens a connection to it (an endpoint off
// loopback is https, which the listener does not speak, so the attempt itself fails).
import {createServer, type Server} from 'node:net'
import {networkInterfaces} from 'node:os'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'
import {startReceiver} from '../helpers/receiver.js'

/** An IPv4 address of this machine that is not loopback, if it has one. */
const offLoopback = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address

/** Polls `find` until it gives a value, failing after a deadline. */
async function waitFor<T>(what: string, find: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + scaled(10_000)
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const email = () => `remote.${Math.random().toString(36).slice(2, 10)}@example.com`

describe.skipIf(offLoopback === undefined)('webhook deliveries off this machine', {timeout: scaled(60_000)}, () => {
  let box: Sandbox
  let remote: Server
  let remoteUrl: string
  let connections = 0
  beforeAll(async () => {
    box = sandbox()
    remote = createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => remote.listen(0, offLoopback, resolve))
    remoteUrl = `https://${offLoopback}:${(remote.address() as {port: number}).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => remote?.close(resolve))
    box?.cleanup()
  })

  const till = (env: EnvHandle, args: string[]): Promise<CliResult> => runInProcess(args, {env: box.env({...envVars(env), TILL_ENV: 'local'})})

  /** Creates an endpoint for customer.created at `url` with till, then a customer: its id and the endpoint's. */
  async function endpointAndEvent(env: EnvHandle, url: string): Promise<{endpoint: Json; created: CliResult; customerId: string}> {
    const created = await till(env, ['webhooks', 'endpoints', 'create', '--url', url, '--event', 'customer.created', '--json'])
    expect(created.code, created.stderr).toBe(0)
    const customer = await api(env, 'POST', '/customers/', {body: {email: email()}})
    expect(customer.status).toBe(201)
    return {endpoint: JSON.parse(created.stdout), created, customerId: customer.body.id}
  }

  it('records a delivery to another host as not sent, sends nothing, and create says so', async () => {
    const emulator = await startEmulator({quiet: false})
    try {
      const env = emulator.production
      const {endpoint, created, customerId} = await endpointAndEvent(env, `${remoteUrl}/held`)
      expect(created.stderr).toContain(`The emulator sends nothing to ${remoteUrl}/held`)
      expect(created.stderr).toContain('till emulator start --allow-remote-webhooks')
      const delivery = await waitFor('the delivery record', async () => {
        const all = await listAll(env, '/webhooks/deliveries', `endpoint_id=${endpoint.id}`)
        return all.find((d) => d.webhook_event.payload.includes(customerId))
      })
      expect(delivery.succeeded).toBe(false)
      expect(delivery.http_code).toBeNull()
      expect(delivery.response).toMatch(/^not sent: the emulator delivers only to loopback URLs/)
      expect(delivery.response).toContain('--allow-remote-webhooks')
      expect(emulator.stderr()).toContain('not sent')
      expect(connections).toBe(0)
    } finally {
      await emulator.stop()
    }
  })

  it('says nothing of a loopback URL, which is delivered', async () => {
    const local = await startReceiver()
    const emulator = await startEmulator()
    try {
      const {created, customerId} = await endpointAndEvent(emulator.production, `${local.url}/near`)
      expect(created.stderr).not.toContain('sends nothing')
      await waitFor('the delivery', () => local.received.find((r) => r.body.includes(customerId)))
    } finally {
      await emulator.stop()
      await local.close()
    }
  })

  it('sends to another host when started with --allow-remote-webhooks', async () => {
    const emulator = await startEmulator({allowRemoteWebhooks: true})
    try {
      const env = emulator.production
      const before = connections
      const {endpoint, customerId} = await endpointAndEvent(env, `${remoteUrl}/sent`)
      const delivery = await waitFor('the delivery record', async () => {
        const all = await listAll(env, '/webhooks/deliveries', `endpoint_id=${endpoint.id}`)
        return all.find((d) => d.webhook_event.payload.includes(customerId))
      })
      expect(connections).toBeGreaterThan(before)
      expect(delivery.response).not.toMatch(/^not sent/)
    } finally {
      await emulator.stop()
    }
  })
})
