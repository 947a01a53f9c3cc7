// The webhook commands and the two ways the service signs deliveries: endpoints show their API version and
// signing way, `webhooks verify` checks both as the service's SDK does over the exact bytes received and
// names the way, update sets the API version and asks before turning deliveries off. Real deliveries of
// the emulator reach a receiver on 127.0.0.1, checked with the stock standardwebhooks package.
import {createHmac} from 'node:crypto'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {Webhook} from 'standardwebhooks'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {emulatorAndSandbox, envVars, KEY, linesOf, runAnswering, sh, TILL, type CliResult} from '../helpers/cli.js'
import {api, listAll, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'
import {startReceiver, type Received, type Receiver} from '../helpers/receiver.js'

const shared = emulatorAndSandbox()
const env = () => shared.emulator.production
type Vars = Record<string, string | undefined>
const vars = (extra: Vars = {}) => shared.box.env({...envVars(env()), TILL_ENV: 'local', ...extra})
function till(args: string[], opts: {input?: string; extra?: Vars} = {}): Promise<CliResult> {
  return runInProcess(args, {env: vars(opts.extra), input: opts.input})
}
/** `webhooks endpoints create` to the receiver's `url`, for `event`, with `extra` flags. */
function createArgs(url: string, event: string, ...extra: string[]): string[] {
  return ['webhooks', 'endpoints', 'create', '--url', url, '--event', event, ...extra]
}
const json = (r: CliResult): Json => JSON.parse(r.stdout)

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
})

