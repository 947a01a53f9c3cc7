import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {Webhook} from 'standardwebhooks'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {
  envVars,
  expectNoToken,
  KEY,
  linesOf,
  settledLogFrom,
  runAnswering,
  runTty,
  sandbox,
  sh,
  TILL,
  type Answer,
  type CliResult,
  type Sandbox,
} from '../helpers/cli.js'
import {api, listAll, ROOT, sleep, startEmulator, unknownId, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

/** One webhook delivery as the receiver got it. */
interface Delivery {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

async function startReceiver(): Promise<{url: string; received: Delivery[]; close(): Promise<void>}> {
  const received: Delivery[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks)})
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve()))}
}

const json = (r: CliResult): Json => JSON.parse(r.stdout)

describe('customers, license keys, webhooks and org commands', {timeout: scaled(90_000)}, () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  const outputs: string[] = []

  const vars = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(env), TILL_ENV: 'local', ...extra})
  const till = async (args: string[], opts: {input?: string; extra?: Record<string, string | undefined>} = {}): Promise<CliResult> => {
    const r = await runInProcess(args, {env: vars(opts.extra), input: opts.input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const tty = async (args: string[], extra: Record<string, string | undefined> = {}) => {
    const r = await runTty(`${TILL} ${args.map(sh).join(' ')}`, {env: vars(extra)})
    outputs.push(r.stdout)
    return r
  }
  const answering = async (args: string[], answers: Answer[], extra: Record<string, string | undefined> = {}) => {
    const r = await runAnswering(`${TILL} ${args.map(sh).join(' ')}`, vars(extra), answers)
    outputs.push(r.stdout)
    return r
  }
  const newCustomer = async (body: Record<string, unknown> = {}): Promise<Json> => {
    const res = await api(env, 'POST', '/customers/', {body: {email: `c${Math.random().toString(36).slice(2, 10)}@example.com`, ...body}})
    expect(res.status, res.text).toBe(201)
    return res.body
  }

  beforeAll(async () => {
    emulator = await startEmulator({quiet: false})
    env = emulator.production
  })
  afterAll(async () => {
    await emulator?.stop()
    for (const text of outputs) expectNoToken(text, env.token)
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  describe('customers', () => {
    it('list: a table with the default columns, and --json equal to the API page', async () => {
      const table = await till(['customers', 'list', '--limit', '5', '-o', 'table'])
      expect(table.code, table.stderr).toBe(0)
      const lines = linesOf(table.stdout)
      expect(lines[0]).toMatch(/^ID\s+EMAIL\s+NAME\s+TYPE\s+EXTERNAL ID\s+CREATED$/)
      expect(lines).toHaveLength(6)
      const page = await api(env, 'GET', '/customers/?limit=5')
      for (const [i, c] of page.body.items.entries()) expect(lines[i + 1]).toContain(c.email)

      const out = await till(['customers', 'list', '--limit', '5', '--json'])
      expect(out.code, out.stderr).toBe(0)
      expect(json(out)).toEqual(page.body.items)
    })

    it('list filters: --query and --active', async () => {
      const c = await newCustomer({name: 'Zebulon Filterby'})
      const r = await till(['customers', 'list', '--query', 'Filterby', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stdout).map((l) => JSON.parse(l).id)).toEqual([c.id])
      const active = await till(['customers', 'list', '--active', '--all', '-o', 'jsonl'])
      const activeIds = linesOf(active.stdout).map((l) => JSON.parse(l).id)
      expect(activeIds.length).toBeGreaterThan(0)
      expect(activeIds).not.toContain(c.id)
    })

    it('get by id and by --external-id, in a table and as JSON; the deprecated flag name warns', async () => {
      const c = await newCustomer({external_id: 'ext_get_1', name: 'Gert Getter'})
      const byId = await till(['customers', 'get', c.id, '-o', 'table'])
      expect(byId.code, byId.stderr).toBe(0)
      expect(byId.stdout).toMatch(/^ID\s+[0-9a-f-]{36}$/m)
      expect(byId.stdout).toMatch(/^External ID\s+ext_get_1$/m)
      expect(byId.stdout).toMatch(/^Name\s+Gert Getter$/m)

      const byExternal = await till(['customers', 'get', '--external-id', 'ext_get_1', '--json'])
      expect(byExternal.code, byExternal.stderr).toBe(0)
      expect(json(byExternal)).toEqual(c)

      // (oclif keeps warnings off stderr under --json)
      const deprecated = await till(['customers', 'get', '--customer-external-id', 'ext_get_1', '-o', 'jsonl'])
      expect(deprecated.code, deprecated.stderr).toBe(0)
      expect(json(deprecated).id).toBe(c.id)
      expect(deprecated.stderr).toContain('Warning: --customer-external-id is deprecated; use --external-id.')

      const both = await till(['customers', 'get', c.id, '--external-id', 'ext_get_1'])
      expect(both.code).toBe(2)
      expect(both.stderr).toContain('either a customer ID or --external-id')
    })

    it('get: an unknown customer exits 3; without an id and without a terminal it names what is missing', async () => {
      const missing = await till(['customers', 'get', unknownId()])
      expect(missing.code).toBe(3)
      const none = await till(['customers', 'get'])
      expect(none.code).toBe(2)
      expect(none.stderr).toContain('missing ID or --external-id')
    })

    it('get without an id on a terminal: the customer is picked from a list', async () => {
      const c = await newCustomer({name: 'Pick Me Please'})
      const r = await answering(['customers', 'get', '--json'], [{when: /Customer to show/, send: KEY.enter}])
      expect(r.code, r.stdout).toBe(0)
      expect(r.unanswered).toBe(0)
      // the newest customer comes first
      expect(r.stdout).toContain(`"id": "${c.id}"`)
    })

    it('get with - reads ids from stdin: one result each, a summary, exit 1 when one failed', async () => {
      const [a, b] = [await newCustomer(), await newCustomer()]
      const r = await till(['customers', 'get', '-', '--envelope', '-o', 'jsonl'], {input: `${a.id}\n${unknownId()}\n${b.id}\n`})
      expect(r.code).toBe(1)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => x.ok)).toEqual([true, false, true])
      expect(results[0].result.email).toBe(a.email)
      expect(results[1].error.exit_code).toBe(3)
      expect(r.stderr).toContain('3 ids: 2 ok, 1 failed.')
    })

    it('create with every flag: metadata and address', async () => {
      const r = await till([
        'customers',
        'create',
        '--email',
        'ada.create@example.com',
        '--name',
        'Ada Create',
        '--external-id',
        'ext_create_1',
        '--metadata',
        'plan=pro',
        '--metadata',
        'seats=3',
        '--country',
        'de',
        '--line1',
        'Unter den Linden 5',
        '--city',
        'Berlin',
        '--postal-code',
        '10117',
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      const c = json(r)
      expect(c).toMatchObject({
        email: 'ada.create@example.com',
        name: 'Ada Create',
        external_id: 'ext_create_1',
        metadata: {plan: 'pro', seats: '3'},
        billing_name: null,
        billing_address: {country: 'DE', line1: 'Unter den Linden 5', city: 'Berlin', postal_code: '10117'},
      })
      expect((await api(env, 'GET', `/customers/${c.id}`)).body).toEqual(c)
    })

    it('create and update refuse --billing-name before any request: no customer create or update of the API has one', async () => {
      const before = (await api(env, 'GET', '/customers/?email=billing.refused@example.com')).body.items
      for (const args of [
        ['customers', 'create', '--email', 'billing.refused@example.com', '--billing-name', 'Acme GmbH'],
        ['customers', 'update', '--external-id', 'nobody_at_all', '--billing-name', 'Acme GmbH'],
      ]) {
        const r = await till(args)
        expect(r.code, r.stderr).toBe(2)
        expect(r.stdout).toBe('')
        expect(r.stderr).toContain('--billing-name: the API takes no billing name for a customer (the service sets it from checkouts and the customer portal')
        expect(r.stderr).not.toMatch(/\n\s+at /)
      }
      expect(before).toEqual([])
      expect((await api(env, 'GET', '/customers/?email=billing.refused@example.com')).body.items).toEqual([])
      const help = await till(['customers', 'update', '--help'])
      expect(help.stdout).not.toContain('--billing-name')
    })

    it('create in a table; bad input fails before any request with exit 2', async () => {
      const r = await till(['customers', 'create', '--email', 'table.create@example.com', '-o', 'table'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^Email\s+table\.create@example\.com$/m)

      const noEmail = await till(['customers', 'create', '--name', 'Nobody'])
      expect(noEmail.code).toBe(2)
      expect(noEmail.stderr).toContain('missing --email')
      const badPair = await till(['customers', 'create', '--email', 'x@example.com', '--metadata', 'novalue'])
      expect(badPair.code).toBe(2)
      expect(badPair.stderr).toContain('--metadata takes key=value with a key of 1-40 characters, not "novalue"')
      const noCountry = await till(['customers', 'create', '--email', 'x@example.com', '--line1', 'Somewhere 1'])
      expect(noCountry.code).toBe(2)
      expect(noCountry.stderr).toContain('--country is required')
      const duplicate = await till(['customers', 'create', '--email', 'table.create@example.com'])
      expect(duplicate.code).toBe(2)
      expect(duplicate.stderr).toContain('body.email: A customer with this email address already exists.')
    })

    it('create on a terminal asks for the missing email', async () => {
      const r = await answering(
        ['customers', 'create', '--name', 'Prompted Person'],
        [{when: /Email address of the customer/, send: `prompted.person@example.com${KEY.enter}`}],
      )
      expect(r.code, r.stdout).toBe(0)
      expect(r.stdout).toMatch(/Email\s+prompted\.person@example\.com/)
      const found = await api(env, 'GET', '/customers/?email=prompted.person@example.com')
      expect(found.body.items).toHaveLength(1)
      expect(found.body.items[0].name).toBe('Prompted Person')
    })

    it('update by --external-id merges metadata and address; by id in a table', async () => {
      await newCustomer({
        external_id: 'ext_upd_1',
        metadata: {plan: 'basic', keep: 'yes'},
        billing_address: {country: 'US', line1: '1 Main St', city: 'Springfield'},
      })
      const r = await till([
        'customers',
        'update',
        '--external-id',
        'ext_upd_1',
        '--metadata',
        'plan=pro',
        '--remove-metadata',
        'keep',
        '--line2',
        'Suite 9',
        '--name',
        'Updated Name',
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(json(r)).toMatchObject({
        name: 'Updated Name',
        metadata: {plan: 'pro'},
        billing_address: {country: 'US', line1: '1 Main St', line2: 'Suite 9', city: 'Springfield'},
      })
      expect(json(r).metadata).not.toHaveProperty('keep')

      const t = await till(['customers', 'update', json(r).id, '--email', 'updated.email@example.com', '-o', 'table'])
      expect(t.code, t.stderr).toBe(0)
      expect(t.stdout).toMatch(/^Email\s+updated\.email@example\.com$/m)

      const nothing = await till(['customers', 'update', json(r).id])
      expect(nothing.code).toBe(2)
      expect(nothing.stderr).toContain('nothing to update')
      const immutable = await till(['customers', 'update', json(r).id, '--set-external-id', 'other'])
      expect(immutable.code).toBe(2)
      expect(immutable.stderr).toContain('body.external_id: Customer external ID cannot be updated.')
    })

    it('update --external-id - makes the same change to every customer read from stdin', async () => {
      const [a, b] = [await newCustomer({external_id: 'ext_bulk_a', metadata: {keep: 'a'}}), await newCustomer({external_id: 'ext_bulk_b'})]
      const r = await till(['customers', 'update', '--external-id', '-', '--metadata', 'batch=7', '--envelope', '-o', 'jsonl'], {
        input: 'ext_bulk_a\next_bulk_b\next_missing\n',
      })
      expect(r.code).toBe(1)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => [x.id, x.ok])).toEqual([
        ['ext_bulk_a', true],
        ['ext_bulk_b', true],
        ['ext_missing', false],
      ])
      expect((await api(env, 'GET', `/customers/${a.id}`)).body.metadata).toEqual({keep: 'a', batch: '7'})
      expect((await api(env, 'GET', `/customers/${b.id}`)).body.metadata).toEqual({batch: '7'})
      expect(r.stderr).toContain('3 ids: 2 ok, 1 failed.')
    })

    it('delete without a terminal needs --yes and changes nothing', async () => {
      const c = await newCustomer()
      const r = await till(['customers', 'delete', c.id])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`--yes is required to delete customer ${c.id}`)
      expect((await api(env, 'GET', `/customers/${c.id}`)).status).toBe(200)
    })

    it('delete on a terminal: "n" keeps the customer (exit 1), "y" deletes it', async () => {
      const c = await newCustomer()
      const no = await answering(['customers', 'delete', c.id], [{when: /Delete customer/, send: `n${KEY.enter}`}])
      expect(no.code).toBe(1)
      expect(no.stdout).toMatch(/Delete customer [0-9a-f-]{36} \(subscriptions end now, benefits are revoked\) \(local, profile local\)\?/)
      expect(no.stdout).toContain('Cancelled; nothing was changed.')
      expect((await api(env, 'GET', `/customers/${c.id}`)).status).toBe(200)

      const yes = await answering(['customers', 'delete', c.id], [{when: /Delete customer/, send: `y${KEY.enter}`}])
      expect(yes.code, yes.stdout).toBe(0)
      expect(yes.stdout).toContain(`Deleted customer ${c.id}.`)
      expect((await api(env, 'GET', `/customers/${c.id}`)).status).toBe(404)
    })

    it('delete on a production profile names the environment in the question', async () => {
      const c = await newCustomer()
      const r = await answering(['customers', 'delete', c.id], [{when: /Delete customer/, send: `n${KEY.enter}`}], {TILL_ENV: 'production'})
      expect(r.code).toBe(1)
      expect(r.stdout).toContain('in PRODUCTION (profile local)?')
      expect((await api(env, 'GET', `/customers/${c.id}`)).status).toBe(200)
    })

    it('delete --external-id --anonymize --yes erases personal data; --json reports it', async () => {
      const c = await newCustomer({external_id: 'ext_del_1', name: 'Erase Me'})
      const r = await till(['customers', 'delete', '--external-id', 'ext_del_1', '--anonymize', '--yes', '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(json(r)).toEqual({external_id: 'ext_del_1', deleted: true, anonymized: true})
      expect((await api(env, 'GET', `/customers/${c.id}`)).status).toBe(404)
      expect((await api(env, 'GET', '/customers/external/ext_del_1')).status).toBe(404)
    })

    it('delete - deletes every id from stdin after one confirmation, with a result per id', async () => {
      const [a, b] = [await newCustomer(), await newCustomer()]
      const refused = await till(['customers', 'delete', '-'], {input: `${a.id}\n${b.id}\n`})
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('--yes is required to delete every customer read from stdin')
      const r = await till(['customers', 'delete', '-', '--yes', '--envelope', '-o', 'jsonl'], {input: `${a.id}\n${b.id}\n`})
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stdout).map((l) => JSON.parse(l))).toEqual([
        {id: a.id, ok: true, status: 'ok', result: {id: a.id, deleted: true, anonymized: false}},
        {id: b.id, ok: true, status: 'ok', result: {id: b.id, deleted: true, anonymized: false}},
      ])
      expect(r.stderr).toContain('2 ids: 2 ok, 0 failed.')
    })

    describe('state', () => {
      let customer: Json
      let state: Json

      beforeAll(async () => {
        const active = await listAll(env, '/customers/', 'active=true')
        for (const c of active) {
          const s = (await api(env, 'GET', `/customers/${c.id}/state`)).body
          if (s.active_subscriptions.length > 0 && s.granted_benefits.length > 1) {
            customer = c
            state = s
            break
          }
        }
        expect(state, 'a seeded customer with a subscription and benefits').toBeDefined()
      })

      it('--json prints the API object unchanged, by id and by external id', async () => {
        const r = await till(['customers', 'state', customer.id, '--json'])
        expect(r.code, r.stderr).toBe(0)
        expect(json(r)).toEqual(state)
        if (customer.external_id) {
          const e = await till(['customers', 'state', '--external-id', customer.external_id, '--json'])
          expect(json(e)).toEqual(state)
        }
      })

      it('a table shows the customer, then its subscriptions and its benefits with their metadata', async () => {
        const r = await till(['customers', 'state', customer.id, '-o', 'table'])
        expect(r.code, r.stderr).toBe(0)
        const text = r.stdout
        expect(text.split('\n')[0]).toContain(`Customer ${customer.email}`)
        const subs = text.indexOf(`Active subscriptions (${state.active_subscriptions.length})`)
        const benefits = text.indexOf(`Granted benefits (${state.granted_benefits.length})`)
        expect(subs).toBeGreaterThan(0)
        expect(benefits).toBeGreaterThan(subs)
        expect(text.slice(subs, benefits)).toMatch(/SUBSCRIPTION\s+STATUS\s+PRODUCT\s+AMOUNT/)
        for (const s of state.active_subscriptions) expect(text.slice(subs, benefits)).toContain(s.id)
        const product = (await api(env, 'GET', `/products/${state.active_subscriptions[0].product_id}`)).body
        expect(text.slice(subs, benefits)).toContain(product.name)
        for (const g of state.granted_benefits) {
          expect(text.slice(benefits)).toContain(g.id)
          for (const [k, v] of Object.entries(g.benefit_metadata)) expect(text.slice(benefits)).toContain(`${k}=${String(v)}`)
        }
      })

      it('piped, both lists are tsv rows with a kind column', async () => {
        const r = await till(['customers', 'state', customer.id])
        expect(r.code, r.stderr).toBe(0)
        const rows = linesOf(r.stdout).map((l) => l.split('\t'))
        expect(rows.filter((x) => x[0] === 'subscription').map((x) => x[1])).toEqual(state.active_subscriptions.map((s: Json) => s.id))
        expect(rows.filter((x) => x[0] === 'benefit').map((x) => x[1])).toEqual(state.granted_benefits.map((g: Json) => g.id))
      })

      it('a customer with nothing active says so', async () => {
        const c = await newCustomer()
        const r = await tty(['customers', 'state', c.id])
        expect(r.code).toBe(0)
        expect(r.stdout).toMatch(/Active subscriptions \(0\)\n {2}none/)
        expect(r.stdout).toMatch(/Granted benefits \(0\)\n {2}none/)
      })
    })
  })

  describe('license keys', () => {
    let key: Json

    beforeAll(async () => {
      key = (await listAll(env, '/license-keys/', 'status=granted')).find((k: Json) => k.limit_activations && k.limit_activations >= 2)
      expect(key, 'a seeded license key with activations').toBeDefined()
    })

    it('list in a table and as JSON (keys masked in the table)', async () => {
      const t = await till(['license-keys', 'list', '--limit', '3', '-o', 'table'])
      expect(t.code, t.stderr).toBe(0)
      const lines = linesOf(t.stdout)
      expect(lines[0]).toMatch(/^ID\s+KEY\s+STATUS\s+CUSTOMER\s+USAGE\s+VALIDATIONS\s+EXPIRES\s+CREATED$/)
      expect(lines).toHaveLength(4)
      expect(t.stdout).toMatch(/\*\*\*\*-/)
      const page = await api(env, 'GET', '/license-keys/?limit=3')
      for (const k of page.body.items) expect(t.stdout).not.toContain(k.key)

      const j = await till(['license-keys', 'list', '--limit', '3', '--json'])
      expect(json(j)).toEqual(page.body.items)
    })

    it('get shows the key with its activations', async () => {
      const r = await till(['license-keys', 'get', key.id, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(json(r)).toEqual((await api(env, 'GET', `/license-keys/${key.id}`)).body)
      expect(json(r).activations).toEqual(expect.any(Array))
      const t = await till(['license-keys', 'get', key.id, '-o', 'table'])
      expect(t.stdout).toMatch(/^Display key\s+\*\*\*\*-/m)
    })

    it('validate: a valid key exits 0 with the validated key; the organization is looked up once per run', async () => {
      const log = await settledLogFrom(emulator)
      const r = await till(['license-keys', 'validate', key.key, '--customer', key.customer_id, '--benefit', key.benefit_id, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(json(r)).toMatchObject({id: key.id, status: 'granted', activation: null})
      expect(json(r).validations).toBeGreaterThan(key.validations)
      expect(r.stderr).toMatch(/^valid: \*\*\*\*-\S+ \(granted; usage \d+; validations \d+\)$/m)
      await sleep(200)
      const calls = await log()
      expect(calls.filter((c) => c.method === 'GET' && c.path.startsWith('/v1/organizations/'))).toHaveLength(1)
      expect(calls.filter((c) => c.method === 'POST' && c.path === '/v1/license-keys/validate')).toHaveLength(1)

      const t = await till(['license-keys', 'validate', key.key, '-o', 'table'])
      expect(t.code, t.stderr).toBe(0)
      expect(t.stdout).toMatch(/^Status\s+granted$/m)
    })

    it("validate uses the profile's organization id when it has one, without asking the API", async () => {
      const add = await till(['profiles', 'add', 'emu', '--environment', 'local', '--url', env.url, '--token-stdin', '--organization-id', env.organizationId], {
        input: `${env.token}\n`,
      })
      expect(add.code, add.stderr).toBe(0)
      const log = await settledLogFrom(emulator)
      const profileOnly = {TILL_API_URL: undefined, TILL_TOKEN: undefined, TILL_ENV: undefined}
      const r = await till(['license-keys', 'validate', key.key, '--profile', 'emu', '--json'], {extra: profileOnly})
      expect(r.code, r.stderr).toBe(0)
      expect(json(r).id).toBe(key.id)
      await sleep(200)
      const calls = await log()
      expect(calls.filter((c) => c.path === '/v1/license-keys/validate')).toHaveLength(1)
      expect(calls.filter((c) => c.path.startsWith('/v1/organizations/'))).toHaveLength(0)
    })

    it('validate: a key that does not match exits 3 with the reason', async () => {
      const wrongCustomer = await till(['license-keys', 'validate', key.key, '--customer', unknownId()])
      expect(wrongCustomer.code).toBe(3)
      expect(wrongCustomer.stderr).toContain('Error: license key is not valid: License key does not match given user.')
      const unknown = await till(['license-keys', 'validate', 'TILL-NOPE-NOPE-NOPE-NOPE'])
      expect(unknown.code).toBe(3)
      expect(unknown.stderr).toContain('license key is not valid:')
    })

    it('validate - checks each key from stdin with one organization lookup', async () => {
      const log = await settledLogFrom(emulator)
      const r = await till(['license-keys', 'validate', '-', '--envelope', '-o', 'jsonl'], {input: `${key.key}\nTILL-NOPE-NOPE-NOPE-NOPE\n`})
      expect(r.code).toBe(1)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => x.ok)).toEqual([true, false])
      expect(results[1].error).toMatchObject({exit_code: 3, message: expect.stringContaining('license key is not valid')})
      await sleep(200)
      expect((await log()).filter((c) => c.path.startsWith('/v1/organizations/'))).toHaveLength(1)
    })

    it('activate, validate with the activation, then deactivate (confirmation needed without a terminal)', async () => {
      const a = await till(['license-keys', 'activate', key.key, '--label', 'ci-runner', '--meta', 'os=linux', '--json'])
      expect(a.code, a.stderr).toBe(0)
      const activation = json(a)
      expect(activation).toMatchObject({label: 'ci-runner', meta: {os: 'linux'}, license_key_id: key.id, license_key: {id: key.id}})

      const v = await till(['license-keys', 'validate', key.key, '--activation', activation.id, '--json'])
      expect(v.code, v.stderr).toBe(0)
      expect(json(v).activation).toMatchObject({id: activation.id, label: 'ci-runner'})

      const refused = await till(['license-keys', 'deactivate', key.key, '--activation', activation.id])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`--yes is required to deactivate activation ${activation.id}`)
      expect((await api(env, 'GET', `/license-keys/${key.id}`)).body.activations.map((x: Json) => x.id)).toContain(activation.id)

      const d = await till(['license-keys', 'deactivate', key.key, '--activation', activation.id, '--yes', '--json'])
      expect(d.code, d.stderr).toBe(0)
      expect(json(d)).toEqual({activation_id: activation.id, deactivated: true})
      expect((await api(env, 'GET', `/license-keys/${key.id}`)).body.activations.map((x: Json) => x.id)).not.toContain(activation.id)

      const gone = await till(['license-keys', 'validate', key.key, '--activation', activation.id])
      expect(gone.code).toBe(3)
      expect(gone.stderr).toContain('license key is not valid: License key activation not found.')
    })

    it('activate in a table; a missing label fails without a terminal and is asked on one', async () => {
      const t = await till(['license-keys', 'activate', key.key, '--label', 'table-box', '-o', 'table'])
      expect(t.code, t.stderr).toBe(0)
      expect(t.stdout).toMatch(/^Label\s+table-box$/m)

      const missing = await till(['license-keys', 'activate', key.key])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toContain('missing --label')

      const asked = await answering(['license-keys', 'activate', key.key, '--json'], [{when: /Label of the activation/, send: `asked-box${KEY.enter}`}])
      expect(asked.code, asked.stdout).toBe(0)
      expect(asked.stdout).toContain('"label": "asked-box"')
    })

    it('deactivate on a terminal: "n" keeps the activation, "y" removes it', async () => {
      const a = await api(env, 'POST', '/license-keys/activate', {body: {key: key.key, organization_id: env.organizationId, label: 'tty-box'}})
      expect(a.status, a.text).toBe(200)
      const no = await answering(['license-keys', 'deactivate', key.key, '--activation', a.body.id], [{when: /Deactivate activation/, send: `n${KEY.enter}`}])
      expect(no.code).toBe(1)
      expect((await api(env, 'GET', `/license-keys/${key.id}`)).body.activations.map((x: Json) => x.id)).toContain(a.body.id)
      const yes = await answering(['license-keys', 'deactivate', key.key, '--activation', a.body.id], [{when: /Deactivate activation/, send: `y${KEY.enter}`}])
      expect(yes.code, yes.stdout).toBe(0)
      expect((await api(env, 'GET', `/license-keys/${key.id}`)).body.activations.map((x: Json) => x.id)).not.toContain(a.body.id)
    })

    it('activate beyond the limit exits 1 with the reason', async () => {
      const k = (await listAll(env, '/license-keys/', 'status=granted')).find((x: Json) => x.id !== key.id && x.limit_activations)
      for (let i = 0; i < k.limit_activations; i++) {
        await api(env, 'POST', '/license-keys/activate', {body: {key: k.key, organization_id: env.organizationId, label: `fill-${i}`}})
      }
      const r = await till(['license-keys', 'activate', k.key, '--label', 'one-too-many'])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('cannot activate the license key: License key activation limit already reached')
    })
  })

  describe('org show', () => {
    it('a table with the organization, its environment and the rate budget', async () => {
      const org = (await api(env, 'GET', '/organizations/')).body.items[0]
      const r = await till(['org', 'show', '-o', 'table'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(new RegExp(`^ID\\s+${org.id}$`, 'm'))
      expect(r.stdout).toMatch(new RegExp(`^Name\\s+${org.name}$`, 'm'))
      expect(r.stdout).toMatch(/^Environment\s+local$/m)
      expect(r.stdout).toMatch(/^Rate limit\s+500\/min \(the environment's default\)$/m)
      expect(r.stdout).toMatch(/^IP rate limit\s+100\/s$/m)
      const custom = await till(['org', 'show', '-o', 'table'], {extra: {TILL_RATE_LIMIT: '20/2s', TILL_ENV: 'sandbox'}})
      expect(custom.stdout).toMatch(/^Environment\s+sandbox$/m)
      expect(custom.stdout).toMatch(/^Rate limit\s+20\/2s \(set by TILL_RATE_LIMIT\)$/m)
    })

    it('--json: the API organization object beside the profile facts', async () => {
      const org = (await api(env, 'GET', '/organizations/')).body.items[0]
      const r = await till(['org', 'show', '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(json(r)).toEqual({
        organization: org,
        profile: 'local',
        environment: 'local',
        base_url: env.url,
        rate_limit: {limit: 500, window_seconds: 60, source: 'environment'},
        ip_rate_limit: {limit: 100, window_seconds: 1},
      })
    })
  })

  describe('webhooks', () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>
    let dir: string

    beforeAll(async () => {
      receiver = await startReceiver()
      dir = mkdtempSync(join(tmpdir(), 'till-webhooks-'))
    })
    afterAll(async () => {
      await receiver?.close()
      rmSync(dir, {recursive: true, force: true})
    })

    const createEndpoint = async (path: string, extra: string[] = []): Promise<Json> => {
      const r = await till(['webhooks', 'endpoints', 'create', '--url', `${receiver.url}${path}`, '--event', 'customer.created', '--json', ...extra])
      expect(r.code, r.stderr).toBe(0)
      return json(r)
    }

    /** Creates an endpoint, triggers a customer.created event and saves the delivery's body and headers. */
    const captureDelivery = async (path: string) => {
      const endpoint = await createEndpoint(path)
      const customer = await newCustomer()
      const start = Date.now()
      let delivery: Delivery | undefined
      while (!(delivery = receiver.received.find((d) => d.path === path && d.body.includes(customer.id)))) {
        if (Date.now() - start > 10_000) throw new Error('no delivery arrived')
        await sleep(50)
      }
      const body = join(dir, `${path.slice(1)}.json`)
      const headers = join(dir, `${path.slice(1)}.headers`)
      writeFileSync(body, delivery.body)
      writeFileSync(
        headers,
        Object.entries(delivery.headers)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\r\n'),
      )
      return {endpoint, delivery, body, headers, timestamp: Number(delivery.headers['webhook-timestamp'])}
    }

    it('endpoints create prints the secret once, with a note to store it; list and update mask it', async () => {
      const r = await till([
        'webhooks',
        'endpoints',
        'create',
        '--url',
        `${receiver.url}/created`,
        '--event',
        'order.paid',
        '--event',
        'order.refunded',
        '--name',
        'billing',
        '-o',
        'table',
      ])
      expect(r.code, r.stderr).toBe(0)
      const secret = /^Secret\s+(whsec_\S+)$/m.exec(r.stdout)?.[1]
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(r.stdout).toMatch(/^Events\s+order\.paid, order\.refunded$/m)
      expect(r.stderr).toContain('Store its signing secret now; it is not shown again.')
      const id = /^ID\s+(\S+)$/m.exec(r.stdout)![1]!

      const list = await till(['webhooks', 'endpoints', 'list', '--all', '--json'])
      expect(list.code, list.stderr).toBe(0)
      const listed = json(list).find((e: Json) => e.id === id)
      expect(listed).toMatchObject({url: `${receiver.url}/created`, name: 'billing', format: 'raw', events: ['order.paid', 'order.refunded'], enabled: true})
      expect(listed.secret).toMatch(/^whsec_[\w+/=]{3}…[\w+/=]{3}$/)
      expectNoToken(list.stdout, secret!, 'list output')

      const table = await till(['webhooks', 'endpoints', 'list', '--all', '-o', 'table'])
      expect(linesOf(table.stdout)[0]).toMatch(/^ID\s+URL\s+NAME\s+FORMAT\s+EVENTS\s+ENABLED\s+API VERSION\s+SIGNING$/)
      expect(table.stdout).toMatch(new RegExp(`^${id}\\s+\\S+/created\\s+billing\\s+raw\\s+order\\.paid, order\\.refunded\\s+yes\\s+2026-10\\s+standard$`, 'm'))

      const u = await till(['webhooks', 'endpoints', 'update', id, '--no-enabled', '--yes', '--event', 'refund.created', '--format', 'slack', '--json'])
      expect(u.code, u.stderr).toBe(0)
      expect(json(u)).toMatchObject({id, enabled: false, events: ['refund.created'], format: 'slack'})
      expectNoToken(u.stdout, secret!, 'update output')
      const bulk = await till(['webhooks', 'endpoints', 'update', '-', '--name', 'bulk-named', '-o', 'jsonl'], {input: `${id}\n`})
      expect(bulk.code, bulk.stderr).toBe(0)
      expect(JSON.parse(bulk.stdout)).toMatchObject({id, name: 'bulk-named'})
      expectNoToken(bulk.stdout, secret!, 'bulk update output')
      const ut = await till(['webhooks', 'endpoints', 'update', id, '--enabled', '--name', 'renamed', '-o', 'table'])
      expect(ut.code, ut.stderr).toBe(0)
      expect(ut.stdout).toMatch(/^Name\s+renamed$/m)
      expect(ut.stdout).toMatch(/^Enabled\s+yes$/m)
    })

    it('endpoints create: --all-events, missing input fails without a terminal, events are picked on one', async () => {
      // every event type of the API version in use: the service's document's, then subscription.migrated (newer)
      const every = await till(['webhooks', 'endpoints', 'create', '--url', `${receiver.url}/every`, '--all-events', '--json'])
      const documented = JSON.parse(readFileSync(join(ROOT, 'contract', '2026-10.openapi.json'), 'utf8')).components.schemas.WebhookEventType.enum
      expect(json(every).events).toEqual([...documented, 'subscription.migrated'])
      const migrated = await till(['webhooks', 'endpoints', 'create', '--url', `${receiver.url}/x`, '--event', 'subscription.migrated', '--json'])
      expect(migrated.code, migrated.stderr).toBe(0)
      expect(json(migrated).events).toEqual(['subscription.migrated'])
      const misspelled = await till(['webhooks', 'endpoints', 'create', '--url', `${receiver.url}/x`, '--event', 'subscription.migrate'])
      expect(misspelled.code).toBe(2)
      expect(misspelled.stderr).toContain('subscription.migrate')
      expect(misspelled.stderr).not.toMatch(/\n\s+at /)

      const noEvents = await till(['webhooks', 'endpoints', 'create', '--url', `${receiver.url}/x`])
      expect(noEvents.code).toBe(2)
      expect(noEvents.stderr).toContain('missing --event')
      const noUrl = await till(['webhooks', 'endpoints', 'create', '--all-events'])
      expect(noUrl.code).toBe(2)
      expect(noUrl.stderr).toContain('missing --url')
      const badUrl = await till(['webhooks', 'endpoints', 'create', '--url', 'http://example.com/hook', '--all-events'])
      expect(badUrl.code).toBe(2)
      expect(badUrl.stderr).toContain("URL scheme should be 'https'")

      const picked = await answering(
        ['webhooks', 'endpoints', 'create', '--json'],
        [
          {when: /URL to send the events to/, send: `${receiver.url}/picked${KEY.enter}`},
          {when: /Events to send/, send: KEY.space},
          {when: /◉ checkout\.created/, send: `${KEY.down}${KEY.space}`},
          {when: /◉ checkout\.updated/, send: KEY.enter},
        ],
      )
      expect(picked.code, picked.stdout).toBe(0)
      expect(picked.unanswered).toBe(0)
      const created = JSON.parse(picked.stdout.slice(picked.stdout.indexOf('{'), picked.stdout.lastIndexOf('}') + 1))
      expect(created).toMatchObject({url: `${receiver.url}/picked`, events: ['checkout.created', 'checkout.updated']})
    })

    it('endpoints delete: --yes needed without a terminal; "n" and "y" on one; - from stdin', async () => {
      const e = await createEndpoint('/to-delete')
      const refused = await till(['webhooks', 'endpoints', 'delete', e.id])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`--yes is required to delete webhook endpoint ${e.id}`)
      expect((await api(env, 'GET', `/webhooks/endpoints/${e.id}`)).status).toBe(200)

      const no = await answering(['webhooks', 'endpoints', 'delete', e.id], [{when: /Delete webhook endpoint/, send: `n${KEY.enter}`}])
      expect(no.code).toBe(1)
      expect((await api(env, 'GET', `/webhooks/endpoints/${e.id}`)).status).toBe(200)
      const yes = await answering(['webhooks', 'endpoints', 'delete', e.id], [{when: /Delete webhook endpoint/, send: `y${KEY.enter}`}])
      expect(yes.code, yes.stdout).toBe(0)
      expect(yes.stdout).toContain(`Deleted webhook endpoint ${e.id}.`)
      expect((await api(env, 'GET', `/webhooks/endpoints/${e.id}`)).status).toBe(404)

      const [a, b] = [await createEndpoint('/bulk-a'), await createEndpoint('/bulk-b')]
      const bulk = await till(['webhooks', 'endpoints', 'delete', '-', '--yes', '--envelope', '--json'], {input: `${JSON.stringify({id: a.id})}\n${b.id}\n`})
      expect(bulk.code, bulk.stderr).toBe(0)
      expect(json(bulk).map((x: Json) => [x.id, x.ok])).toEqual([
        [a.id, true],
        [b.id, true],
      ])
      expect((await api(env, 'GET', `/webhooks/endpoints/${a.id}`)).status).toBe(404)
    })

    describe('verify a real delivery', () => {
      let captured: Awaited<ReturnType<typeof captureDelivery>>
      let secret: string
      const verify = (args: string[], opts: {input?: string; secret?: string | null} = {}) =>
        till(['webhooks', 'verify', ...args], {input: opts.input, extra: {TILL_WEBHOOK_SECRET: opts.secret === null ? undefined : (opts.secret ?? secret)}})

      beforeAll(async () => {
        captured = await captureDelivery('/verify')
        secret = captured.endpoint.secret
      })

      it('valid: exit 0, "valid" and the event type on stderr; --json gives the result', async () => {
        const r = await verify(['--body', captured.body, '--headers', captured.headers])
        expect(r.code, r.stderr).toBe(0)
        expect(r.stdout).toBe('')
        expect(r.stderr).toMatch(/^valid: customer\.created \(webhook-id [0-9a-f-]{36}, sent /)
        const j = await verify(['--body', captured.body, '--headers', captured.headers, '--json'])
        expect(j.code, j.stderr).toBe(0)
        expect(json(j)).toEqual({
          valid: true,
          type: 'customer.created',
          webhook_id: captured.delivery.headers['webhook-id'],
          timestamp: new Date(captured.timestamp * 1000).toISOString(),
          key: 'base64',
          signing: 'standard',
        })
        expectNoToken(j.stdout + j.stderr + r.stderr, secret, 'verify output')
      })

      it('valid with the headers as flags, the body from stdin and the secret from stdin', async () => {
        const h = captured.delivery.headers
        const flags = ['--id', String(h['webhook-id']), '--timestamp', String(h['webhook-timestamp']), '--signature', String(h['webhook-signature'])]
        const bodyStdin = await verify(['--body', '-', ...flags], {input: readFileSync(captured.body, 'utf8')})
        expect(bodyStdin.code, bodyStdin.stderr).toBe(0)
        const secretStdin = await verify(['--body', captured.body, '--secret-stdin', ...flags], {input: `${secret}\n`, secret: null})
        expect(secretStdin.code, secretStdin.stderr).toBe(0)
      })

      it('invalid: a tampered body, a wrong secret', async () => {
        const tampered = join(dir, 'tampered.json')
        writeFileSync(tampered, readFileSync(captured.body, 'utf8').replace('@example.com', '@evil.example'))
        const t = await verify(['--body', tampered, '--headers', captured.headers])
        expect(t.code).toBe(1)
        expect(linesOf(t.stderr)).toEqual([
          'Error: invalid: bad signature: it does not match the body with this secret (wrong secret, or the body was changed)',
        ])

        const wrong = await verify(['--body', captured.body, '--headers', captured.headers, '--json'], {secret: `whsec_${'A'.repeat(43)}`})
        expect(wrong.code).toBe(1)
        expect(json(wrong)).toEqual({valid: false, reason: expect.stringContaining('bad signature')})
      })

      it('invalid: a timestamp too old or too new (unless --ignore-timestamp)', async () => {
        const old = await verify(['--body', captured.body, '--headers', captured.headers, '--now', String(captured.timestamp + 301)])
        expect(old.code).toBe(1)
        expect(old.stderr).toMatch(/^Error: invalid: timestamp too old: sent \S+, 301 s ago \(at most 300 s is accepted\)$/m)
        const early = await verify(['--body', captured.body, '--headers', captured.headers, '--now', String(captured.timestamp - 301)])
        expect(early.code).toBe(1)
        expect(early.stderr).toContain('invalid: timestamp too new')
        const edge = await verify(['--body', captured.body, '--headers', captured.headers, '--now', String(captured.timestamp + 300)])
        expect(edge.code, edge.stderr).toBe(0)
        const ignored = await verify(['--body', captured.body, '--headers', captured.headers, '--now', String(captured.timestamp + 3600), '--ignore-timestamp'])
        expect(ignored.code, ignored.stderr).toBe(0)
      })

      it('invalid: a missing header; no secret is a usage error', async () => {
        const noSig = await verify(['--body', captured.body, '--id', 'x', '--timestamp', String(captured.timestamp)])
        expect(noSig.code).toBe(1)
        expect(noSig.stderr).toContain('Error: invalid: missing header webhook-signature')
        const noSecret = await verify(['--body', captured.body, '--headers', captured.headers], {secret: null})
        expect(noSecret.code).toBe(2)
        expect(noSecret.stderr).toContain('set TILL_WEBHOOK_SECRET, or pipe it in with --secret-stdin')
        const twoStdin = await verify(['--body', '-', '--secret-stdin'], {input: 'x'})
        expect(twoStdin.code).toBe(2)
      })

      it('also accepts a secret whose part after whsec_ is the base64 key (as SDK 1.0.1 does)', async () => {
        const base64Secret = `whsec_${Buffer.from('a key of thirty-two bytes exactly').toString('base64')}`
        const body = readFileSync(captured.body)
        const id = 'msg_base64_key'
        const signature = new Webhook(base64Secret).sign(id, new Date(captured.timestamp * 1000), body)
        const r = await verify(
          [
            '--body',
            captured.body,
            '--id',
            id,
            '--timestamp',
            String(captured.timestamp),
            '--signature',
            `v1,bogus ${signature}`,
            '--ignore-timestamp',
            '--json',
          ],
          {secret: base64Secret},
        )
        expect(r.code, r.stderr).toBe(0)
        expect(json(r)).toMatchObject({valid: true, key: 'base64', signing: 'standard'})
      })
    })
  })
})
