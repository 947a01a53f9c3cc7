// `till orders update`, `orders invoice generate|get`, `refunds list|create` and `subscriptions ...` as
// processes against one emulator (request log on): table and JSON output, confirmations without a
// terminal (--yes needed, nothing changed) and on a pseudo-terminal (answered y / n), prompts answered
// through the pseudo-terminal, the invoice flow, and refunds above the refundable amount refused locally.
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {api, listAll, ROOT, startEmulator, unknownId, type Emulator, type Json} from '../helpers/emulator.js'
import {
  asShown,
  envVars,
  expectNoToken,
  jsonlIds,
  linesOf,
  settledLogFrom,
  runShell,
  sandbox,
  sh,
  stripAnsi,
  TILL,
  type CliResult,
  type LoggedRequest,
  type Sandbox,
} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {allowRefusals} from '../helpers/contract.js'
import {scaled} from '../helpers/machine.js'

/** `jq -r .id` in node: the id of each JSON line. */
const NODE_JQ_ID = `${JSON.stringify(process.execPath)} -e ${sh("require('readline').createInterface({input: process.stdin}).on('line', (l) => console.log(JSON.parse(l).id))")}`
const DOWN = '\x1b[B'
const ENTER = '\r'

/** One answer on the pseudo-terminal: once `when` shows up (after the previous answer), type `send`. */
interface Answer {
  when: RegExp
  send: string[]
}

/**
 * Runs a shell command line on a pseudo-terminal (`script`), typing each answer once its prompt shows.
 * stdout holds the terminal's output (stdout and stderr), ANSI codes removed, CRLF as LF.
 */
function runPty(command: string, answers: Answer[], env: NodeJS.ProcessEnv, timeoutMs = scaled(25_000)): Promise<CliResult & {unanswered: number}> {
  const child = spawn('script', ['-qfec', `stty cols 250 rows 50 2>/dev/null; ${command}`, '/dev/null'], {cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe']})
  const started = Date.now()
  let raw = ''
  let from = 0
  let next = 0
  let typing = false
  const type = async (keys: string[]) => {
    typing = true
    for (const key of keys) {
      await new Promise((r) => setTimeout(r, 120))
      child.stdin.write(key)
    }
    typing = false
    check()
  }
  const check = () => {
    if (typing || next >= answers.length) return
    const text = stripAnsi(raw)
    const match = answers[next]!.when.exec(text.slice(from))
    if (!match) return
    from += match.index + match[0].length
    void type(answers[next++]!.send)
  }
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    raw += c
    check()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({code, signal, stdout: stripAnsi(raw).replaceAll('\r\n', '\n'), stderr: '', ms: Date.now() - started, unanswered: answers.length - next})
    })
  })
}

/** The exit status a command line run by `script` ended with (script itself exits 0). */
const EXIT = '; echo "[exit $?]"'
const exitOf = (text: string) => Number(/\[exit (\d+)\]/.exec(text)?.[1] ?? -1)

