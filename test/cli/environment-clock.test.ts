// One clock per command: on an emulator profile, the relative times a table or a detail view shows and the
// date words of flags (`--since yesterday`) count from the emulator's clock, which `till emulator clock
// advance` moved ahead, as metrics and the report do; not from this machine's.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {envVars, runTty, sandbox, stripAnsi, TILL, type Sandbox} from '../helpers/cli.js'
import {control, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

const DAY = 86_400_000

let emulator: Emulator
let box: Sandbox
let clockNow: number

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
  const advanced = await runInProcess(['emulator', 'clock', 'advance', '40d'], {env: env()})
  expect(advanced.code, advanced.stderr).toBe(0)
  // an order made at the emulator's time, after the walk
  const made = await runInProcess(['trigger', 'order.paid', '--through-api'], {env: env()})
  expect(made.code, made.stderr).toBe(0)
  clockNow = Date.parse((await control(emulator.production, 'GET', '/clock')).body.now)
  expect(clockNow - Date.now()).toBeGreaterThan(39 * DAY)
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

function env(): NodeJS.ProcessEnv {
  return box.env({...envVars(emulator.production), TILL_ENV: 'local'})
}

describe("on an emulator profile after till emulator clock advance 40d, the emulator's clock", () => {
  it('tables show the newest orders as past, not "in 5 weeks"', async () => {
    const r = await runTty(`${TILL} orders list --limit 10 --columns id,created_at`, {env: env(), cols: 120})
    expect(r.code, r.stdout).toBe(0)
    const text = stripAnsi(r.stdout)
    expect(text).toMatch(/just now|ago/)
    expect(text).not.toMatch(/\bin \d+ (second|minute|hour|day|week|month|year)/)
  })

  it('a new object is shown created just now, not in the future', async () => {
    const r = await runTty(`${TILL} products create --name Clocked --price 5.00`, {env: env(), cols: 120})
    expect(r.code, r.stdout).toBe(0)
    expect(stripAnsi(r.stdout)).not.toMatch(/\(in \d+/)
  })

  it('--since yesterday returns only the orders of the emulator since its yesterday', async () => {
    const r = await runInProcess(['orders', 'list', '--since', 'yesterday', '--all', '-o', 'jsonl'], {env: env()})
    expect(r.code, r.stderr).toBe(0)
    const orders = r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json)
    const yesterday = Math.floor(clockNow / DAY) * DAY - DAY
    expect(orders.length).toBeGreaterThan(0)
    for (const order of orders) expect(Date.parse(order.created_at)).toBeGreaterThanOrEqual(yesterday)
    const all = await listAll(emulator.production, '/orders/')
    const expected = all.filter((o) => Date.parse(o.created_at) >= yesterday).map((o) => o.id)
    expect(orders.map((o) => o.id).sort()).toEqual(expected.sort())
    // more orders than those fell on the way: a machine's yesterday would have returned them too
    expect(all.filter((o) => Date.parse(o.created_at) >= Date.now() - DAY).length).toBeGreaterThan(orders.length)
  })
})
