// The API coverage report (scripts/api-coverage.js) as a process: it finds the SDK's operations, the
// emulator's routes and till's commands by itself, exits 0 with operations missing, and does not count
// a reserved path (the CSV exports answer as unknown routes) as implemented.
import {spawnSync} from 'node:child_process'
import {join} from 'node:path'

import {expect, it} from 'vitest'

import {ROOT} from '../helpers/emulator.js'

const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'api-coverage.js'), ...args], {cwd: ROOT, encoding: 'utf8'})

it('prints counts per SDK resource and exits 0 although operations are missing', () => {
  const r = run('--missing')
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  const row = (name: string) => r.stdout.split('\n').find((l) => l.startsWith(`${name} `))?.trim().split(/\s+/).slice(1).map(Number)
  // products: list, create, get, update, update benefits: all five emulated and called by till commands.
  expect(row('products')).toEqual([5, 5, 5])
  const all = row('all')!
  expect(all[0]).toBeGreaterThanOrEqual(185)
  expect(all[1]).toBeGreaterThan(0)
  expect(all[1]).toBeLessThan(all[0]!)
  expect(r.stdout).toContain('customer_portal:downloadables: GET /v1/customer-portal/downloadables/')
  expect(r.stdout).not.toContain('products: GET /v1/products/{id}\n')
})

it('--markdown prints the README table', () => {
  const r = run('--markdown')
  expect(r.status).toBe(0)
  expect(r.stdout.split('\n')[0]).toBe('| SDK resource | operations | emulator | till commands |')
  expect(r.stdout).toMatch(/\| \*\*all\*\* \| \*\*\d+\*\* \|/)
})