describe('webhook endpoints, their signing and webhooks verify', {timeout: scaled(60_000)}, () => {
  let receiver: Receiver
  let dir: string

  beforeAll(async () => {
    receiver = await startReceiver()
    dir = mkdtempSync(join(tmpdir(), 'till-signing-'))
  })
  afterAll(async () => {
    await receiver?.close()
    rmSync(dir, {recursive: true, force: true})
  })

  /** Makes a customer and waits for the delivery of its customer.created to `path`. */
  const delivered = async (path: string): Promise<Received> => {
    const email = `verify.${Math.random().toString(36).slice(2, 10)}@example.com`
    const customer = await api(env(), 'POST', '/customers/', {body: {email}})
    expect(customer.status).toBe(201)
    const deadline = Date.now() + scaled(10_000)
    for (;;) {
      const found = receiver.received.find((r) => r.path === path && r.body.includes(customer.body.id))
      if (found) return found
      if (Date.now() > deadline) throw new Error(`no delivery to ${path}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  /** Saves a delivery as a receiver would keep it: the body's bytes and a "name: value" headers file. */
  const saved = (name: string, body: Buffer | string, headers: Record<string, string>) => {
    const files = {body: join(dir, `${name}.body`), headers: join(dir, `${name}.headers`)}
    writeFileSync(files.body, body)
    writeFileSync(
      files.headers,
      Object.entries(headers)
        .map(([k, value]) => `${k}: ${value}`)
        .join('\r\n'),
    )
    return files
  }

  const verify = (files: {body: string; headers: string}, secret: string, extra: string[] = []) =>
    till(['webhooks', 'verify', '--body', files.body, '--headers', files.headers, ...extra], {
      extra: {TILL_WEBHOOK_SECRET: secret},
    })

  it('create shows the secret, API version and signing way; a stock receiver verifies with that secret', async () => {
    const piped = await till(createArgs(`${receiver.url}/stock`, 'customer.created'))
    expect(piped.code, piped.stderr).toBe(0)
    const [id, secret] = piped.stdout.trim().split('\t')
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(piped.stderr).toContain('(API version 2026-10)')
    expect(piped.stderr).toContain('It signs the standard way: a stock Standard Webhooks library verifies')
    const r = await delivered('/stock')
    expect(r.headers['webhook-api-version']).toBe('2026-10')
    const event = new Webhook(secret!).verify(r.body, headersOf(r))
    expect(event).toMatchObject({type: 'customer.created', api_version: '2026-10'})

    const got = await till(['webhooks', 'endpoints', 'get', id!, '-o', 'table'])
    expect(got.stdout).toMatch(/^API version\s+2026-10$/m)
    expect(got.stdout).toMatch(/^Uses standard webhook signature\s+yes$/m)
    const made = await till([
      'webhooks',
      'endpoints',
      'create',
      '--url',
      `${receiver.url}/pinned`,
      '--event',
      'order.paid',
      '--api-version',
      '2027-01',
      '--json',
    ])
    expect(json(made)).toMatchObject({api_version: '2027-01', uses_standard_webhook_signature: true})
  })

  it('list shows the seeded endpoint made before 2026-09-08 as legacy, the new ones as standard', async () => {
    const table = await till(['webhooks', 'endpoints', 'list', '--all', '-o', 'table'])
    expect(table.code, table.stderr).toBe(0)
    expect(linesOf(table.stdout)[0]).toMatch(/\bAPI VERSION\s+SIGNING$/)
    expect(table.stdout).toMatch(/Fulfilment \(made before 2026-09-08\).*\s2026-04\s+legacy$/m)
    expect(table.stdout).toMatch(/\/stock\s.*\s2026-10\s+standard$/m)
    const listed = json(await till(['webhooks', 'endpoints', 'list', '--all', '--json']))
    for (const e of listed) {
      expect([typeof e.uses_standard_webhook_signature, typeof e.api_version]).toEqual(['boolean', 'string'])
    }
  })

  it('verify takes a standard and a legacy delivery and says which way matched', async () => {
    const made = json(await till(createArgs(`${receiver.url}/new`, 'customer.created', '--json')))
    const fresh = await delivered('/new')
    const standard = saved('standard', fresh.body, headersOf(fresh))
    const s = await verify(standard, made.secret)
    expect(s.code, s.stderr).toBe(0)
    const key = 'the key is the base64 decoding of the secret after whsec_'
    const words = `signed the standard way (Standard Webhooks: ${key})`
    expect(linesOf(s.stderr)[1]).toBe(words)
    const s2 = await verify(standard, made.secret, ['--json'])
    expect(json(s2)).toMatchObject({valid: true, signing: 'standard', key: 'base64'})

    const endpoints = await listAll(env(), '/webhooks/endpoints')
    const seeded = endpoints.find((e) => e.uses_standard_webhook_signature === false)!
    const moved = await api(env(), 'PATCH', `/webhooks/endpoints/${seeded.id}`, {
      body: {url: `${receiver.url}/old`, enabled: true, events: ['customer.created']},
    })
    expect(moved.status).toBe(200)
    const old = await delivered('/old')
    // the stock library given the secret as it is refuses a legacy endpoint's delivery
    expect(() => new Webhook(seeded.secret).verify(old.body, headersOf(old))).toThrow()
    const legacy = saved('legacy', old.body, headersOf(old))
    const l = await verify(legacy, seeded.secret)
    expect(l.code, l.stderr).toBe(0)
    expect(linesOf(l.stderr)[1]).toBe('signed the legacy way (the key is the UTF-8 bytes of the whole secret)')
    const l2 = await verify(legacy, seeded.secret, ['--json'])
    expect(json(l2)).toMatchObject({valid: true, signing: 'legacy', key: 'utf8'})
    const wrong = await verify(legacy, made.secret)
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('invalid: bad signature')
  })

  it('verify checks a body that is not UTF-8 over the exact bytes it was signed over', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
    const body = Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])
    const [id, timestamp] = ['msg_bytes', String(Math.floor(Date.now() / 1000))]
    const mac = createHmac('sha256', Buffer.alloc(32, 7)).update(`${id}.${timestamp}.`).update(body).digest('base64')
    const headers = {'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${mac}`}
    const files = saved('bytes', body, headers)
    const r = await verify(files, secret, ['--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(json(r)).toMatchObject({valid: true, signing: 'standard'})
  })

  it("deliveries list shows each event's API version", async () => {
    const args = createArgs(`${receiver.url}/listed`, 'customer.created', '--api-version', '2027-01', '--json')
    const made = json(await till(args))
    await delivered('/listed')
    const table = await till(['webhooks', 'deliveries', 'list', '--endpoint', made.id, '-o', 'table'])
    expect(table.code, table.stderr).toBe(0)
    expect(linesOf(table.stdout)[0]).toMatch(/\bEVENT ID\s+API VERSION$/)
    expect(linesOf(table.stdout)[1]).toMatch(/\scustomer\.created\s+\S+\s+2027-01$/)
  })

  it('update sets the API version of the payloads', async () => {
    const made = json(await till(createArgs(`${receiver.url}/v`, 'order.paid', '--json')))
    const versioned = await till(['webhooks', 'endpoints', 'update', made.id, '--api-version', '2026-04', '--json'])
    expect(versioned.code, versioned.stderr).toBe(0)
    expect(json(versioned).api_version).toBe('2026-04')
    const unknown = await till(['webhooks', 'endpoints', 'update', made.id, '--api-version', '2025-01'])
    expect(unknown.code).toBe(2)
  })

  it('update asks before turning deliveries off: --yes without a terminal, a question on one', async () => {
    const made = json(await till(createArgs(`${receiver.url}/off`, 'order.paid', '--json')))
    const refused = await till(['webhooks', 'endpoints', 'update', made.id, '--no-enabled'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`--yes is required to turn off deliveries to webhook endpoint ${made.id}`)
    expect((await api(env(), 'GET', `/webhooks/endpoints/${made.id}`)).body.enabled).toBe(true)

    const command = `${TILL} ${['webhooks', 'endpoints', 'update', made.id, '--no-enabled'].map(sh).join(' ')}`
    const asked = /Turn off deliveries to webhook endpoint/
    const no = await runAnswering(command, vars(), [{when: asked, send: `n${KEY.enter}`}])
    expect(no.code).toBe(1)
    expect((await api(env(), 'GET', `/webhooks/endpoints/${made.id}`)).body.enabled).toBe(true)
    const yes = await runAnswering(command, vars(), [{when: asked, send: `y${KEY.enter}`}])
    expect(yes.code, yes.stdout).toBe(0)
    expect((await api(env(), 'GET', `/webhooks/endpoints/${made.id}`)).body.enabled).toBe(false)

    const given = await till(['webhooks', 'endpoints', 'update', made.id, '--enabled', '--json'])
    expect(json(given).enabled).toBe(true)
    const skipped = await till(['webhooks', 'endpoints', 'update', made.id, '--no-enabled', '--yes', '--json'])
    expect(skipped.code, skipped.stderr).toBe(0)
    expect(json(skipped).enabled).toBe(false)
  })
})
