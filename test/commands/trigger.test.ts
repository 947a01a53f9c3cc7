// till trigger on the service's trigger routes (the emulator's, as the service answers them): --list, a
// delivered sample event forwarded by till listen with x-polar-triggered, --override, --seed, --json
// (nothing sent), the 409 answered with the till listen command, a refused override shown at its path.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {validateEvent} from '@polar-sh/sdk-0.49/webhooks'

import {envVars, sandbox, spawnCli, type Running, type Sandbox} from '../helpers/cli.js'
import {api, control, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {eventually, scaled} from '../helpers/machine.js'
import {startReceiver, type Receiver} from '../helpers/receiver.js'

describe('till trigger', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let vars: NodeJS.ProcessEnv
  let receiver: Receiver
  let listener: Running | undefined

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
    vars = box.env(envVars(env))
    receiver = await startReceiver()
  })

  afterAll(async () => {
    listener?.child.kill('SIGKILL')
    await receiver?.close()
    await emulator?.stop()
    box?.cleanup()
  })

  const trigger = (args: string[], extra: NodeJS.ProcessEnv = {}) => runInProcess(['trigger', ...args], {env: {...vars, ...extra}})

  it('--list shows every event the service can trigger with when it is sent; --json gives them as JSON', async () => {
    const list = await trigger(['--list'])
    expect(list.code, list.stderr).toBe(0)
    const lines = list.stdout.trim().split('\n')
    expect(lines).toContain('order.paid\tSent when an order is paid.')
    expect(lines).toHaveLength((await api(env, 'GET', '/cli/events')).body.length)
    const json = await trigger(['--list', '--json'])
    expect(JSON.parse(json.stdout)).toEqual((await api(env, 'GET', '/cli/events')).body)
  })

  it('--json prints the payload and sends nothing; --override values are JSON where they read as JSON, else text; --seed repeats', async () => {
    const args = ['order.paid', '--json', '--seed', '3', '--override', 'data.total_amount=4200', '--override', 'data.metadata.plan=pro plan']
    const first = await trigger([...args, '--override', 'data.metadata.flag=true', '--override', 'data.metadata.note="7"'])
    expect(first.code, first.stderr).toBe(0)
    const payload = JSON.parse(first.stdout)
    expect(payload).toMatchObject({type: 'order.paid', api_version: '2026-10'})
    expect(payload.data.total_amount).toBe(4200)
    expect(payload.data.metadata).toMatchObject({plan: 'pro plan', flag: true, note: '7'})
    const again = JSON.parse((await trigger(args)).stdout)
    expect(again.data.id).toBe(payload.data.id)
    // one value per --override: the event may come after it
    const before = await trigger(['--override', 'data.total_amount=1', 'order.paid', '--json'])
    expect(before.code, before.stderr).toBe(0)
    expect(JSON.parse(before.stdout).data.total_amount).toBe(1)
    // production too: nothing is made, so every environment takes it
    const production = await trigger(['customer.created', '--json'], {TILL_ENV: 'production'})
    expect(production.code, production.stderr).toBe(0)
    expect(receiver.received).toHaveLength(0)
  })

  it('with nothing listening, exits 1 naming the till listen command to run', async () => {
    expect((await control(env, 'GET', '/listeners')).body.listeners).toBe(0)
    const res = await trigger(['order.paid'])
    expect(res.code).toBe(1)
    expect(res.stderr).toContain(`nothing is listening for the events of organization ${env.organizationId}, so order.paid was not sent`)
    expect(res.stderr).toContain('till listen --profile local')
    expect(res.stderr).not.toMatch(/\n\s+at /)
  })

  it('a delivered event reaches the local server through till listen with x-polar-triggered: true, signed, overridden', async () => {
    listener = spawnCli(['listen', '--forward-to', `${receiver.url}/hook`], {env: vars, timeoutMs: scaled(120_000)})
    await eventually('the listener to connect', async () => (await control(env, 'GET', '/listeners')).body?.listeners === 1)
    const res = await trigger(['subscription.canceled', '--override', 'data.customer.email=ada@example.com'])
    expect(res.code, res.stderr).toBe(0)
    const id = res.stdout.trim()
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.stderr).toContain('nothing was created')
    const got = await eventually('the forwarded event', () => receiver.received.find((r) => r.headers['webhook-id'] === id))
    expect(got.headers['x-polar-triggered']).toBe('true')
    const secret = env.organizationId.replaceAll('-', '')
    const event = validateEvent(got.body, got.headers as Record<string, string>, secret) as {type: string; data: {customer: {email: string}}}
    expect(event.type).toBe('subscription.canceled')
    expect(event.data.customer.email).toBe('ada@example.com')
  })

  it('a refused override is shown at its path, without the request segments, exit 2; bad flags are usage errors', async () => {
    const dropped = await trigger(['order.paid', '--json', '--override', 'data.nope=1'])
    expect(dropped.code).toBe(2)
    expect(dropped.stderr).toContain("  data.nope: 'data.nope' is not a field of this payload")
    expect(dropped.stderr).not.toMatch(/body|overrides\./)
    const index = await trigger(['order.paid', '--json', '--override', 'data.items.5.label=x'])
    expect(index.stderr).toContain('  data.items.5.label: List index 5 is out of range')
    const type = await trigger(['order.paid', '--json', '--override', 'type=order.created'])
    expect(type.stderr).toContain("  type: 'type' cannot be overridden")
    const syntax = await trigger(['order.paid', '--override', 'data.total_amount'])
    expect(syntax.code).toBe(2)
    expect(syntax.stderr).toContain('--override takes path=value, not "data.total_amount"')
    const unknown = await trigger(['order.payed', '--json'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('the service cannot trigger "order.payed"; did you mean order.paid?')
    const mixed = await trigger(['order.paid', '--through-api', '--seed', '1'])
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toContain('do not go with --through-api')
  })
})
