// Metrics dashboards, the worked example of docs/ARCHITECTURE.md: a resource added with its description
// (whose commands are derived: no command file), its emulator folder, its column set and its topic. The
// commands against the emulator, every request and answer checked against the document (contract mode).
import {afterAll, beforeAll, expect, it} from 'vitest'

import {envVars, linesOf, sandbox, type Sandbox} from '../helpers/cli.js'
import {allowRefusals} from '../helpers/contract.js'
import {startEmulator, type Emulator} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
const till = (args: string[], input?: string) => runInProcess(args, {env: box.env(envVars(emulator.production)), input})

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

it('creates, lists, shows, changes and deletes a dashboard', async () => {
  const created = await till(['metrics', 'dashboards', 'create', '-f', 'name=Revenue', '-F', 'metrics=["revenue","orders"]', '--json'])
  expect(created.code, created.stderr).toBe(0)
  const dashboard = JSON.parse(created.stdout)
  expect(dashboard).toMatchObject({name: 'Revenue', metrics: ['revenue', 'orders'], organization_id: emulator.production.organizationId})

  // piped without a format, a create prints the id alone
  const piped = await till(['metrics', 'dashboards', 'create', '--input', '-'], JSON.stringify({name: 'Growth', metrics: ['active_subscriptions']}))
  expect(piped.code, piped.stderr).toBe(0)
  expect(piped.stdout).toMatch(/^[0-9a-f-]{36}\n$/)

  const list = await till(['metrics', 'dashboards', 'list', '-o', 'tsv', '--columns', 'id,name,metrics'])
  expect(list.code, list.stderr).toBe(0)
  // oldest first: the one the emulator is seeded with, then these two
  expect(linesOf(list.stdout)).toEqual([
    expect.stringMatching(/\tGrowth\trevenue, new_subscriptions, monthly_recurring_revenue, churned_subscriptions$/),
    `${dashboard.id}\tRevenue\trevenue, orders`,
    `${piped.stdout.trim()}\tGrowth\tactive_subscriptions`,
  ])

  const renamed = await till(['metrics', 'dashboards', 'update', dashboard.id, '-f', 'name=Revenue and orders', '--json'])
  expect(renamed.code, renamed.stderr).toBe(0)
  expect(JSON.parse(renamed.stdout)).toMatchObject({id: dashboard.id, name: 'Revenue and orders', metrics: ['revenue', 'orders']})
  const shown = await till(['metrics', 'dashboards', 'get', dashboard.id, '--json'])
  expect(JSON.parse(shown.stdout).modified_at).not.toBeNull()

  const refused = await till(['metrics', 'dashboards', 'delete', dashboard.id])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toMatch(/--yes/)
  const deleted = await till(['metrics', 'dashboards', 'delete', dashboard.id, '--yes'])
  expect(deleted.code, deleted.stderr).toBe(0)
  expect(deleted.stderr).toContain(`Deleted metric dashboard ${dashboard.id}.`)
  const gone = await till(['metrics', 'dashboards', 'get', dashboard.id])
  expect(gone.code).toBe(3)
  expect(gone.stderr.split('\n')[0]).toBe(`Error: not found: there is no metric dashboard ${dashboard.id} in local (profile local)`)
})

it("refuses what the document refuses, in the service's words; nothing to change is a usage error", async () => {
  allowRefusals()
  const tooMany = await till(['metrics', 'dashboards', 'create', '-f', 'name=Big', '-F', `metrics=${JSON.stringify(Array(11).fill('revenue'))}`])
  expect(tooMany.code).toBe(2)
  expect(tooMany.stderr).toMatch(/metrics/)
  const nameless = await till(['metrics', 'dashboards', 'create', '-f', 'name='])
  expect(nameless.code).toBe(2)
  const nothing = await till(['metrics', 'dashboards', 'update', '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'])
  expect(nothing.code).toBe(2)
  expect(nothing.stderr).toMatch(/^Error: nothing to change\nHint: give fields with -f key=value/)
})
