// A prefix a table showed works in every flag that takes an id, as in the id argument: `refunds create
// --order 262240fe`, `checkouts create --product 65bf564a`, the list filters; a prefix no table showed
// names the list that shows the ids whole. The remembered ids are the cache a cut table writes
// (shown-ids.json in the config folder), written here as a narrow table would.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, linesOf, runTty, sandbox, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {api, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
let product: Json
let order: Json

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  const paid = (await api(emulator.production, 'GET', '/orders/?limit=50&sorting=-created_at')).body.items as Json[]
  order = paid.find((o) => o.status === 'paid' && o.net_amount > 100 && o.refunded_amount === 0)
  product = (await api(emulator.production, 'GET', `/products/${order.product_id}`)).body
  mkdirSync(box.configDir, {recursive: true})
  writeFileSync(join(box.configDir, 'shown-ids.json'), JSON.stringify({[`local ${emulator.production.url}`]: [order.id, product.id]}), {mode: 0o600})
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

const env = () => box.env({...envVars(emulator.production), TILL_ENV: 'local'})
const till = (args: string[]) => runInProcess(args, {env: env()})
const prefix = (id: string) => id.slice(0, 8)

describe('a shown prefix in a flag that takes an id', () => {
  it('refunds create --order PREFIX refunds that order, saying which id the prefix is', async () => {
    const r = await till(['refunds', 'create', '--order', prefix(order.id), '--amount-minor', '100', '--reason', 'customer_request', '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).order_id).toBe(order.id)
    expect(r.stderr).toContain(`order id (--order) ${prefix(order.id)}… is ${order.id} (an id shown earlier in profile local).`)
  })

  it('checkouts create --product PREFIX sells that product', async () => {
    const r = await till(['checkouts', 'create', '--product', `${prefix(product.id)}…`, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).product_id).toBe(product.id)
  })

  it('payments list --order PREFIX lists the payments of that order', async () => {
    const r = await till(['payments', 'list', '--order', prefix(order.id), '-o', 'jsonl'])
    expect(r.code, r.stderr).toBe(0)
    const payments = linesOf(r.stdout).map((line) => JSON.parse(line) as Json)
    expect(payments.length).toBeGreaterThan(0)
    for (const payment of payments) expect(payment.order_id).toBe(order.id)
  })

  it('orders list --product PREFIX lists the orders of that product', async () => {
    const r = await till(['orders', 'list', '--product', prefix(product.id), '-o', 'jsonl'])
    expect(r.code, r.stderr).toBe(0)
    const orders = linesOf(r.stdout).map((line) => JSON.parse(line) as Json)
    expect(orders.map((o) => o.id)).toContain(order.id)
    for (const o of orders) expect(o.product_id).toBe(product.id)
  })

  it('a prefix no table showed is refused before any request, naming the list that shows the ids whole', async () => {
    const r = await till(['orders', 'list', '--product', 'ffffffff'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: product id (--product) "ffffffff" is not a whole id, and no id shown earlier in profile local starts with it\n' +
        'Hint: give the whole id: till products list --columns id shows ids whole (as -o jsonl and --json do)\n',
    )
  })
})

describe('a prefix no table showed', () => {
  it('get names the list of that resource that shows the ids whole', async () => {
    const r = await till(['orders', 'get', 'ffffffff'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'Error: order id "ffffffff" is not a whole id, and no id shown earlier in profile local starts with it\n' +
        'Hint: give the whole id: till orders list --columns id shows ids whole (as -o jsonl and --json do)\n',
    )
  })

  it('the ids -o jsonl prints are whole, on a terminal too', async () => {
    const r = await runTty(`${TILL} orders list --limit 3 -o jsonl`, {env: env(), cols: 60})
    expect(r.code, r.stdout).toBe(0)
    const ids = stripAnsi(r.stdout).match(/"id":"[^"]*"/g) ?? []
    expect(ids.length).toBeGreaterThan(0)
    for (const id of ids) expect(id).toMatch(/^"id":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/)
  })
})

describe('a switch named after a resource', () => {
  it('subscriptions update --remove-discount is no id to resolve', async () => {
    const subscription = (await api(emulator.production, 'GET', '/subscriptions/?active=true&limit=1')).body.items[0]
    const r = await till(['subscriptions', 'update', subscription.id, '--remove-discount', '--yes', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).id).toBe(subscription.id)
  })
})