describe('billing commands against the emulator', () => {
  let emulator: Emulator
  let box: Sandbox
  const outputs: string[] = []
  /** Ids a test has taken, so that no two tests change the same order or subscription. */
  const used = new Set<string>()

  const env = (extra: Record<string, string> = {}) => box.env(envVars(emulator.production, {TILL_ENV: 'local', ...extra}))
  const till = async (args: string[], options: {input?: string; extra?: Record<string, string>} = {}): Promise<CliResult> => {
    const r = await runInProcess(args, {env: env(options.extra), input: options.input})
    outputs.push(r.stdout, r.stderr)
    return r
  }
  const pty = async (args: string, answers: Answer[], extra: Record<string, string> = {}) => {
    const r = await runPty(`${TILL} ${args}${EXIT}`, answers, env(extra))
    outputs.push(r.stdout)
    return {...r, exit: exitOf(r.stdout)}
  }
  const get = async (path: string): Promise<Json> => {
    const res = await api(emulator.production, 'GET', path)
    expect(res.status, res.text).toBe(200)
    return res.body
  }
  /** The first item of `path?query` that `match` accepts and no test took yet. */
  const take = async (path: string, query: string, match: (item: Json) => boolean): Promise<Json> => {
    const item = (await listAll(emulator.production, path, query)).find((x) => !used.has(x.id) && match(x))
    expect(item, `an unused item of ${path}?${query}`).toBeDefined()
    used.add(item.id)
    return item
  }
  const writes = (log: LoggedRequest[]) => log.filter((q) => q.method !== 'GET')
  const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`
  /** What leaves when `minor` (pre-tax) of a USD order is refunded: the order's share of tax comes with it. */
  const leaving = (order: Json, minor: number) => {
    const tax =
      minor === order.refundable_amount
        ? order.refundable_tax_amount
        : Math.min(order.refundable_tax_amount, Math.round((minor * order.tax_amount) / order.net_amount))
    return tax === 0 ? `${dollars(minor)} (USD)` : `${dollars(minor + tax)} (USD) (${dollars(minor)} + ${dollars(tax)} tax)`
  }

  beforeAll(async () => {
    emulator = await startEmulator({orders: 160, invoiceDelay: '2s', quiet: false})
  })
  afterAll(async () => {
    for (const text of outputs) expectNoToken(text, emulator.production.token)
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  // ---- orders update and the invoice flow ----

  describe('orders update', () => {
    it('sets the billing name and merges address flags (table and JSON)', async () => {
      const order = await take('/orders/', 'status=paid', (o) => !o.is_invoice_generated && o.billing_address !== null)
      const table = await till(['orders', 'update', order.id, '--billing-name', 'Acme GmbH', '--line2', 'Floor 3', '-o', 'table'])
      expect(table.code, table.stderr).toBe(0)
      // after a change, the order's summary: the billing name and the address on one line
      expect(table.stdout).toMatch(/^Billing name\s+Acme GmbH$/m)
      expect(table.stdout).toMatch(/^Billing address\s+.*Floor 3, /m)
      const json = await till(['orders', 'update', order.id, '--city', 'Springfield', '--postal-code', '12345', '--json'])
      expect(json.code, json.stderr).toBe(0)
      const body = JSON.parse(json.stdout)
      expect(body.billing_name).toBe('Acme GmbH')
      expect(body.billing_address).toEqual({...order.billing_address, line2: 'Floor 3', city: 'Springfield', postal_code: '12345'})
      expect((await get(`/orders/${order.id}`)).billing_address).toEqual(body.billing_address)
    })

    it('without any change to make fails at once naming the flags (exit 2)', async () => {
      const r = await till(['orders', 'update', unknownId()])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^Error: nothing to update$/m)
      expect(r.stderr).toContain('--billing-name')
    })

    it("a changed country is refused with the server's message (exit 2)", async () => {
      const order = await take('/orders/', 'status=paid', (o) => !o.is_invoice_generated && o.billing_address !== null && o.billing_address.country !== 'NO')
      const r = await till(['orders', 'update', order.id, '--country', 'NO'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('body.billing_address.country: Country cannot be changed')
    })
  })

  describe('orders invoice', () => {
    it('get before generate: exit 3 with the command to run; generate --wait, get, download; PATCH after generation refused', async () => {
      const order = await take('/orders/', 'status=paid', (o) => !o.is_invoice_generated && o.billing_address !== null && o.billing_name !== null)
      const before = await till(['orders', 'invoice', 'get', order.id])
      expect(before.code).toBe(3)
      expect(before.stdout).toBe('')
      expect(before.stderr).toContain(`Error: no invoice yet for order ${order.id}; run: till orders invoice generate ${order.id}`)

      const log = await settledLogFrom(emulator)
      const generated = await till(['orders', 'invoice', 'generate', order.id, '--wait'])
      expect(generated.code, generated.stderr).toBe(0)
      const url = generated.stdout.trim()
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/files/invoices/${order.id}\\.pdf\\?expires=\\d+&signature=[0-9a-f]+$`))
      // The document is ready 2 s after the POST: --wait polled until then.
      expect(generated.ms).toBeGreaterThanOrEqual(1800)
      const calls = (await log()).filter((q) => q.path.startsWith(`/v1/orders/${order.id}/invoice`))
      expect(calls.filter((q) => q.method === 'POST').map((q) => q.status)).toEqual([202])
      expect(calls.filter((q) => q.method === 'GET' && q.status === 404).length).toBeGreaterThan(0)
      expect(calls.at(-1)).toMatchObject({method: 'GET', status: 200})

      const got = await till(['orders', 'invoice', 'get', order.id])
      expect(got.code, got.stderr).toBe(0)
      expect(got.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/invoices\/.+\.pdf\?/)
      const json = await till(['orders', 'invoice', 'get', order.id, '--json'])
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual({order_id: order.id, url: expect.stringContaining(`/files/invoices/${order.id}.pdf?`)})

      const file = join(box.root, 'invoice.pdf')
      const downloaded = await till(['orders', 'invoice', 'get', order.id, '--download', file])
      expect(downloaded.code, downloaded.stderr).toBe(0)
      expect(downloaded.stdout).toBe('')
      expect(downloaded.stderr).toMatch(new RegExp(`^Saved the invoice of order ${order.id} to .*invoice\\.pdf \\(\\d+ bytes\\)\\.$`, 'm'))
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')

      // Billing details are frozen once the invoice is generated: the server's message is shown.
      const patch = await till(['orders', 'update', order.id, '--billing-name', 'Too Late Ltd'])
      expect(patch.code).toBe(2)
      expect(patch.stderr).toContain('body.billing_name: This field cannot be updated after the invoice is generated.')
      expect((await get(`/orders/${order.id}`)).billing_name).toBe(order.billing_name)
    })

    it('generate without --wait notes the next step on stderr; --json prints the state', async () => {
      const order = await take('/orders/', 'status=paid', (o) => !o.is_invoice_generated && o.billing_address !== null && o.billing_name !== null)
      const r = await till(['orders', 'invoice', 'generate', order.id])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`till orders invoice get ${order.id}`)
      const other = await take('/orders/', 'status=paid', (o) => !o.is_invoice_generated && o.billing_address !== null && o.billing_name !== null)
      const json = await till(['orders', 'invoice', 'generate', other.id, '--json'])
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual({order_id: other.id, status: 'generating'})
    })

    it('an order without billing details is refused in one sentence naming it and the fix (exit 2)', async () => {
      const order = await take('/orders/', 'status=paid', (o) => !o.is_invoice_generated && o.billing_address === null)
      const r = await till(['orders', 'invoice', 'generate', order.id])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`Error: order ${order.id} has no billing name or address, which an invoice needs`)
      expect(r.stderr).toContain(`Hint: set them first: till orders update ${order.id} --billing-name`)
    })

    it('ids from stdin: `orders list | node -e (jq) | orders invoice generate -`, one result per id', async () => {
      // The customer with the most paid orders: those are the ids piped through.
      const paid = await listAll(emulator.production, '/orders/', 'status=paid')
      const counts = new Map<string, number>()
      for (const o of paid) counts.set(o.customer_id, (counts.get(o.customer_id) ?? 0) + 1)
      const customer = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
      const theirs = paid.filter((o) => o.customer_id === customer)
      for (const o of theirs) used.add(o.id)
      const line = `${TILL} orders list --status paid --customer ${customer} --all -o jsonl | ${NODE_JQ_ID} | ${TILL} orders invoice generate - --envelope -o jsonl`
      const r = await runShell(line, {env: env()})
      outputs.push(r.stdout, r.stderr)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => x.id)).toEqual(theirs.map((o) => o.id))
      for (const x of results) {
        const had = theirs.find((o) => o.id === x.id)?.is_invoice_generated === true
        // an order that had its invoice is already done: nothing is sent for it
        if (x.ok)
          expect([x.status, x.result]).toEqual(had ? ['already done', {order_id: x.id, status: 'generated'}] : ['ok', {order_id: x.id, status: 'generating'}])
        else expect(x.error).toMatchObject({message: expect.any(String), exit_code: expect.any(Number)})
      }
      // Orders without billing details are refused by the service, and reported; an order whose invoice
      // exists is a success (already done).
      for (const o of theirs) {
        const x = results.find((y) => y.id === o.id)
        expect(x.ok, JSON.stringify(x)).toBe(o.billing_name !== null && o.billing_address !== null)
      }
      const failed = results.filter((x) => !x.ok).length
      const done = results.filter((x) => x.status === 'already done').length
      const middle = done > 0 ? `, ${done} already done` : ''
      expect(r.stderr).toContain(`${results.length} ids: ${results.length - failed - done} ok${middle}, ${failed} failed.`)
      expect(r.code).toBe(failed > 0 ? 1 : 0)
    })
  })

  // ---- refunds ----

  describe('refunds list', () => {
    it('prints a table with amounts in the currency, and JSON with the API values', async () => {
      const all = await listAll(emulator.production, '/refunds/')
      const table = await till(['refunds', 'list', '-o', 'table', '--limit', '5'])
      expect(table.code, table.stderr).toBe(0)
      const lines = linesOf(table.stdout)
      expect(lines[0]).toMatch(/^ID\s+CREATED\s+STATUS\s+REASON\s+AMOUNT\s+TAX\s+ORDER$/)
      expect(lines).toHaveLength(6)
      expect(lines[1]).toContain(all[0].id)
      expect(lines[1]).toContain(`$${(all[0].amount / 100).toFixed(2)}`)
      const json = await till(['refunds', 'list', '--json', '--order', all[0].order_id])
      expect(json.code, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual(all.filter((x) => x.order_id === all[0].order_id))
    })
  })

  describe('refunds create', () => {
    const refundable = () => take('/orders/', 'status=paid', (o) => o.refundable_amount >= 1000 && o.currency === 'usd' && o.subscription_id === null)

    it('refunds part of an order with --yes: the refundable amount on stderr, the refund in JSON', async () => {
      const order = await refundable()
      const r = await till([
        'refunds',
        'create',
        '--order',
        order.id,
        '--amount',
        '2.50',
        '--reason',
        'customer_request',
        '--comment',
        'late delivery',
        '--yes',
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      const withTax = order.refundable_tax_amount > 0 ? `, ${dollars(order.refundable_amount + order.refundable_tax_amount)} with tax` : ''
      expect(r.stderr).toContain(`Order ${order.id} (paid): ${dollars(order.refundable_amount)} (USD) refundable${withTax}.`)
      const refund = JSON.parse(r.stdout)
      expect(refund).toMatchObject({order_id: order.id, amount: 250, currency: 'usd', reason: 'customer_request', status: 'succeeded'})
      const after = await get(`/orders/${order.id}`)
      expect(after.status).toBe('partially_refunded')
      expect(after.refundable_amount).toBe(order.refundable_amount - 250)
    })

    it('--amount-minor, table output', async () => {
      const order = await refundable()
      const r = await till(['refunds', 'create', '--order', order.id, '--amount-minor', '125', '--reason', 'duplicate', '--yes', '-o', 'table'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^Amount\s+/m)
      expect(r.stdout).toMatch(/^Reason\s+duplicate$/m)
      expect(r.stdout).toMatch(new RegExp(`^Order ID\\s+${order.id}$`, 'm'))
    })

    it('an amount above the refundable one is refused locally: exit 2, no POST /v1/refunds/', async () => {
      const order = await refundable()
      const log = await settledLogFrom(emulator)
      const above = ((order.refundable_amount + 1) / 100).toFixed(2)
      const r = await till(['refunds', 'create', '--order', order.id, '--amount', above, '--reason', 'other', '--yes'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      const max = `$${(order.refundable_amount / 100).toFixed(2)} (USD)`
      expect(r.stderr).toContain(`Error: --amount $${above} (USD) is above the refundable amount of order ${order.id}, ${max}`)
      expect(r.stderr).toContain('nothing was sent')
      const minor = await till(['refunds', 'create', '--order', order.id, '--amount-minor', String(order.refundable_amount + 1), '--reason', 'other', '--yes'])
      expect(minor.code).toBe(2)
      expect(minor.stderr).toContain('Error: --amount-minor')
      expect((await log()).filter((q) => q.path.startsWith('/v1/refunds'))).toEqual([])
      expect((await get(`/orders/${order.id}`)).refunded_amount).toBe(order.refunded_amount)
    })

    it('without a terminal: --yes, --amount and --reason are required, each named, nothing sent (exit 2)', async () => {
      const order = await refundable()
      const log = await settledLogFrom(emulator)
      const noYes = await till(['refunds', 'create', '--order', order.id, '--amount', '1.00', '--reason', 'other'])
      expect(noYes.code).toBe(2)
      expect(noYes.stderr).toContain(`Error: --yes is required to refund ${leaving(order, 100)} of order ${order.id} when not running interactively`)
      const noAmount = await till(['refunds', 'create', '--order', order.id, '--reason', 'other', '--yes'])
      expect(noAmount.code).toBe(2)
      expect(noAmount.stderr).toMatch(/^Error: missing --amount/m)
      const noReason = await till(['refunds', 'create', '--order', order.id, '--amount', '1.00', '--yes'])
      expect(noReason.code).toBe(2)
      expect(noReason.stderr).toMatch(/^Error: missing --reason/m)
      const noOrder = await till(['refunds', 'create', '--amount', '1.00', '--reason', 'other', '--yes'])
      expect(noOrder.code).toBe(2)
      expect(noOrder.stderr).toMatch(/^Error: missing --order/m)
      const both = await till(['refunds', 'create', '--order', order.id, '--amount', '1', '--amount-minor', '100', '--reason', 'other', '--yes'])
      expect(both.code).toBe(2)
      expect(both.stderr).toContain('give one of --amount, --amount-minor and --total')
      expect(writes(await log())).toEqual([])
    })

    it('--revoke-benefits revokes the grants of a one-time order; on a subscription order it is refused locally', async () => {
      const grants = await listAll(emulator.production, '/benefit-grants/', 'is_granted=true')
      const order = await take(
        '/orders/',
        'status=paid',
        (o) => o.subscription_id === null && o.currency === 'usd' && o.refundable_amount > 0 && grants.some((g) => g.order_id === o.id),
      )
      const no = await till([
        'refunds',
        'create',
        '--order',
        order.id,
        '--amount-minor',
        String(order.refundable_amount),
        '--reason',
        'fraudulent',
        '--revoke-benefits',
      ])
      expect(no.code).toBe(2)
      expect(no.stderr).toContain(
        `--yes is required to refund ${leaving(order, order.refundable_amount)} of order ${order.id} and revoke the benefits it granted`,
      )
      const r = await till([
        'refunds',
        'create',
        '--order',
        order.id,
        '--amount-minor',
        String(order.refundable_amount),
        '--reason',
        'fraudulent',
        '--revoke-benefits',
        '--yes',
        '--json',
      ])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({order_id: order.id, revoke_benefits: true})
      const after = (await listAll(emulator.production, '/benefit-grants/')).filter((g) => g.order_id === order.id)
      expect(after.length).toBeGreaterThan(0)
      for (const g of after) expect(g.is_revoked).toBe(true)

      const sub = await take('/orders/', 'status=paid', (o) => o.subscription_id !== null && o.refundable_amount > 0)
      const log = await settledLogFrom(emulator)
      const refused = await till(['refunds', 'create', '--order', sub.id, '--amount', '1', '--reason', 'other', '--revoke-benefits', '--yes'])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`--revoke-benefits is not possible on order ${sub.id}: it belongs to subscription ${sub.subscription_id}`)
      expect(refused.stderr).toContain(`till subscriptions revoke ${sub.subscription_id}`)
      expect(writes(await log())).toEqual([])
    })

    it('an unpaid order is refused before anything is sent', async () => {
      const order = await take('/orders/', 'status=pending', () => true)
      const log = await settledLogFrom(emulator)
      const r = await till(['refunds', 'create', '--order', order.id, '--amount', '1', '--reason', 'other', '--yes'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`order ${order.id} is pending, not paid`)
      expect(writes(await log())).toEqual([])
    })

    it('on a terminal: the question states the total that leaves, tax included; answering n cancels (exit 1, nothing sent); y refunds', async () => {
      const order = await take(
        '/orders/',
        'status=paid',
        (o) => o.refundable_amount >= 1000 && o.currency === 'usd' && o.subscription_id === null && o.tax_amount > 0,
      )
      const log = await settledLogFrom(emulator)
      const confirm = new RegExp(`Refund ${leaving(order, 100).replace(/[$().+]/g, '\\$&')} of order \\S+ \\(local, profile local\\)\\? \\(y\\/N\\)`)
      const no = await pty(`refunds create --order ${order.id} --amount 1 --reason other`, [{when: confirm, send: ['n', ENTER]}])
      expect(no.exit).toBe(1)
      expect(no.stdout).toContain('Cancelled; nothing was changed.')
      expect(writes(await log())).toEqual([])
      const yes = await pty(`refunds create --order ${order.id} --amount 1 --reason other --json`, [{when: confirm, send: ['y', ENTER]}])
      expect(yes.exit, yes.stdout).toBe(0)
      expect(writes(await log()).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['POST /v1/refunds/ 201'])
      expect((await get(`/orders/${order.id}`)).refunded_amount).toBe(order.refunded_amount + 100)
    })

    it('on a terminal, missing input is asked: order (only those with something refundable), then the refundable amount is shown, then reason and amount (default: all of it)', async () => {
      const recent = await listAll(emulator.production, '/orders/', 'status=paid&status=partially_refunded')
      // The prompt offers recent orders with something left to refund; the first one is chosen with Enter.
      const nothing = recent.slice(0, 30).filter((o) => o.refundable_amount === 0)
      expect(nothing.length, 'recent paid orders with nothing to refund').toBeGreaterThan(0)
      const order = recent.find((o) => o.refundable_amount > 0)
      used.add(order.id)
      const currency = String(order.currency).toUpperCase()
      const r = await pty('refunds create --json', [
        {when: /Order to refund/, send: [ENTER]},
        {when: /Reason for the refund/, send: [DOWN, ENTER]},
        {when: new RegExp(`Amount to refund in ${currency}(, before tax: the tax is added)? \\(at most [\\d.]+(; [\\d.]+ with tax)?\\)`), send: [ENTER]},
        {when: new RegExp(`Refund \\S+ \\(${currency}\\)( \\([^)]* tax\\))? of order \\S+ \\(local, profile local\\)\\?`), send: ['y', ENTER]},
      ])
      expect(r.unanswered, r.stdout).toBe(0)
      expect(r.exit, r.stdout).toBe(0)
      for (const o of nothing) expect(r.stdout, `order ${o.id} has nothing to refund`).not.toContain(o.id)
      const shown = r.stdout.indexOf(`Order ${order.id} (${order.status}): `)
      expect(shown).toBeGreaterThan(0)
      expect(shown, 'the refundable amount is shown before the reason is asked').toBeLessThan(r.stdout.indexOf('Reason for the refund'))
      const after = await get(`/orders/${order.id}`)
      expect(after.status).toBe('refunded')
      expect(after.refundable_amount).toBe(0)
      const refunds = await listAll(emulator.production, '/refunds/', `order_id=${order.id}`)
      expect(refunds[0]).toMatchObject({amount: order.refundable_amount, reason: 'duplicate'})
    })

    it('on a terminal, a typed amount above the refundable one is refused by the prompt and asked again', async () => {
      const order = await refundable()
      const over = ((order.refundable_amount + 100) / 100).toFixed(2)
      const r = await pty(`refunds create --order ${order.id} --reason other`, [
        {when: /Amount to refund in USD/, send: [...over, ENTER]},
        {
          when: /is above the refundable amount/,
          send: Array(over.length + 10)
            .fill('\x7f')
            .concat([...'0.50', ENTER]),
        },
        {when: /Refund \$[\d.]+ \(USD\)( \(\$0\.50 \+ \$[\d.]+ tax\))? of order/, send: ['y', ENTER]},
      ])
      expect(r.unanswered, r.stdout).toBe(0)
      expect(r.exit, r.stdout).toBe(0)
      expect((await get(`/orders/${order.id}`)).refunded_amount).toBe(order.refunded_amount + 50)
    })

    it('names PRODUCTION in the question on a production profile', async () => {
      const order = await refundable()
      const r = await pty(
        `refunds create --order ${order.id} --amount 1 --reason other`,
        [{when: /in PRODUCTION \(profile local\)\? \(y\/N\)/, send: ['n', ENTER]}],
        {TILL_ENV: 'production'},
      )
      expect(r.unanswered, r.stdout).toBe(0)
      expect(r.stdout).toContain(`Refund ${leaving(order, 100)} of order ${order.id} in PRODUCTION (profile local)?`)
      expect(r.exit).toBe(1)
    })

    it('--order - refunds each order from stdin in full, once per id, and reports every id', async () => {
      allowRefusals()
      const a = await refundable()
      const b = await refundable()
      const pending = await take('/orders/', 'status=pending', () => true)
      const log = await settledLogFrom(emulator)
      const input = [a.id, b.id, a.id, pending.id, 'not-a-uuid'].join('\n')
      const r = await till(['refunds', 'create', '--order', '-', '--reason', 'service_disruption', '--yes', '--envelope', '-o', 'jsonl'], {input})
      expect(r.code).toBe(1)
      const results = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => [x.id, x.ok])).toEqual([
        [a.id, true],
        [b.id, true],
        [a.id, false],
        [pending.id, false],
        ['not-a-uuid', false],
      ])
      expect(results[0].result).toMatchObject({order_id: a.id, amount: a.refundable_amount})
      expect(results[2].error.message).toContain('already given earlier in the input')
      expect(results[3].error.message).toContain('is pending, not paid')
      expect(r.stderr).toContain('5 ids: 2 ok, 3 failed.')
      expect(writes(await log()).filter((q) => q.path === '/v1/refunds/')).toHaveLength(2)
      expect((await get(`/orders/${a.id}`)).status).toBe('refunded')
      expect((await get(`/orders/${b.id}`)).status).toBe('refunded')
    })

    it('--order - needs --yes and takes no --amount (exit 2, nothing read or sent)', async () => {
      const order = await refundable()
      const log = await settledLogFrom(emulator)
      const noYes = await till(['refunds', 'create', '--order', '-', '--reason', 'other'], {input: `${order.id}\n`})
      expect(noYes.code).toBe(2)
      expect(noYes.stderr).toContain('--yes is required to refund the full refundable amount of every order read from stdin')
      const amount = await till(['refunds', 'create', '--order', '-', '--reason', 'other', '--amount', '1', '--yes'], {input: `${order.id}\n`})
      expect(amount.code).toBe(2)
      expect(amount.stderr).toContain('leave out --amount')
      expect(await log()).toEqual([])
    })
  })

  // ---- subscriptions ----

  describe('subscriptions list and show', () => {
    it('prints a table and JSON; filters map to the API', async () => {
      const table = await till(['subscriptions', 'list', '-o', 'table'])
      expect(table.code, table.stderr).toBe(0)
      const lines = linesOf(table.stdout)
      expect(lines[0]).toMatch(/^ID\s+STATUS\s+CUSTOMER\s+PRODUCT\s+AMOUNT\s+INTERVAL\s+PERIOD END\s+CANCELS$/)
      const first = (await get('/subscriptions/?limit=10')).items
      expect(lines).toHaveLength(first.length + 1)
      expect(lines[1]).toContain(first[0].id)
      expect(lines[1]).toContain(first[0].customer.email)
      expect(lines[1]).toContain(first[0].product.name)

      const cases: Array<[string[], string]> = [
        [['--status', 'active', '--status', 'past_due'], 'status=active&status=past_due'],
        [['--active'], 'active=true'],
        [['--no-active'], 'active=false'],
        [['--cancel-at-period-end'], 'cancel_at_period_end=true'],
        [['--product', first[0].product_id], `product_id=${first[0].product_id}`],
        [['--customer', first[0].customer_id], `customer_id=${first[0].customer_id}`],
      ]
      for (const [flags, query] of cases) {
        const r = await till(['subscriptions', 'list', '--all', '-o', 'jsonl', ...flags])
        expect(r.code, r.stderr).toBe(0)
        const expected = await listAll(emulator.production, '/subscriptions/', query)
        expect(expected.length, query).toBeGreaterThan(0)
        expect(jsonlIds(r.stdout), flags.join(' ')).toEqual(expected.map((s) => s.id))
      }
      const json = await till(['subscriptions', 'list', '--json', '--limit', '3'])
      expect(JSON.parse(json.stdout).map((s: Json) => s.id)).toEqual(first.slice(0, 3).map((s: Json) => s.id))
    })

    it('show: key/value table, JSON, and ids from stdin', async () => {
      const [a, b] = (await get('/subscriptions/?limit=2')).items
      const table = await till(['subscriptions', 'get', a.id, '-o', 'table'])
      expect(table.code, table.stderr).toBe(0)
      expect(table.stdout).toMatch(new RegExp(`^ID\\s+${a.id}$`, 'm'))
      expect(table.stdout).toMatch(/^Prices \(\d+\)$/m)
      const json = await till(['subscriptions', 'get', a.id, '--json'])
      expect(JSON.parse(json.stdout)).toEqual(asShown('subscriptions', await get(`/subscriptions/${a.id}`)))
      const missing = unknownId()
      const bulk = await till(['subscriptions', 'show', '-', '--envelope', '-o', 'jsonl'], {input: `${a.id}\n${JSON.stringify({id: b.id})}\n${missing}\n`})
      expect(bulk.code).toBe(1)
      const results = linesOf(bulk.stdout).map((l) => JSON.parse(l))
      expect(results.map((x) => [x.id, x.ok])).toEqual([
        [a.id, true],
        [b.id, true],
        [missing, false],
      ])
      expect(results[2].error.exit_code).toBe(3)
      expect(bulk.stderr).toContain('3 ids: 2 ok, 1 failed.')
      const notFound = await till(['subscriptions', 'show', missing])
      expect(notFound.code).toBe(3)
    })
  })

  describe('subscriptions cancel, uncancel, revoke', () => {
    const renewing = () => take('/subscriptions/', 'status=active&cancel_at_period_end=false', () => true)

    it('cancel without a terminal needs --yes (exit 2, unchanged); with it, cancels at period end with the reason', async () => {
      const s = await renewing()
      const log = await settledLogFrom(emulator)
      const no = await till(['subscriptions', 'cancel', s.id, '--reason', 'too_expensive'])
      expect(no.code).toBe(2)
      expect(no.stderr).toContain(`Error: --yes is required to cancel subscription ${s.id} at the end of its current period when not running interactively`)
      expect(writes(await log())).toEqual([])
      const yes = await till(['subscriptions', 'cancel', s.id, '--reason', 'too_expensive', '--comment', 'Too dear', '--yes', '--json'])
      expect(yes.code, yes.stderr).toBe(0)
      const body = JSON.parse(yes.stdout)
      expect(body).toMatchObject({
        id: s.id,
        status: 'active',
        cancel_at_period_end: true,
        ends_at: s.current_period_end,
        customer_cancellation_reason: 'too_expensive',
        customer_cancellation_comment: 'Too dear',
      })
      // uncancel: not destructive, no question; table output.
      const un = await till(['subscriptions', 'uncancel', s.id, '-o', 'table'])
      expect(un.code, un.stderr).toBe(0)
      expect(un.stdout).toMatch(/^Cancels at period end\s+no$/m)
      expect((await get(`/subscriptions/${s.id}`)).cancel_at_period_end).toBe(false)
    })

    it('cancel on a terminal names the customer, product and date; n keeps it, y cancels', async () => {
      const s = await renewing()
      const question = new RegExp(
        `Cancel subscription ${s.id} of ${s.customer.email.replace('.', '\\.')} to .+ at the end of its period, on ${s.current_period_end.slice(0, 10)} \\(local, profile local\\)\\? \\(y/N\\)`,
      )
      const no = await pty(`subscriptions cancel ${s.id}`, [{when: question, send: ['n', ENTER]}])
      expect(no.unanswered, no.stdout).toBe(0)
      expect(no.exit).toBe(1)
      expect((await get(`/subscriptions/${s.id}`)).cancel_at_period_end).toBe(false)
      const yes = await pty(`subscriptions cancel ${s.id} -o table`, [{when: question, send: ['y', ENTER]}])
      expect(yes.exit, yes.stdout).toBe(0)
      expect((await get(`/subscriptions/${s.id}`)).cancel_at_period_end).toBe(true)
    })

    it('cancelling an already cancelled subscription again changes nothing: exit 0 with a note', async () => {
      const s = await take('/subscriptions/', 'status=active&cancel_at_period_end=true', () => true)
      const r = await till(['subscriptions', 'cancel', s.id, '--yes', '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toContain(`Note: subscription ${s.id} is already set to cancel at the end of its period`)
      expect(JSON.parse(r.stdout)).toMatchObject({id: s.id, cancel_at_period_end: true})
    })

    it('revoke without a terminal needs --yes; on a terminal n keeps it and y ends it now', async () => {
      const s = await renewing()
      const log = await settledLogFrom(emulator)
      const no = await till(['subscriptions', 'revoke', s.id])
      expect(no.code).toBe(2)
      expect(no.stderr).toContain(`--yes is required to revoke subscription ${s.id} now`)
      const question = new RegExp(`Revoke subscription ${s.id} of .+ now \\(it ends at once, with its benefits\\) \\(local, profile local\\)\\? \\(y/N\\)`)
      const ttyNo = await pty(`subscriptions revoke ${s.id}`, [{when: question, send: ['n', ENTER]}])
      expect(ttyNo.unanswered, ttyNo.stdout).toBe(0)
      expect(ttyNo.exit).toBe(1)
      expect(writes(await log())).toEqual([])
      const ttyYes = await pty(`subscriptions revoke ${s.id} --reason unused --json`, [{when: question, send: ['y', ENTER]}])
      expect(ttyYes.exit, ttyYes.stdout).toBe(0)
      const after = await get(`/subscriptions/${s.id}`)
      expect(after).toMatchObject({status: 'canceled', customer_cancellation_reason: 'unused'})
      expect(after.ended_at).not.toBeNull()
    })

    it('revoke --yes prints the ended subscription (table)', async () => {
      const s = await renewing()
      const r = await till(['subscriptions', 'revoke', s.id, '--yes', '-o', 'table'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toMatch(/^Status\s+canceled$/m)
    })

    it('ids from stdin: one confirmation (--yes without a terminal), one result per id, a summary', async () => {
      const a = await renewing()
      const b = await renewing()
      const input = `${a.id}\n${b.id}\n`
      const log = await settledLogFrom(emulator)
      const no = await till(['subscriptions', 'cancel', '-'], {input})
      expect(no.code).toBe(2)
      expect(no.stderr).toContain('--yes is required to cancel every subscription read from stdin, each at the end of its period')
      const noRevoke = await till(['subscriptions', 'revoke', '-'], {input})
      expect(noRevoke.code).toBe(2)
      expect(writes(await log())).toEqual([])
      const cancel = await till(['subscriptions', 'cancel', '-', '--yes', '--envelope', '-o', 'jsonl'], {input})
      expect(cancel.code, cancel.stderr).toBe(0)
      expect(
        linesOf(cancel.stdout)
          .map((l) => JSON.parse(l))
          .map((x) => [x.id, x.ok, x.result.cancel_at_period_end]),
      ).toEqual([
        [a.id, true, true],
        [b.id, true, true],
      ])
      expect(cancel.stderr).toContain('2 ids: 2 ok, 0 failed.')
      const un = await till(['subscriptions', 'uncancel', '-', '--envelope', '-o', 'jsonl'], {input})
      expect(un.code, un.stderr).toBe(0)
      expect(linesOf(un.stdout).map((l) => JSON.parse(l).result.cancel_at_period_end)).toEqual([false, false])
      const revoke = await till(['subscriptions', 'revoke', '-', '--yes'], {input: `${a.id}\n${a.id}\n`})
      // the second revoke finds it ended already: nothing changes, and that is no failure
      expect(revoke.code, revoke.stderr).toBe(0)
      expect(linesOf(revoke.stdout)).toHaveLength(2)
      expect(revoke.stderr).toContain(`Note: subscription ${a.id} already ended on`)
      expect(revoke.stderr).toContain('2 ids: 1 ok, 1 already done, 0 failed.')
    })

    it('revoking an unpaid subscription changes nothing (the service revoked it already): exit 0 with a note, as the help example pipes them', async () => {
      const unpaid = await listAll(emulator.production, '/subscriptions/', 'status=unpaid')
      expect(unpaid.length).toBeGreaterThan(0)
      const s = unpaid[0]
      const one = await till(['subscriptions', 'revoke', s.id, '--yes', '--json'])
      expect(one.code, one.stderr).toBe(0)
      expect(one.stderr).toContain(`Note: subscription ${s.id} is already revoked (status unpaid`)
      expect(JSON.parse(one.stdout)).toMatchObject({id: s.id, status: 'unpaid'})
      // the example of the command's help, with the unpaid ones only (the past-due ones belong to other tests)
      const list = await till(['subscriptions', 'list', '--status', 'unpaid', '--all', '-o', 'jsonl'])
      const all = await till(['subscriptions', 'revoke', '-', '--yes'], {input: list.stdout})
      expect(all.code, all.stderr).toBe(0)
      expect(all.stderr).toContain(`${unpaid.length} ids: 0 ok, ${unpaid.length} already done, 0 failed.`)
      expect((await get(`/subscriptions/${s.id}`)).status).toBe('unpaid')
    })
  })

  describe('subscriptions update', () => {
    /** An active monthly subscription to a paid product, and a dearer monthly product to move it to. */
    async function planChange(): Promise<{s: Json; target: Json}> {
      const products = await listAll(emulator.production, '/products/', 'is_recurring=true&is_archived=false')
      const monthly = products.filter((p) => p.recurring_interval === 'month' && p.prices[0]?.amount_type === 'fixed' && p.prices[0].price_amount > 0)
      const dearest = Math.max(...monthly.map((p) => p.prices[0].price_amount))
      const s = await take(
        '/subscriptions/',
        'status=active&cancel_at_period_end=false',
        (x) => monthly.some((p) => p.id === x.product_id) && x.amount < dearest,
      )
      const target = monthly.find((p) => p.prices[0].price_amount > s.amount)!
      return {s, target}
    }

    it('without a terminal needs --yes, then moves the plan; --proration invoice bills the difference now', async () => {
      const {s, target} = await planChange()
      const ordersBefore = await listAll(emulator.production, '/orders/', `subscription_id=${s.id}`)
      const log = await settledLogFrom(emulator)
      const no = await till(['subscriptions', 'update', s.id, '--product', target.id, '--proration', 'invoice'])
      expect(no.code).toBe(2)
      expect(no.stderr).toContain(`--yes is required to move subscription ${s.id} to product ${target.id} (proration: invoice)`)
      expect(writes(await log())).toEqual([])
      const r = await till(['subscriptions', 'update', s.id, '--product', target.id, '--proration', 'invoice', '--yes', '--json'])
      expect(r.code, r.stderr).toBe(0)
      const body = JSON.parse(r.stdout)
      expect(body).toMatchObject({id: s.id, product_id: target.id, amount: target.prices[0].price_amount})
      expect(body.prices.map((p: Json) => p.id)).toEqual([target.prices[0].id])
      expect(writes(await log()).map((q) => `${q.method} ${q.path}`)).toEqual([`PATCH /v1/subscriptions/${s.id}`])
      // The prorated difference was billed at once: a new order of the subscription.
      const ordersAfter = await listAll(emulator.production, '/orders/', `subscription_id=${s.id}`)
      const billed = ordersAfter.filter((o) => !ordersBefore.some((b) => b.id === o.id))
      expect(billed).toHaveLength(1)
      expect(billed[0]).toMatchObject({billing_reason: 'subscription_update', product_id: target.id})
      expect(billed[0].net_amount).toBeGreaterThan(0)
      expect(billed[0].net_amount).toBeLessThanOrEqual(target.prices[0].price_amount - s.amount)
    })

    it('without --product: fails naming it without a terminal; on a terminal offers the recurring products and confirms', async () => {
      const {s} = await planChange()
      const missing = await till(['subscriptions', 'update', s.id, '--yes'])
      expect(missing.code).toBe(2)
      expect(missing.stderr).toMatch(/^Error: missing --product/m)
      const choices = await listAll(emulator.production, '/products/', 'is_recurring=true&is_archived=false')
      const second = choices[1]
      const r = await pty(`subscriptions update ${s.id} --proration next_period -o table`, [
        {when: /New plan \(product\)/, send: [DOWN, ENTER]},
        {
          when: new RegExp(
            `Move subscription ${s.id} of .+ to ${second.name.replace(/[()]/g, '\\$&')} \\(proration: next_period\\) \\(local, profile local\\)\\? \\(y/N\\)`,
          ),
          send: ['y', ENTER],
        },
      ])
      expect(r.unanswered, r.stdout).toBe(0)
      expect(r.exit, r.stdout).toBe(0)
      expect((await get(`/subscriptions/${s.id}`)).product_id).toBe(second.id)
    })
  })

  it("subscriptions create subscribes a customer to a free plan, by id or external id; a paid plan is the service's 422, exit 2", async () => {
    const tag = Math.random().toString(36).slice(2, 8)
    const post = async (path: string, body: object) => {
      const res = await api(emulator.production, 'POST', path, {body})
      expect(res.status, res.text).toBe(201)
      return res.body
    }
    const free = await post('/products/', {
      name: `Free plan ${tag}`,
      recurring_interval: 'month',
      prices: [{amount_type: 'fixed', price_amount: 0, price_currency: 'usd'}],
    })
    const paid = await post('/products/', {name: `Paid plan ${tag}`, recurring_interval: 'month', prices: [{amount_type: 'fixed', price_amount: 900}]})
    const ada = await post('/customers/', {email: `ada-${tag}@example.com`})
    const bob = await post('/customers/', {email: `bob-${tag}@example.com`, external_id: `bob_${tag}`})

    const r = await till(['subscriptions', 'create', '--product', free.id, '--customer', ada.id, '--metadata', 'source=import', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({product_id: free.id, customer_id: ada.id, status: 'active', amount: 0, metadata: {source: 'import'}})
    const byExternal = await till(['subscriptions', 'create', '--product', free.id, '--external-customer', `bob_${tag}`, '-o', 'json'])
    expect(byExternal.code, byExternal.stderr).toBe(0)
    expect(JSON.parse(byExternal.stdout)).toMatchObject({customer_id: bob.id})

    // the service gives a customer who has one a second subscription (only a checkout refuses it)
    const again = await till(['subscriptions', 'create', '--product', free.id, '--customer', ada.id, '--json'])
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({product_id: free.id, customer_id: ada.id, status: 'active'})
    const refused = await till(['subscriptions', 'create', '--product', paid.id, '--customer', bob.id])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Product is not free')
    expect(refused.stderr).not.toMatch(/\n\s+at /)
    const neither = await till(['subscriptions', 'create', '--product', free.id])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toMatch(/--customer|--external-customer/)
    expect((await listAll(emulator.production, '/subscriptions/', `customer_id=${bob.id}`)).length).toBe(1)
  })

  describe('subscriptions update: the discount', () => {
    /** An active monthly subscription to a paid product, without a discount. */
    const subscription = () =>
      take(
        '/subscriptions/',
        'status=active&cancel_at_period_end=false',
        (x) => x.recurring_interval === 'month' && x.amount > 300 && !x.discount_id && !x.pending_update,
      )
    const discount = async (body: Json): Promise<Json> => {
      const res = await api(emulator.production, 'POST', '/discounts/', {body: {duration: 'forever', ...body}})
      expect(res.status, res.text).toBe(201)
      return res.body
    }

    it('refuses combining with a plan change, or both discount flags, before anything is sent (exit 2)', async () => {
      const s = await subscription()
      const log = await settledLogFrom(emulator)
      const product = await till(['subscriptions', 'update', s.id, '--discount', s.id, '--product', s.product_id, '--yes'])
      expect(product.code).toBe(2)
      expect(product.stderr).toContain('--discount cannot be combined with --product: the service takes one kind of change per request')
      expect(product.stdout).toBe('')
      const both = await till(['subscriptions', 'update', s.id, '--discount', s.id, '--remove-discount', '--yes'])
      expect(both.code).toBe(2)
      expect(both.stderr).toContain('--discount and --remove-discount cannot be used together')
      const proration = await till(['subscriptions', 'update', s.id, '--remove-discount', '--proration', 'invoice', '--yes'])
      expect(proration.code).toBe(2)
      expect(proration.stderr).toContain('--remove-discount cannot be combined with --proration')
      expect(writes(await log())).toEqual([])
    })

    it('needs --yes without a terminal, --dry-run changes nothing; then the next renewal order carries the discount, until it is removed', async () => {
      const s = await subscription()
      const d = await discount({type: 'fixed', amounts: {[s.currency]: 300}, name: 'Loyalty 3 off'})
      const log = await settledLogFrom(emulator)
      const no = await till(['subscriptions', 'update', s.id, '--discount', d.id])
      expect(no.code).toBe(2)
      expect(no.stderr).toContain(`--yes is required to apply discount ${d.id} to subscription ${s.id} (from its next renewal)`)
      const dry = await till(['subscriptions', 'update', s.id, '--discount', d.id, '--dry-run'])
      expect(dry.code, dry.stderr).toBe(0)
      expect(dry.stdout).toBe(
        `Dry run: would apply discount ${d.id} to subscription ${s.id} (from its next renewal) (local, profile local); nothing was changed.\n`,
      )
      expect(writes(await log())).toEqual([])
      expect((await get(`/subscriptions/${s.id}`)).discount_id).toBeNull()

      const r = await till(['subscriptions', 'update', s.id, '--discount', d.id, '--yes', '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({id: s.id, discount_id: d.id, discount: {id: d.id, name: 'Loyalty 3 off'}})
      expect(writes(await log()).map((q) => `${q.method} ${q.path}`)).toEqual([`PATCH /v1/subscriptions/${s.id}`])

      const renewed = await till(['emulator', 'renew', s.id, '--json'])
      expect(renewed.code, renewed.stderr).toBe(0)
      const order = await get(`/orders/${JSON.parse(renewed.stdout).order.id}`)
      expect(order).toMatchObject({
        subscription_id: s.id,
        billing_reason: 'subscription_cycle',
        discount_id: d.id,
        subtotal_amount: s.amount,
        discount_amount: 300,
        net_amount: s.amount - 300,
      })

      const off = await till(['subscriptions', 'update', s.id, '--remove-discount', '--yes', '--json'])
      expect(off.code, off.stderr).toBe(0)
      expect(JSON.parse(off.stdout)).toMatchObject({id: s.id, discount_id: null})
      const again = await till(['emulator', 'renew', s.id, '--json'])
      const next = await get(`/orders/${JSON.parse(again.stdout).order.id}`)
      expect(next).toMatchObject({discount_id: null, discount_amount: 0, net_amount: s.amount})
    })

    it("a discount for another product is the service's 422, shown as one line (exit 2); the subscription keeps no discount", async () => {
      const s = await subscription()
      const other = (await listAll(emulator.production, '/products/', 'is_archived=false')).find((p) => p.id !== s.product_id)
      const d = await discount({type: 'percentage', basis_points: 1000, name: 'Other product only', products: [other.id]})
      const r = await till(['subscriptions', 'update', s.id, '--discount', d.id, '--yes'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('discount_id')
      expect(r.stderr).toContain('Discount does not exist, is not applicable to this product or is not redeemable.')
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(r.stdout).toBe('')
      expect((await get(`/subscriptions/${s.id}`)).discount_id).toBeNull()
    })

    it('on a terminal, the confirmation names the discount and the subscription', async () => {
      const s = await subscription()
      const d = await discount({type: 'percentage', basis_points: 2000, name: 'Twenty'})
      const r = await pty(`subscriptions update ${s.id} --discount ${d.id} -o table`, [
        {
          when: new RegExp(`Apply discount Twenty to subscription ${s.id} of .+ \\(from its next renewal\\) \\(local, profile local\\)\\? \\(y/N\\)`),
          send: ['y', ENTER],
        },
      ])
      expect(r.unanswered, r.stdout).toBe(0)
      expect(r.exit, r.stdout).toBe(0)
      expect((await get(`/subscriptions/${s.id}`)).discount_id).toBe(d.id)
    })
  })

  it('help of each command has a summary, a description and examples', async () => {
    const commands = [
      'refunds list',
      'refunds create',
      'subscriptions list',
      'subscriptions show',
      'subscriptions cancel',
      'subscriptions uncancel',
      'subscriptions revoke',
      'subscriptions update',
      'subscriptions create',
      'orders update',
      'orders invoice generate',
      'orders invoice get',
    ]
    for (const command of commands) {
      const r = await till([...command.split(' '), '--help'])
      expect(r.code, command).toBe(0)
      expect(r.stdout, command).toMatch(/^USAGE\n/m)
      expect(r.stdout, command).toMatch(/^DESCRIPTION\n/m)
      expect(r.stdout, command).toMatch(/^EXAMPLES\n/m)
      expect(r.stdout, command).toContain(`$ till ${command}`)
    }
  })
})
