// Bulk output keeps the shape of single output, service errors as one sentence,
// readable detail views, the /dev/tty confirmation with a preview and --dry-run, raw csv/tsv with
// --header, and `profiles add` checking the token. Processes against one emulator.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, expectNoToken, linesOf, runAnswering, runTty, sandbox, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {api, startEmulator, type Emulator, type EnvHandle, type Json} from '../helpers/emulator.js'
import {scaled} from '../helpers/machine.js'

const unknownId = () => '00000000-0000-4000-8000-000000000000'

describe('bulk output, service errors, detail views and confirmations', {timeout: scaled(90_000)}, () => {
  let emulator: Emulator
  let env: EnvHandle
  let box: Sandbox
  const outputs: string[] = []

  const till = async (args: string[], opts: {input?: string; extra?: Record<string, string | undefined>} = {}): Promise<CliResult> => {
    const r = await runInProcess(args, {env: box.env({...envVars(env), TILL_ENV: 'local', ...opts.extra}), input: opts.input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const newCustomer = async (): Promise<Json> => {
    const res = await api(env, 'POST', '/customers/', {body: {email: `s${Math.random().toString(36).slice(2, 10)}@example.com`}})
    expect(res.status, res.text).toBe(201)
    return res.body
  }

  beforeAll(async () => {
    emulator = await startEmulator()
    env = emulator.production
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
    for (const text of outputs) expectNoToken(text, emulator.production.token)
  })

  describe('bulk output has the shape of single output', () => {
    it('get - prints, per id, what get ID prints: the same JSON object, the same tsv row; failures on stderr', async () => {
      const [a, b] = [await newCustomer(), await newCustomer()]
      const missing = unknownId()
      const input = `${a.id}\n${missing}\n${b.id}\n`
      const json = await till(['customers', 'get', '-', '--json'], {input})
      expect(json.code).toBe(1)
      const one = await till(['customers', 'get', a.id, '--json'])
      // one JSON object per line, each the single command's object: `jq .email` works on one id or many
      const objects = linesOf(json.stdout).map((l) => JSON.parse(l))
      expect(objects[0]).toEqual(JSON.parse(one.stdout))
      expect(objects.map((o) => o.email)).toEqual([a.email, b.email])
      expect(json.stderr).toMatch(new RegExp(`^Error: customer id ${missing}: .*\\(exit 3\\)$`, 'm'))
      expect(json.stderr).toContain('3 ids: 2 ok, 1 failed.')

      const tsv = await till(['customers', 'get', '-', '--columns', 'id,email'], {input})
      expect(tsv.code).toBe(1)
      expect(linesOf(tsv.stdout)).toEqual([`${a.id}\t${a.email}`, `${b.id}\t${b.email}`])
      const single = await till(['customers', 'get', b.id, '--columns', 'id,email'])
      expect(single.stdout).toBe(`${b.id}\t${b.email}\n`)
    })

    it("customers state - shows each customer's state: JSON objects, or rows naming the customer", async () => {
      const withState = (await api(env, 'GET', '/subscriptions/?active=true&limit=2')).body.items.map((s: Json) => s.customer_id) as string[]
      const input = `${withState.join('\n')}\n`
      const json = await till(['customers', 'state', '-', '--json'], {input})
      expect(json.code, json.stderr).toBe(0)
      const states = linesOf(json.stdout).map((l) => JSON.parse(l))
      expect(states.map((s) => s.id)).toEqual(withState)
      expect(states.every((s) => Array.isArray(s.active_subscriptions) && s.active_subscriptions.length > 0)).toBe(true)
      const tsv = await till(['customers', 'state', '-', '--columns', 'kind,id,customer_id'], {input})
      expect(tsv.code, tsv.stderr).toBe(0)
      const rows = linesOf(tsv.stdout).map((l) => l.split('\t'))
      expect(new Set(rows.map((r) => r[2]))).toEqual(new Set(withState))
      for (const s of states) {
        const subs = rows.filter((r) => r[0] === 'subscription' && r[2] === s.id).map((r) => r[1])
        expect(subs).toEqual(s.active_subscriptions.map((x: Json) => x.id))
      }
    })

    it('a bulk refund prints each refund as refunds create does (id, amount), the failures on stderr', async () => {
      const paid = (await api(env, 'GET', '/orders/?limit=50')).body.items.filter(
        (o: Json) => o.status === 'paid' && o.refundable_amount > 0 && o.subscription_id === null,
      )
      const [o1, o2] = paid
      const r = await till(['refunds', 'create', '--order', '-', '--reason', 'other', '--yes', '-o', 'jsonl'], {input: `${o1.id}\n${o2.id}\n${o1.id}\n`})
      expect(r.code).toBe(1)
      const refunds = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(refunds.map((x) => [x.order_id, x.amount])).toEqual([
        [o1.id, o1.refundable_amount],
        [o2.id, o2.refundable_amount],
      ])
      expect(refunds.every((x) => typeof x.id === 'string' && x.id !== o1.id)).toBe(true)
      expect(r.stderr).toMatch(new RegExp(`^Error: ${o1.id}: .*already given earlier`, 'm'))
    })

    it('--envelope keeps one {id, ok, result | error} record per input', async () => {
      const a = await newCustomer()
      const r = await till(['customers', 'get', '-', '--envelope', '-o', 'jsonl'], {input: `${a.id}\n${unknownId()}\n`})
      expect(r.code).toBe(1)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => x.ok)).toEqual([true, false])
      expect(results[0].result.email).toBe(a.email)
      expect(results[1].error.exit_code).toBe(3)
    })
  })
  describe('service errors as one sentence; a repeated state change is no error', () => {
    const sub = async (query: string): Promise<Json> => {
      const items = (await api(env, 'GET', `/subscriptions/?${query}&limit=20`)).body.items as Json[]
      const s = items.find((x) => !used.has(x.id))
      expect(s, query).toBeDefined()
      used.add(s!.id)
      return s!
    }
    const used = new Set<string>()

    it('cancel twice: exit 0, the subscription, and a note that nothing changed', async () => {
      const s = await sub('active=true&cancel_at_period_end=false')
      const first = await till(['subscriptions', 'cancel', s.id, '--yes', '--json'])
      expect(first.code, first.stderr).toBe(0)
      const again = await till(['subscriptions', 'cancel', s.id, '--yes', '--json'])
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toMatch(
        new RegExp(`^Note: subscription ${s.id} is already set to cancel at the end of its period \\(\\d{4}-\\d{2}-\\d{2}\\); nothing changed\\.$`, 'm'),
      )
      expect(JSON.parse(again.stdout)).toMatchObject({id: s.id, cancel_at_period_end: true})
    })

    it('uncancel of one not set to cancel: exit 0 with a note; of a revoked one: one sentence, exit 1', async () => {
      const renewing = await sub('active=true&cancel_at_period_end=false')
      const r = await till(['subscriptions', 'uncancel', renewing.id, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain(`Note: subscription ${renewing.id} is not set to cancel; it renews on`)
      const revoked = await sub('status=canceled')
      const gone = await till(['subscriptions', 'uncancel', revoked.id])
      expect(gone.code).toBe(1)
      expect(gone.stdout).toBe('')
      const [line, hint, ...rest] = linesOf(gone.stderr)
      expect(line).toBe(`Error: subscription ${revoked.id} has already ended, so it cannot be changed any more`)
      expect(hint).toMatch(/^Hint: /)
      expect(rest).toEqual([])
      expect(gone.stderr).not.toMatch(/410|ResourceUnavailable|Unavailable/)
    })

    it('revoke twice: exit 0 with a note', async () => {
      const s = await sub('active=true&cancel_at_period_end=false')
      expect((await till(['subscriptions', 'revoke', s.id, '--yes'])).code).toBe(0)
      const again = await till(['subscriptions', 'revoke', s.id, '--yes'])
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain(`Note: subscription ${s.id} already ended on`)
    })

    it('not found names the object, the id and the profile, and how to list them', async () => {
      const id = unknownId()
      const r = await till(['customers', 'get', id])
      expect(r.code).toBe(3)
      expect(linesOf(r.stderr)).toEqual([
        `Error: not found: there is no customer ${id} in local (profile local)`,
        'Hint: check the id, and the profile; list them with: till customers list',
      ])
      const order = await till(['orders', 'get', id])
      expect(order.stderr).toContain(`there is no order ${id} in local`)
    })
  })
  describe('readable detail views; a create prints its id when piped', () => {
    it('products get on a terminal: a summary with its prices as lines, money formatted, no JSON', async () => {
      const product = (await api(env, 'GET', '/products/?limit=20')).body.items.find((p: Json) => p.prices.some((x: Json) => x.amount_type === 'fixed'))
      const r = await runTty(`${TILL} products get ${product.id}`, {env: box.env({...envVars(env), TILL_ENV: 'local'})})
      outputs.push(r.stdout)
      expect(r.code, r.stdout).toBe(0)
      const text = stripAnsi(r.stdout)
      expect(text).toMatch(new RegExp(`^ID\\s+${product.id}$`, 'm'))
      expect(text).toMatch(/^Prices \(\d+\)$/m)
      const fixed = product.prices.find((x: Json) => x.amount_type === 'fixed')
      const shown = `$${(fixed.price_amount / 100).toLocaleString('en-US', {minimumFractionDigits: 2})}`
      expect(text).toMatch(new RegExp(`^ {2}${shown.replace('$', '\\$')} {2}${fixed.id}$`, 'm'))
      expect(text).not.toMatch(/[{[]"/)
    })

    it('orders get on a terminal: customer, address and items in the summary, not JSON blobs', async () => {
      const order = (await api(env, 'GET', '/orders/?limit=1')).body.items[0]
      const r = await runTty(`${TILL} orders get ${order.id}`, {env: box.env({...envVars(env), TILL_ENV: 'local'})})
      outputs.push(r.stdout)
      expect(r.code, r.stdout).toBe(0)
      const text = stripAnsi(r.stdout)
      expect(text).toMatch(new RegExp(`^Customer\\s+.*<${order.customer.email.replace('.', '\\.')}>$`, 'm'))
      expect(text).toMatch(/^Items \(\d+\)$/m)
      expect(text).toMatch(/^Billing address\s+\S.*, [A-Z]{2}$/m)
      expect(text).not.toMatch(/[{[]"/)
    })

    it('a create piped prints the new id alone; --json the object', async () => {
      const email = `created${Date.now()}@example.com`
      const r = await till(['customers', 'create', '--email', email])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/)
      const id = r.stdout.trim()
      expect((await api(env, 'GET', `/customers/${id}`)).body.email).toBe(email)
      const json = await till(['customers', 'create', '--email', `j${email}`, '--json'])
      expect(JSON.parse(json.stdout).email).toBe(`j${email}`)
    })
  })

  describe('csv and tsv carry raw values; --header / --no-header', () => {
    it('money in minor units with a currency column, the same for a list and one record', async () => {
      const order = (await api(env, 'GET', '/orders/?limit=1')).body.items[0]
      const list = await till(['orders', 'list', '--limit', '1', '--columns', 'id,net_amount'])
      expect(list.stdout).toBe(`${order.id}\t${order.net_amount}\t${order.currency}\n`)
      const one = await till(['orders', 'get', order.id, '--columns', 'id,net_amount'])
      expect(one.stdout).toBe(list.stdout)
      const headed = await till(['orders', 'get', order.id, '--columns', 'id,net_amount', '--header'])
      expect(headed.stdout).toBe(`id\tnet_amount\tcurrency\n${list.stdout}`)
      const csv = await till(['orders', 'list', '--limit', '1', '--columns', 'id,net_amount', '-o', 'csv', '--no-header'])
      expect(csv.stdout).toBe(`${order.id},${order.net_amount},${order.currency}\r\n`)
    })
  })
  describe('bulk confirmation on /dev/tty, with a preview; --dry-run', () => {
    const ids = async (query: string, n: number, keep: (x: Json) => boolean = () => true): Promise<Json[]> => {
      const items = ((await api(env, 'GET', `${query}&limit=100`)).body.items as Json[]).filter((x) => keep(x) && !taken.has(x.id)).slice(0, n)
      expect(items).toHaveLength(n)
      for (const x of items) taken.add(x.id)
      return items
    }
    const taken = new Set<string>()
    const vars = () => box.env({...envVars(env), TILL_ENV: 'local'})

    it('ids piped in at a terminal: the question is asked on /dev/tty with the count; y acts, n changes nothing', async () => {
      const subs = await ids('/subscriptions/?active=true&cancel_at_period_end=false', 2)
      const line = `printf '%s\\n' ${subs.map((x) => x.id).join(' ')} | ${TILL} subscriptions cancel -`
      const no = await runAnswering(line, vars(), [
        {when: /Cancel 2 subscriptions read from stdin, each at the end of its period \(local, profile local\)\? \(y\/N\)/, send: 'n\r'},
      ])
      outputs.push(no.stdout)
      expect(no.unanswered, no.stdout).toBe(0)
      expect(no.code).toBe(1)
      // declined is said as it is, not as an error
      expect(no.stdout).toContain('Cancelled; nothing was changed.')
      expect(no.stdout).not.toContain('Error:')
      for (const x of subs) expect((await api(env, 'GET', `/subscriptions/${x.id}`)).body.cancel_at_period_end).toBe(false)
      const yes = await runAnswering(line, vars(), [{when: /Cancel 2 subscriptions read from stdin/, send: 'y\r'}])
      outputs.push(yes.stdout)
      expect(yes.code, yes.stdout).toBe(0)
      expect(yes.stdout).toContain('2 ids: 2 ok, 0 failed.')
      for (const x of subs) expect((await api(env, 'GET', `/subscriptions/${x.id}`)).body.cancel_at_period_end).toBe(true)
    })

    it('--dry-run of a bulk refund prints how many orders and the total, and refunds nothing', async () => {
      const orders = await ids('/orders/?status=paid', 2, (o) => o.paid === true && o.refundable_amount > 0 && o.currency === 'usd')
      // what leaves, tax included
      const total = orders.reduce((sum, o) => sum + (o.refundable_amount as number) + (o.refundable_tax_amount as number), 0)
      const money = `$${(total / 100).toLocaleString('en-US', {minimumFractionDigits: 2, maximumFractionDigits: 2})}`
      const r = await till(['refunds', 'create', '--order', '-', '--reason', 'other', '--dry-run'], {input: `${orders.map((o) => o.id).join('\n')}\n`})
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe(`Dry run: would refund 2 orders read from stdin in full, ${money} in all with tax (local, profile local); nothing was changed.\n`)
      for (const o of orders) expect((await api(env, 'GET', `/orders/${o.id}`)).body.refunded_amount).toBe(o.refunded_amount)
    })

    it('--dry-run of one refund and of a bulk delete: the preview, nothing changed, no --yes needed', async () => {
      const [order] = await ids('/orders/?status=paid', 1, (o) => o.paid === true && o.refundable_amount > 100 && o.currency === 'usd')
      const one = await till(['refunds', 'create', '--order', order!.id, '--amount-minor', '100', '--reason', 'other', '--dry-run'])
      expect(one.code, one.stderr).toBe(0)
      const tax = Math.round((100 * order!.tax_amount) / order!.net_amount)
      const leaving = tax === 0 ? '$1.00 (USD)' : `$${((100 + tax) / 100).toFixed(2)} (USD) ($1.00 + $${(tax / 100).toFixed(2)} tax)`
      expect(one.stdout).toBe(`Dry run: would refund ${leaving} of order ${order!.id} (local, profile local); nothing was changed.\n`)
      expect((await api(env, 'GET', `/orders/${order!.id}`)).body.refunded_amount).toBe(order!.refunded_amount)
      const [a, b] = [await newCustomer(), await newCustomer()]
      const del = await till(['customers', 'delete', '-', '--dry-run'], {input: `${a.id}\n${b.id}\n`})
      expect(del.code, del.stderr).toBe(0)
      expect(del.stdout).toMatch(/^Dry run: would delete 2 customers read from stdin/)
      for (const c of [a, b]) expect((await api(env, 'GET', `/customers/${c.id}`)).body.deleted_at).toBeNull()
    })
  })
  describe('profiles add checks the token as auth login does', () => {
    const profilesOf = async () => JSON.parse((await till(['profiles', 'list', '--json'])).stdout) as Json[]

    it('a refused token is not saved (exit 4); --no-verify saves it; a good one records its organization', async () => {
      const bad = await till(['profiles', 'add', 'bad', '--environment', 'production', '--url', env.url, '--token-stdin'], {
        input: `polar_oat_${'Z'.repeat(43)}\n`,
      })
      expect(bad.code).toBe(4)
      expect(linesOf(bad.stderr)[0]).toBe(
        'Error: production does not accept this token (is it a token of the other environment, expired or revoked?); nothing was saved',
      )
      expect(bad.stderr).toContain('--no-verify')
      expect((await profilesOf()).map((p) => p.name)).not.toContain('bad')

      const unchecked = await till(['profiles', 'add', 'unchecked', '--environment', 'production', '--url', env.url, '--token-stdin', '--no-verify'], {
        input: `polar_oat_${'Z'.repeat(43)}\n`,
      })
      expect(unchecked.code, unchecked.stderr).toBe(0)
      expect((await profilesOf()).map((p) => p.name)).toContain('unchecked')

      const good = await till(['profiles', 'add', 'good', '--environment', 'production', '--url', env.url, '--token-stdin'], {input: `${env.token}\n`})
      expect(good.code, good.stderr).toBe(0)
      expect(good.stderr).toContain(`The token belongs to organization `)
      expect((await profilesOf()).find((p) => p.name === 'good')).toMatchObject({environment: 'production', organization_id: env.organizationId})
    })

    it('an unreachable URL is a network error (exit 6), nothing saved', async () => {
      const r = await till(['profiles', 'add', 'away', '--environment', 'production', '--url', 'http://127.0.0.1:1/v1', '--token-stdin'], {
        input: `${env.token}\n`,
      })
      expect(r.code).toBe(6)
      expect(r.stderr).toMatch(/^Error: cannot reach http:\/\/127\.0\.0\.1:1\/v1/m)
      expect((await profilesOf()).map((p) => p.name)).not.toContain('away')
    })
  })
})
