// A flag's value that starts with '-' is the flag's value: `--sort -amount` (descending) and
// `--sort=-occurrences` work whatever letter follows the '-', as the help of every --sort says. oclif took
// `-occurrences` for the short flag `-o`; the bundle amends its parser (scripts/bundle-edits.js). A whole flag
// in the value's place is still refused.
import {afterAll, beforeAll, expect, it} from 'vitest'

import {envVars, linesOf, sandbox, type Sandbox} from '../helpers/cli.js'
import {startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
const till = (args: string[]) => runInProcess(args, {env: box.env(envVars(emulator.production))})
const rows = async (args: string[]) => {
  const r = await till(args)
  expect(r.code, r.stderr).toBe(0)
  return linesOf(r.stdout).map((l) => JSON.parse(l) as Json)
}

beforeAll(async () => {
  emulator = await startEmulator({orders: 30})
  box = sandbox()
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

it('--sort -amount and --sort=-amount list the largest orders first; --sort amount the smallest', async () => {
  const descending = await rows(['orders', 'list', '--sort', '-amount', '--limit', '10', '-o', 'jsonl'])
  const amounts = descending.map((o) => o.net_amount as number)
  expect(amounts.length).toBe(10)
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a))
  expect(await rows(['orders', 'list', '--sort=-amount', '--limit', '10', '-o', 'jsonl'])).toEqual(descending)
  const ascending = (await rows(['orders', 'list', '--sort', 'amount', '--limit', '10', '-o', 'jsonl'])).map((o) => o.net_amount as number)
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b))
})

it('--sort=-occurrences and --sort -occurrences (the letter of the short flag -o after the -) are values, not flags', async () => {
  expect((await till(['events', 'types', 'list', '--sort=-occurrences', '-o', 'json'])).code).toBe(0)
  expect((await till(['events', 'types', 'list', '--sort', '-occurrences', '-o', 'json'])).code).toBe(0)
})

it('a whole flag where a value should be is still refused', async () => {
  const r = await till(['orders', 'list', '--columns', '-o'])
  expect(r.code).toBe(2)
  expect(r.stderr).toContain('--columns expects a value')
})
