// A refund's amount is before tax, and says so; --total takes what leaves the account, tax included, as a
// Stripe user expects; without a terminal a missing --reason lists the reasons.
import {afterAll, beforeAll, expect, it} from 'vitest'

import {envVars, KEY, runAnswering, sandbox, sh, TILL, type Sandbox} from '../helpers/cli.js'
import {listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
let taxed: Json[]

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  taxed = (await listAll(emulator.production, '/orders/', 'status=paid')).filter(
    (o) => o.tax_amount > 0 && o.refunded_amount === 0 && o.refundable_amount >= 2000 && !o.subscription_id,
  )
  expect(taxed.length, 'paid taxed orders in the seed').toBeGreaterThan(2)
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

const env = () => box.env(envVars(emulator.production))
const till = (args: string[]) => runInProcess(args, {env: env()})
const major = (minor: number) => (minor / 100).toFixed(2)

it('--total refunds that much with its tax: the amount before tax is worked out', async () => {
  const order = taxed[0]!
  const amount = 1000
  const tax = Math.round((amount * order.tax_amount) / order.net_amount)
  const r = await till(['refunds', 'create', '--order', order.id, '--total', major(amount + tax), '--reason', 'customer_request', '--yes', '--json'])
  expect(r.code, r.stderr).toBe(0)
  const refund = JSON.parse(r.stdout)
  expect(refund.amount + refund.tax_amount).toBe(amount + tax)
  expect(refund.amount).toBe(amount)
})

it('--total of everything left refunds the order in full; above it is refused before anything is sent', async () => {
  const order = taxed[1]!
  const all = order.refundable_amount + order.refundable_tax_amount
  const above = await till(['refunds', 'create', '--order', order.id, '--total', major(all + 100), '--reason', 'duplicate', '--yes'])
  expect(above.code).toBe(2)
  expect(above.stderr).toMatch(/^Error: --total .* is above what order .* can refund with its tax/m)
  const r = await till(['refunds', 'create', '--order', order.id, '--total', major(all), '--reason', 'duplicate', '--yes', '--json'])
  expect(r.code, r.stderr).toBe(0)
  expect(JSON.parse(r.stdout).amount).toBe(order.refundable_amount)
})

it('the help says --amount is before tax; --amount and --total do not go together', async () => {
  const help = await till(['refunds', 'create', '--help'])
  expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--amount=<value>\s+Amount before tax, in the order's currency/)
  expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--total=<value>\s+Amount that leaves the account, tax included/)
  const both = await till(['refunds', 'create', '--order', taxed[2]!.id, '--amount', '1.00', '--total', '1.25'])
  expect(both.code).toBe(2)
})

it('without a terminal, a missing --reason lists the reasons', async () => {
  const r = await till(['refunds', 'create', '--order', taxed[2]!.id, '--amount', '1.00', '--yes'])
  expect(r.code).toBe(2)
  expect(r.stderr).toMatch(
    /^Error: missing --reason: why the order is refunded\nHint: pass --reason with one of: customer_request, duplicate, fraudulent, service_disruption, satisfaction_guarantee, other\n$/m,
  )
})

it('on a terminal the amount prompt says it is before tax, and the total with tax', async () => {
  const order = taxed[2]!
  const r = await runAnswering(`${TILL} refunds create --order ${sh(order.id)} --reason other`, env(), [
    {when: /before tax: the tax is added/, send: `1.00${KEY.enter}`},
    {when: /\(y\/N\)/, send: `n${KEY.enter}`},
  ])
  expect(r.unanswered, r.stdout).toBe(0)
  expect(r.stdout).toMatch(
    new RegExp(
      `Amount to refund in USD, before tax: the tax is added \\(at most ${major(order.refundable_amount)}; ${major(order.refundable_amount + order.refundable_tax_amount)} with tax\\)`,
    ),
  )
})
