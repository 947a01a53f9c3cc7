// One rule for date flags: relative and calendar forms parsed by till in every command,
// never sent as typed for the service to refuse in a parameter the user did not type.
import {expect, it} from 'vitest'

import {emulatorAndSandbox, envVars} from '../helpers/cli.js'
import {listAll} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

const shared = emulatorAndSandbox()

const till = (args: string[]) => runInProcess(args, {env: shared.box.env(envVars(shared.emulator.production))})

it('orders list --since 7d lists the orders of the last 7 days', async () => {
  const r = await till(['orders', 'list', '--since', '7d', '--all', '--json'])
  expect(r.code, r.stderr).toBe(0)
  const weekAgo = Date.now() - 7 * 86_400_000
  const want = (await listAll(shared.emulator.production, '/orders/')).filter((o) => Date.parse(o.created_at) >= weekAgo + 60_000)
  const got = JSON.parse(r.stdout) as Array<{id: string; created_at: string}>
  for (const o of got) expect(Date.parse(o.created_at)).toBeGreaterThanOrEqual(weekAgo - 60_000)
  for (const o of want) expect(got.map((g) => g.id)).toContain(o.id)
})

it.each([
  [['orders', 'list', '--since', 'last tuesday'], '--since'],
  [['orders', 'list', '--until', '2026-02-30'], '--until'],
  [['events', 'list', '--since', 'soon'], '--since'],
  [['webhooks', 'deliveries', 'list', '--until', 'later'], '--until'],
  [['meters', 'quantities', '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', '--start', 'then'], '--start'],
  [['metrics', '--start', 'then'], '--start'],
])('till %j: a date it cannot read is named by its flag, exit 2, nothing sent', async (args, flag) => {
  const r = await till(args)
  expect(r.code, r.stderr).toBe(2)
  expect(r.stderr).toMatch(new RegExp(`^Error: ${flag}`))
  expect(r.stderr).not.toMatch(/query\./)
})

it('the same words in every command: 1h, 2w and today everywhere', async () => {
  for (const args of [
    ['orders', 'list', '--since', '2w', '--until', 'today'],
    ['events', 'list', '--since', '1h'],
    ['webhooks', 'deliveries', 'list', '--since', 'yesterday'],
    ['metrics', '--start', '30d', '--end', 'today'],
  ]) {
    const r = await till([...args, '--json'])
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0)
  }
})
