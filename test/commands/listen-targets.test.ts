// till listen with several --forward-to targets, each with its own --events, and --write-env: against the
// emulator, with real receivers on 127.0.0.1 and the listener as a process of its own.
import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, spawnCli, type Running, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, control, startEmulator, type Emulator, type EnvHandle} from '../helpers/emulator.js'
import {brief} from '../helpers/expect.js'
import {eventually, scaled} from '../helpers/machine.js'
import {startReceiver, type Receiver} from '../helpers/receiver.js'

const typeOf = (r: {body: string}) => (JSON.parse(r.body) as {type: string}).type
const idOf = (r: {body: string}) => (JSON.parse(r.body) as {data: {id: string}}).data.id

describe('till listen: several targets, and the secret in a dotenv file', () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  let vars: NodeJS.ProcessEnv
  let orders: Receiver
  let customers: Receiver
  const running: Running[] = []
  let listeners = 0
  const folder = mkdtempSync(join(tmpdir(), 'till-listen-env-'))

  /** `till listen ARGS` as a process, once its stream is open. */
  const listen = async (args: string[]): Promise<Running> => {
    const r = spawnCli(['listen', ...args], {env: vars, timeoutMs: scaled(90_000)})
    running.push(r)
    listeners++
    await eventually('the listener to connect', async () => (await control(env, 'GET', '/listeners')).body?.listeners === listeners, 20_000)
    return r
  }

  beforeAll(async () => {
    emulator = await startEmulator({orders: 0, customers: 1, products: 1})
    env = emulator.production
    box = sandbox()
    vars = box.env(envVars(env))
    orders = await startReceiver()
    customers = await startReceiver()
  })
  afterAll(async () => {
    for (const r of running) r.child.kill('SIGKILL')
    await orders?.close()
    await customers?.close()
    await emulator?.stop()
    box?.cleanup()
    rmSync(folder, {recursive: true, force: true})
  })

  it('each --events goes with the --forward-to before it; each line names its target, status and time', async () => {
    const a = `${orders.url}/created`
    const b = `${customers.url}/updated`
    const listener = await listen(['--forward-to', a, '--events', 'customer.created', '--forward-to', b, '--events', 'customer.updated'])
    // the stream opens before the line saying where it forwards reaches this process: waited for
    const said = `forwarding to ${a} (customer.created) and ${b} (customer.updated)`
    await eventually('the line naming the targets', () => listener.stderr().includes(said), 10_000)
    const made = await api(env, 'POST', '/customers/', {body: {email: 'targets@example.com'}})
    expect(made.status, brief(made)).toBe(201)
    const patched = await api(env, 'PATCH', `/customers/${made.body.id}`, {body: {name: 'Two Targets'}})
    expect(patched.status, brief(patched)).toBe(200)
    const mine = (r: Receiver) => r.received.filter((x) => idOf(x) === made.body.id).map(typeOf)
    await eventually('both forwards', () => mine(orders).length > 0 && mine(customers).length > 0)
    await eventually('both lines', () => listener.stdout().includes(b))
    expect(mine(orders)).toEqual(['customer.created'])
    expect(mine(customers)).toEqual(['customer.updated'])
    const lines = listener.stdout().trim().split('\n')
    expect(lines.find((l) => l.includes('customer.created'))).toMatch(new RegExp(`-> ${a} 200 in \\d+ ms$`))
    expect(lines.find((l) => l.includes('customer.updated'))).toMatch(new RegExp(`-> ${b} 200 in \\d+ ms$`))
  })

  it('--write-env puts POLAR_WEBHOOK_SECRET in the file in place of the old one, mode 0600, and prints it nowhere', async () => {
    const file = join(folder, '.env')
    writeFileSync(file, 'DATABASE_URL=postgres://localhost/app\nPOLAR_WEBHOOK_SECRET=old\n# keep me\n', {mode: 0o644})
    const secret = await runInProcess(['listen', '--print-secret'], {env: vars})
    expect(secret.code, secret.stderr).toBe(0)
    const listener = await listen(['--forward-to', `${orders.url}/env`, '--write-env', file])
    await eventually('the file written', () => readFileSync(file, 'utf8').includes(secret.stdout.trim()))
    expect(readFileSync(file, 'utf8')).toBe(`DATABASE_URL=postgres://localhost/app\nPOLAR_WEBHOOK_SECRET=${secret.stdout.trim()}\n# keep me\n`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    await eventually('the ready note', () => listener.stderr().includes(`written to ${file} as POLAR_WEBHOOK_SECRET`))
    expect(listener.stderr()).not.toContain(secret.stdout.trim())
    expect(listener.stdout()).not.toContain(secret.stdout.trim())

    // a file without the line gets it added; a folder that does not exist is refused before connecting
    const fresh = join(folder, 'fresh.env')
    writeFileSync(fresh, 'A=1')
    await listen(['--write-env', fresh])
    await eventually('the line added', () => readFileSync(fresh, 'utf8') === `A=1\nPOLAR_WEBHOOK_SECRET=${secret.stdout.trim()}\n`)
    const refused = await runInProcess(['listen', '--write-env', join(folder, 'missing', '.env')], {env: vars})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/--write-env .*: the folder .* does not exist/)
  })

  it('refuses a target that is not an http URL and an unknown event type of a target', async () => {
    const ftp = await runInProcess(['listen', '--forward-to', 'ftp://localhost/x'], {env: vars})
    expect(ftp.code).toBe(2)
    expect(ftp.stderr).toMatch(/--forward-to must be an http or https URL, not ftp/)
    const unknown = await runInProcess(['listen', '--forward-to', orders.url, '--events', 'order.payed'], {env: vars})
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/--events: unknown event type order\.payed/)
  })
})
