// Every command that creates something prints, when piped without a format, the new
// object's id alone (a checkout and a checkout link: the URL), followed by its one-time secret after a tab
// when the service shows one only this once; with -o tsv/csv the secret is among the columns. In-process
// runs against one emulator; the list of creating commands comes from the manifest, so a new one fails here
// until it is covered.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, listAll, ROOT, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {RESOURCES, type ResourceDescription} from '../../src/client/resources/described.js'
import {scaled} from '../helpers/machine.js'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const ID_ALONE = new RegExp(`^${UUID}\\n$`)

describe('a piped create prints the id alone (and a one-time secret)', {timeout: scaled(60_000)}, () => {
  let emulator: Emulator
  let box: Sandbox
  const till = (args: string[]): Promise<CliResult> => runInProcess(args, {env: box.env({...envVars(emulator.production), TILL_ENV: 'local'})})
  const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}\n${r.stdout}`).toBe(0)
  const seed: Record<string, Json> = {}
  const newCustomer = async (): Promise<Json> =>
    (await api(emulator.production, 'POST', '/customers/', {body: {email: `c${Math.random().toString(36).slice(2, 10)}@example.com`}})).body

  beforeAll(async () => {
    emulator = await startEmulator({paymentDelay: '0s'})
    box = sandbox()
    const env = emulator.production
    const products = await listAll(env, '/products/')
    seed.free = products.find((p) => p.name === 'Free Tier')
    seed.oneTime = products.find((p) => !p.is_recurring && !p.is_archived && p.prices.every((x: Json) => x.amount_type === 'fixed'))
    seed.billed = (
      await api(env, 'POST', '/customers/', {body: {email: `billed-${Date.now()}@example.com`, billing_address: {country: 'US', state: 'US-NY'}}})
    ).body
    seed.order = (await listAll(env, '/orders/', 'status=paid')).find((o) => o.total_amount > 0 && o.refunded_amount === 0)
    const keys = (await listAll(env, '/license-keys/')).filter((k) => k.status === 'granted' && (k.limit_activations ?? 1) >= 1)
    ;[seed.key, seed.portalKey] = keys
    seed.endpoint = (await api(env, 'POST', '/webhooks/endpoints', {body: {url: 'https://example.com/h', format: 'raw', events: ['order.paid']}})).body
    writeFileSync(join(box.root, 'notes.txt'), 'hello\n')
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  /** Each creating command, how to run it, and what stdout holds when piped. */
  const creates: Record<string, {args: () => Promise<string[]>; expect: 'id' | 'url' | {secret: RegExp}}> = {
    'customers create': {args: async () => ['--email', `n${Date.now()}@example.com`], expect: 'id'},
    'products create': {args: async () => ['--name', 'Piped', '--price', '19.00'], expect: 'id'},
    'benefits create': {args: async () => ['--type', 'custom', '--description', 'Priority support'], expect: 'id'},
    'orders create': {args: async () => ['--customer', seed.billed.id, '--product', seed.oneTime.id], expect: 'id'},
    'refunds create': {args: async () => ['--order', seed.order.id, '--amount', '0.50', '--reason', 'customer_request', '--yes'], expect: 'id'},
    'discounts create': {args: async () => ['--name', 'Piped', '--percent', '10'], expect: 'id'},
    'subscriptions create': {args: async () => ['--product', seed.free.id, '--customer', (await newCustomer()).id], expect: 'id'},
    'meters create': {args: async () => ['--name', 'Piped calls', '--where', 'name=api.call', '--aggregation', 'count'], expect: 'id'},
    'custom-fields create': {args: async () => ['--type', 'text', '--slug', `piped${Date.now()}`, '--name', 'Piped'], expect: 'id'},
    'files upload': {args: async () => [join(box.root, 'notes.txt')], expect: 'id'},
    'license-keys activate': {args: async () => [seed.key.key, '--label', 'laptop'], expect: 'id'},
    'portal license-keys activate': {
      args: async () => [seed.portalKey.key, '--label', 'desktop', '--as-customer-id', seed.portalKey.customer_id],
      expect: 'id',
    },
    'checkouts create': {args: async () => ['--product', seed.free.id], expect: 'url'},
    'checkout-links create': {args: async () => ['--product', seed.free.id], expect: 'url'},
    'sessions create': {args: async () => ['--customer', (await newCustomer()).id], expect: {secret: /^polar_cst_\w+$/}},
    'oauth2-clients create': {
      args: async () => ['--name', 'Piped', '--redirect-uri', 'https://acme.example/cb'],
      expect: {secret: /^polar_cs_\w+$/},
    },
    'webhooks endpoints create': {
      args: async () => ['--url', 'https://example.com/hooks', '--event', 'order.paid'],
      expect: {secret: /^whsec_[A-Za-z0-9+/]{43}=$/},
    },
    // and the create each description derives, with the description's example body
    ...Object.fromEntries(
      RESOURCES.filter((r: ResourceDescription) => r.commands?.create).map((r: ResourceDescription) => [
        `${r.topic} create`,
        {
          args: async () =>
            Object.entries(r.example ?? {}).flatMap(([k, v]) => (typeof v === 'string' ? ['-f', `${k}=${v}`] : ['-F', `${k}=${JSON.stringify(v)}`])),
          expect: 'id' as const,
        },
      ]),
    ),
  }

  it('covers every creating command of the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
    const ids = Object.keys(manifest.commands)
      .filter((id) => /:(create|upload|activate)$/.test(id) && id !== 'autocomplete:create')
      .map((id) => id.replaceAll(':', ' '))
    expect(Object.keys(creates).sort()).toEqual(ids.sort())
  })

  for (const [command, {args, expect: shape}] of Object.entries(creates)) {
    it(`${command}: ${typeof shape === 'string' ? `the ${shape} alone` : 'the id, a tab and the one-time secret'}`, async () => {
      const r = await till([...command.split(' '), ...(await args())])
      ok(r)
      if (shape === 'id') expect(r.stdout).toMatch(ID_ALONE)
      else if (shape === 'url') expect(r.stdout).toMatch(/^https?:\/\/\S+\n$/)
      else {
        const [id, secret, ...rest] = r.stdout.replace(/\n$/, '').split('\t')
        expect(rest, r.stdout).toEqual([])
        expect(id).toMatch(command.startsWith('oauth2') ? /^polar_ci_\w+$/ : new RegExp(`^${UUID}$`))
        expect(secret).toMatch(shape.secret)
      }
    })
  }

  it('with -o tsv or csv a one-time secret is among the columns; --json holds it', async () => {
    const base = ['webhooks', 'endpoints', 'create', '--url', 'https://example.com/hooks', '--event', 'order.paid']
    const tsv = await till([...base, '-o', 'tsv'])
    ok(tsv)
    expect(tsv.stdout.trim().split('\t').at(-1)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const csv = await till([...base, '-o', 'csv'])
    ok(csv)
    expect(csv.stdout.split('\r\n')[0]!.split(',').at(-1)).toBe('secret')
    const json = await till([...base, '--json'])
    expect(JSON.parse(json.stdout).secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
  })

  it('webhooks endpoints reset-secret: the new secret alone when piped, and in the tsv columns', async () => {
    const plain = await till(['webhooks', 'endpoints', 'reset-secret', seed.endpoint.id, '--yes'])
    ok(plain)
    expect(plain.stdout).toMatch(/^whsec_[A-Za-z0-9+/]{43}=\n$/)
    const tsv = await till(['webhooks', 'endpoints', 'reset-secret', seed.endpoint.id, '--yes', '-o', 'tsv'])
    ok(tsv)
    const cells = tsv.stdout.trim().split('\t')
    expect(cells[0]).toBe(seed.endpoint.id)
    expect(cells.at(-1)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(cells.at(-1)).not.toBe(plain.stdout.trim())
  })
})
