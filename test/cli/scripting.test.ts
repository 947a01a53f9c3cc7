// What an operator scripting till trips on, as processes against one emulator: global flags before the
// command, bulk input checked before the first write.
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {spawn} from 'node:child_process'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {
  envVars,
  expectNoToken,
  jsonlIds,
  linesOf,
  logFrom,
  runAnswering,
  runCli,
  runShell,
  runTty,
  sandbox,
  sh,
  TILL,
  type CliResult,
  type Sandbox,
} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, listAll, ROOT, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {allowRefusals} from '../helpers/contract.js'
import {scaled} from '../helpers/machine.js'

describe('operator traps', {timeout: scaled(90_000)}, () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  const outputs: string[] = []

  const till = async (args: string[], opts: {input?: string; extra?: Record<string, string | undefined>; config?: boolean} = {}): Promise<CliResult> => {
    const vars = opts.config ? box.env(opts.extra) : box.env({...envVars(env), TILL_ENV: 'local', ...opts.extra})
    const r = await runInProcess(args, {env: vars, input: opts.input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const orgOf = (r: CliResult): string => (JSON.parse(r.stdout) as {items: Array<{id: string}>}).items[0]!.id
  const newCustomer = async (): Promise<Json> => {
    const res = await api(env, 'POST', '/customers/', {body: {email: `c${Math.random().toString(36).slice(2, 10)}@example.com`}})
    expect(res.status, res.text).toBe(201)
    return res.body
  }

  beforeAll(async () => {
    emulator = await startEmulator({quiet: false})
    env = emulator.production
    box = sandbox()
    // kept in the file by choice (--insecure-storage): no keyring is asked, nothing said about it
    const profile = (environment: string, handle: EnvHandle) => ({environment, base_url: handle.url, token: handle.token, token_store: 'file'})
    const config = {active: 'prod', profiles: {prod: profile('production', emulator.production), sbx: profile('sandbox', emulator.sandbox)}}
    mkdirSync(box.configDir, {recursive: true, mode: 0o700})
    writeFileSync(join(box.configDir, 'config.json'), JSON.stringify(config), {mode: 0o600})
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    for (const text of outputs) {
      expectNoToken(text, emulator.production.token)
      expectNoToken(text, emulator.sandbox.token)
    }
  })

  describe('global flags before the command', () => {
    it('-p before the command picks the profile, as after it', async () => {
      const before = await till(['-p', 'sbx', 'api', 'GET', '/organizations/'], {config: true})
      expect(before.stderr).toBe('')
      expect(before.code).toBe(0)
      expect(orgOf(before)).toBe(emulator.sandbox.organizationId)
      const after = await till(['api', 'GET', '/organizations/', '-p', 'sbx'], {config: true})
      expect(orgOf(after)).toBe(emulator.sandbox.organizationId)
      const active = await till(['api', 'GET', '/organizations/'], {config: true})
      expect(orgOf(active)).toBe(emulator.production.organizationId)
    })

    it('--profile=NAME and --debug before the command', async () => {
      const r = await till(['--profile=sbx', '--debug', 'api', 'GET', '/organizations/'], {config: true})
      expect(r.code).toBe(0)
      expect(orgOf(r)).toBe(emulator.sandbox.organizationId)
      expect(r.stderr).toContain('GET')
    })

    it('an unknown profile before the command is the usual usage error, not "command -p not found"', async () => {
      const r = await till(['-p', 'nope', 'products', 'list'], {config: true})
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('"nope"')
      expect(r.stderr).not.toContain('not found')
    })
  })

  describe('bulk input is checked before the first write', () => {
    it('a bad line deletes nothing, exits 2 and names the line', async () => {
      const [c1, c2, c3] = [await newCustomer(), await newCustomer(), await newCustomer()]
      const r = await till(['customers', 'delete', '-', '--yes', '-o', 'jsonl'], {input: `${c1.id}\n${c2.id}\n{"id": 5}\n${c3.id}\n`})
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('stdin line 3 has no "id" string')
      expect(r.stdout).toBe('')
      for (const c of [c1, c2, c3]) {
        const res = await api(env, 'GET', `/customers/${c.id}`)
        expect(res.status).toBe(200)
        expect(res.body.deleted_at).toBeNull()
      }
    })

    it('ids read for the id argument are checked as UUIDs; external ids read for --external-id are not', async () => {
      const c1 = await newCustomer()
      const r = await till(['customers', 'get', '-', '--envelope', '-o', 'jsonl'], {input: `${c1.id}\nnot-a-uuid\n`})
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('1 of 2 failed')
      const results = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(results.map((x) => [x.id, x.ok])).toEqual([
        [c1.id, true],
        ['not-a-uuid', false],
      ])
      expect(results[1].error.message).toContain('Input should be a valid UUID')
      const byExternal = await till(['customers', 'get', '--external-id', '-', '--envelope', '-o', 'jsonl'], {input: 'no_such_user\n'})
      expect(byExternal.code).toBe(1)
      expect(byExternal.stdout).not.toContain('valid UUID')
      expect(JSON.parse(byExternal.stdout).ok).toBe(false)
    })

    it('invalid JSON on the last line: nothing is acted on', async () => {
      const c1 = await newCustomer()
      const r = await till(['customers', 'delete', '-', '--yes'], {input: `${c1.id}\n{not json\n`})
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('stdin line 2 is not valid JSON')
      expect((await api(env, 'GET', `/customers/${c1.id}`)).body.deleted_at).toBeNull()
    })

    it('a good input acts on every id and prints one line per id', async () => {
      const [c1, c2] = [await newCustomer(), await newCustomer()]
      const r = await till(['customers', 'delete', '-', '--yes', '-o', 'jsonl'], {input: `${c1.id}\n${c2.id}\n`})
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stdout)).toHaveLength(2)
      for (const c of [c1, c2]) expect((await api(env, 'GET', `/customers/${c.id}`)).body.deleted_at).not.toBeNull()
    })
  })

  describe('messages and exit codes', () => {
    it('Ctrl-C at a prompt exits 130, quietly, and creates nothing', async () => {
      const before = (await api(env, 'GET', '/customers/?limit=1')).body.pagination.total_count
      const r = await runAnswering(`${TILL} ${['customers', 'create', '--name', 'Nobody'].map(sh).join(' ')}`, box.env({...envVars(env), TILL_ENV: 'local'}), [
        {when: /Email address/, send: '\x03'},
      ])
      outputs.push(r.stdout)
      expect(r.unanswered).toBe(0)
      expect(r.code).toBe(130)
      expect(r.stdout).not.toContain('force closed')
      expect(r.stdout).not.toContain('Error')
      expect((await api(env, 'GET', '/customers/?limit=1')).body.pagination.total_count).toBe(before)
    })

    it('auth status exits 6 (network), not 4 (authentication), when the API cannot be reached', async () => {
      const r = await till(['auth', 'status'], {
        extra: {TILL_API_URL: 'http://127.0.0.1:1/v1', TILL_TOKEN: `polar_oat_${'N'.repeat(43)}`, TILL_ENV: 'production'},
      })
      expect(r.code).toBe(6)
      expect(r.stderr).toContain('cannot reach the API')
      expect(linesOf(r.stderr).filter((l) => l.startsWith('Error:'))).toHaveLength(1)
    })

    it('auth status still exits 4 when the service refuses the token', async () => {
      const r = await till(['auth', 'status'], {extra: {TILL_TOKEN: `polar_oat_${'R'.repeat(43)}`}})
      expect(r.code).toBe(4)
    })
  })

  describe('pagination that returns what was asked', () => {
    it('--max-items 25 pages until it has 25, in the API order', async () => {
      const all = (await listAll(env, '/orders/')).map((o: Json) => o.id as string)
      expect(all.length).toBeGreaterThan(25)
      const r = await till(['orders', 'list', '--max-items', '25', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(jsonlIds(r.stdout)).toEqual(all.slice(0, 25))
    })

    it('--max-items past the end gives the whole list', async () => {
      const all = await listAll(env, '/products/')
      const r = await till(['products', 'list', '--max-items', '1000', '-o', 'jsonl'])
      expect(jsonlIds(r.stdout)).toHaveLength(all.length)
    })

    it('--all with --page is a usage error', async () => {
      const r = await till(['products', 'list', '--all', '--page', '2'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('--all reads every page, so it cannot be given with --page')
    })

    it('on a terminal, a partial table says how many more and how; an empty page says so', async () => {
      const total = (await listAll(env, '/products/')).length
      const vars = box.env({...envVars(env), TILL_ENV: 'local'})
      const part = await runTty(`${TILL} products list --limit 3 --columns id,name`, {env: vars})
      outputs.push(part.stdout)
      expect(part.code).toBe(0)
      expect(part.stdout).toContain(`Showing 3 of ${total} products; ${total - 3} more: add --all`)
      const empty = await runTty(`${TILL} products list --page 99 --columns id,name`, {env: vars})
      outputs.push(empty.stdout)
      expect(empty.stdout).toMatch(/No products on page 99 \(there are \d+ pages\)\./)
      const whole = await runTty(`${TILL} products list --all --columns id,name`, {env: vars})
      outputs.push(whole.stdout)
      expect(whole.stdout).not.toContain('more:')
    })
  })

  describe('list --metadata is checked as on create', () => {
    it('a pair without = is refused before any request', async () => {
      const log = await logFrom(emulator)
      const r = await till(['orders', 'list', '--metadata', 'foo'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('--metadata takes key=value with a key of 1-40 characters, not "foo"')
      expect(r.stdout).toBe('')
      expect(log().filter((q) => q.path.startsWith('/v1/orders'))).toEqual([])
    })

    it('a good pair filters', async () => {
      const c = await api(env, 'POST', '/customers/', {body: {email: 'meta-filter@example.com', metadata: {tier: 'gold'}}})
      const r = await till(['customers', 'list', '--metadata', 'tier=gold', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(jsonlIds(r.stdout)).toEqual([c.body.id])
    })
  })

  describe('help as other tools take it', () => {
    it('till help, till help products and -h print help, exit 0', async () => {
      const root = await till(['help'])
      expect(root.code, root.stderr).toBe(0)
      expect(root.stdout).toContain('TOPICS')
      const topic = await till(['help', 'products'])
      expect(topic.code, topic.stderr).toBe(0)
      expect(topic.stdout).toContain('products list')
      const short = await till(['products', 'list', '-h'])
      expect(short.code, short.stderr).toBe(0)
      expect(short.stdout).toContain('USAGE')
      expect(short.stdout).toContain('--max-items')
      const command = await till(['help', 'products', 'list'])
      expect(command.stdout).toBe(short.stdout)
    })
  })

  describe('--columns with JSON output', () => {
    it('jsonl keeps only the fields asked for, dotted paths nested', async () => {
      const first = (await api(env, 'GET', '/orders/?limit=2')).body.items as Json[]
      const r = await till(['orders', 'list', '--limit', '2', '-o', 'jsonl', '--columns', 'id,customer.email,net_amount'])
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stdout).map((l) => JSON.parse(l))).toEqual(first.map((o) => ({id: o.id, customer: {email: o.customer.email}, net_amount: o.net_amount})))
    })

    it('a single record in json, and a dotted path in tsv', async () => {
      const order = (await api(env, 'GET', '/orders/?limit=1')).body.items[0] as Json
      const one = await till(['orders', 'get', order.id, '--json', '--columns', 'id,status,product.name'])
      expect(one.code, one.stderr).toBe(0)
      expect(JSON.parse(one.stdout)).toEqual({id: order.id, status: order.status, product: {name: order.product.name}})
      const tsv = await till(['orders', 'list', '--limit', '1', '-o', 'tsv', '--columns', 'id,customer.email'])
      expect(tsv.stdout).toBe(`${order.id}\t${order.customer.email}\n`)
    })

    it("a path through a list takes each element's field, and a position in a list is refused in words", async () => {
      const products = (await api(env, 'GET', '/products/?limit=100')).body.items as Json[]
      const product = products.find((p) => p.prices.length >= 2) ?? products.find((p) => p.prices.length > 0)!
      const vars = box.env({...envVars(env), TILL_ENV: 'local'})
      const each = await runCli(['products', 'get', product.id, '--json', 'id,prices.price_amount,prices.id'], {env: vars})
      expect(each.code, each.stderr).toBe(0)
      const prices = product.prices.map((p: Json) => ({price_amount: p.price_amount ?? null, id: p.id}))
      expect(JSON.parse(each.stdout)).toEqual({id: product.id, prices})
      const indexed = await runCli(['products', 'get', product.id, '--json', 'prices.0.price_amount'], {env: vars})
      expect(indexed.code).toBe(2)
      expect(indexed.stdout).toBe('')
      expect(indexed.stderr).toContain('"prices.0.price_amount": prices is a list, and a path takes from each of its elements')
      expect(indexed.stderr).toContain("give prices.price_amount for every element, or pick one with jq: --json prices | jq '.prices[0].price_amount'")
      expect(indexed.stderr).not.toMatch(/\n\s+at /)
    })

    it('an unknown field is refused with JSON too', async () => {
      const r = await till(['orders', 'list', '-o', 'jsonl', '--columns', 'id,nope'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('Unknown column "nope"')
    })
  })

  describe('invoice get --download to stdout or a folder', () => {
    it('- writes the document to stdout; DIR saves it there under the service file name, nothing else left', async () => {
      const orders = (await api(env, 'GET', '/orders/?limit=100')).body.items as Json[]
      const order = orders.find((o) => o.status === 'paid' && !o.is_invoice_generated && o.billing_address !== null && o.billing_name !== null)
      expect(order).toBeDefined()
      const generated = await till(['orders', 'invoice', 'generate', order.id, '--wait'])
      expect(generated.code, generated.stderr).toBe(0)

      const vars = box.env({...envVars(env), TILL_ENV: 'local'})
      const piped = await runShell(`${TILL} orders invoice get ${sh(order.id)} --download - | head -c 5`, {env: vars})
      outputs.push(piped.stderr)
      expect(piped.code).toBe(0)
      expect(piped.stdout).toBe('%PDF-')

      const dir = mkdtempSync(join(tmpdir(), 'till-invoices-'))
      try {
        const saved = await till(['orders', 'invoice', 'get', order.id, '--download', dir])
        expect(saved.code, saved.stderr).toBe(0)
        expect(saved.stdout).toBe('')
        expect(readdirSync(dir)).toEqual([`${order.id}.pdf`])
        expect(
          readFileSync(join(dir, `${order.id}.pdf`))
            .subarray(0, 5)
            .toString(),
        ).toBe('%PDF-')
        expect(saved.stderr).toContain(`to ${join(dir, `${order.id}.pdf`)}`)
      } finally {
        rmSync(dir, {recursive: true, force: true})
      }
    })
  })

  describe('atomic and honest product create', () => {
    const productCount = async () => (await api(env, 'GET', '/products/?limit=1')).body.pagination.total_count as number

    it('an unknown --benefit creates nothing: exit 3 naming it', async () => {
      const before = await productCount()
      const missing = '00000000-0000-4000-8000-000000000000'
      const r = await till(['products', 'create', '--name', 'Never Made', '--price', '5', '--benefit', missing])
      expect(r.code).toBe(3)
      expect(r.stderr).toContain(`benefit ${missing} not found; nothing was created`)
      expect(r.stdout).toBe('')
      expect(await productCount()).toBe(before)
    })

    it('a known --benefit is attached, and the id is reported first', async () => {
      const benefit = (await api(env, 'GET', '/benefits/?limit=1')).body.items[0] as Json
      const r = await till(['products', 'create', '--name', 'With Benefit', '--price', '5', '--benefit', benefit.id, '--json'])
      expect(r.code, r.stderr).toBe(0)
      const product = JSON.parse(r.stdout)
      expect(product.benefits.map((b: Json) => b.id)).toEqual([benefit.id])
      expect(r.stderr).toContain(`Created product ${product.id}.`)
    })

    it('--currency XYZ is refused before any request; the emulator refuses it too (422)', async () => {
      allowRefusals()
      const before = await productCount()
      const r = await till(['products', 'create', '--name', 'Odd Money', '--price', '5', '--currency', 'XYZ'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('--currency XYZ is not a currency the service takes')
      expect(await productCount()).toBe(before)
      const res = await api(env, 'POST', '/products/', {body: {name: 'Odd Money', prices: [{amount_type: 'fixed', price_amount: 500, price_currency: 'xyz'}]}})
      expect(res.status).toBe(422)
      expect(res.body.detail[0].type).toBe('enum')
      const eur = await till(['products', 'create', '--name', 'Euro Thing', '--price', '5', '--currency', 'EUR', '--json'])
      expect(eur.code, eur.stderr).toBe(0)
      expect(JSON.parse(eur.stdout).prices[0].price_currency).toBe('eur')
    })

    it('--price 0 says the product is free', async () => {
      const r = await till(['products', 'create', '--name', 'Zero Price', '--price', '0', '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain('A price of 0 makes the product free (as --free does).')
      expect(JSON.parse(r.stdout).prices[0].price_amount).toBe(0)
    })
  })

  describe('emulator start --port 0', () => {
    it('prints export lines and a profile command that work when pasted', async () => {
      const data = mkdtempSync(join(tmpdir(), 'till-emu-paste-'))
      const child = spawn(process.execPath, ['bin/run.js', 'emulator', 'start', '--port', '0', '--data', data, '-q'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      try {
        let out = ''
        await new Promise<void>((resolve, reject) => {
          child.stdout.setEncoding('utf8').on('data', (c: string) => {
            out += c
            if (out.includes('Press Ctrl-C')) resolve()
          })
          child.once('exit', () => reject(new Error(`emulator exited: ${out}`)))
        })
        const exportLine = linesOf(out)
          .map((l) => l.trim())
          .find((l) => l.startsWith('export TILL_API_URL='))!
        const profileLine = linesOf(out)
          .map((l) => l.trim())
          .find((l) => l.includes('| till profiles add emulator'))!
        expect(exportLine).toMatch(/^export TILL_API_URL=http:\/\/127\.0\.0\.1:\d+\/v1 TILL_TOKEN=polar_oat_\S+ TILL_ENV=local$/)
        const vars = box.env()
        const viaEnv = await runShell(`${exportLine}; ${TILL} products list --max-items 1 -o jsonl`, {env: vars})
        expect(viaEnv.code, viaEnv.stderr).toBe(0)
        expect(jsonlIds(viaEnv.stdout)).toHaveLength(1)
        const viaProfile = await runShell(`${profileLine.replace('| till ', `| ${TILL} `)} && ${TILL} products list -p emulator --max-items 1 -o jsonl`, {
          env: vars,
        })
        expect(viaProfile.code, viaProfile.stderr).toBe(0)
        expect(viaProfile.stdout).toBe(viaEnv.stdout)
      } finally {
        child.kill('SIGTERM')
        await new Promise((resolve) => child.once('close', resolve))
        rmSync(data, {recursive: true, force: true})
      }
    })
  })

  describe('one spelling per concept', () => {
    it('subscriptions get, with show kept as a hidden alias', async () => {
      const sub = (await api(env, 'GET', '/subscriptions/?limit=1')).body.items[0] as Json
      const got = await till(['subscriptions', 'get', sub.id, '--json'])
      expect(got.code, got.stderr).toBe(0)
      expect(JSON.parse(got.stdout).id).toBe(sub.id)
      const shown = await till(['subscriptions', 'show', sub.id, '--json'])
      expect(shown.stdout).toBe(got.stdout)
      const help = await till(['subscriptions', '--help'])
      expect(help.stdout).toContain('subscriptions get')
      expect(help.stdout).not.toContain('subscriptions show')
    })

    it('sessions create --customer / --external-customer; the old spellings work with a one-line warning', async () => {
      const customer = (await api(env, 'GET', '/customers/?limit=1')).body.items[0] as Json
      const now = await till(['sessions', 'create', '--customer', customer.id, '--json'])
      expect(now.code, now.stderr).toBe(0)
      expect(JSON.parse(now.stdout).customer_id).toBe(customer.id)
      const old = await till(['sessions', 'create', '--customer-id', customer.id, '--json'])
      expect(old.code, old.stderr).toBe(0)
      expect(old.stderr).toBe('Warning: --customer-id is deprecated; use --customer.\n')
      const help = await till(['sessions', 'create', '--help'])
      expect(help.stdout).not.toContain('--customer-id')
      expect(help.stdout).not.toContain('--external-customer-id')
    })
  })

  describe("auth login with the other environment's URL", () => {
    it('without a terminal: refused naming the fix, nothing saved; on a terminal: warned and asked', async () => {
      const fresh = sandbox()
      try {
        const r = await runInProcess(['auth', 'login', '--environment', 'production', '--url', 'https://sandbox-api.polar.sh/v1', '--token-stdin'], {
          env: fresh.env(),
          input: `polar_oat_${'P'.repeat(43)}\n`,
        })
        expect(r.code).toBe(2)
        expect(r.stderr).toContain('https://sandbox-api.polar.sh/v1 is the sandbox URL, but the profile is for production; nothing was saved')
        expect(r.stderr).toContain('use --environment sandbox, or pass --force')
        const asked = await runAnswering(`${TILL} auth login --environment sandbox --url https://api.polar.sh/v1`, fresh.env(), [
          {when: /Save a sandbox profile with the production URL\?/, send: 'n\r'},
        ])
        expect(asked.unanswered).toBe(0)
        expect(asked.stdout).toContain('Warning: https://api.polar.sh/v1 is the production URL, but the profile is for sandbox.')
        expect(asked.code).toBe(1)
        expect(asked.stdout).toContain('Cancelled; nothing was saved.')
      } finally {
        fresh.cleanup()
      }
    })
  })
})
