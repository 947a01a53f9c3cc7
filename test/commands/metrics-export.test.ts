// `till metrics export` (GET /v1/metrics/export: the service's CSV, a Timestamp column then one column per
// metric by its display name) and `till report --dashboard` (the HTML report charting a saved dashboard's
// metrics under its name); the seeded dashboard a fresh emulator has. Contract mode on.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, expect, it} from 'vitest'

import {envVars, sandbox, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'

let emulator: Emulator
let box: Sandbox
const till = (args: string[]) => runInProcess(args, {env: box.env(envVars(emulator.production))})
const ok = (r: CliResult) => expect(r.code, `exit ${r.code}\n${r.stderr}`).toBe(0)
const RANGE = ['--start', '2026-01-01', '--end', '2026-06-30', '--interval', 'month']
const QUERY = 'start_date=2026-01-01&end_date=2026-06-30&interval=month&timezone=UTC'

beforeAll(async () => {
  emulator = await startEmulator()
  box = sandbox()
})
afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

it("exports the metrics as the service's CSV, the same figures as the metrics themselves", async () => {
  const metrics = (await api(emulator.production, 'GET', `/metrics/?${QUERY}&metrics=revenue&metrics=orders`)).body
  const r = await till(['metrics', 'export', ...RANGE, '--metric', 'revenue', '--metric', 'orders'])
  ok(r)
  const lines = r.stdout.split('\r\n')
  expect(lines.at(-1)).toBe('')
  // the columns in the service's order of its metrics (that of the answer's definitions), not the order asked in
  expect(lines[0]).toBe(['Timestamp', ...Object.values(metrics.metrics as Record<string, Json>).map((m) => m.display_name)].join(','))
  const header = lines[0]!.split(',')
  const slugOf = Object.fromEntries(Object.values(metrics.metrics as Record<string, Json>).map((m) => [m.display_name, m.slug]))
  const rows = lines.slice(1, -1).map((l) => l.split(','))
  expect(rows).toHaveLength(6)
  rows.forEach((row, i) => {
    const period = metrics.periods[i]
    expect(Date.parse(row[0]!)).toBe(Date.parse(period.timestamp))
    header.slice(1).forEach((name, j) => expect(Number(row[j + 1]), name).toBe(period[slugOf[name]!]))
  })
  expect(rows.some((row) => Number(row[1]) > 0)).toBe(true)
})

it('without --metric, every metric; --file writes the file and says how many periods', async () => {
  const all = await till(['metrics', 'export', ...RANGE])
  ok(all)
  const definitions = (await api(emulator.production, 'GET', `/metrics/?${QUERY}`)).body.metrics
  expect(all.stdout.split('\r\n')[0]!.split(',')).toHaveLength(Object.keys(definitions).length + 1)
  const file = join(box.root, 'metrics.csv')
  const saved = await till(['metrics', 'export', ...RANGE, '--file', file])
  ok(saved)
  expect(saved.stdout).toBe('')
  expect(saved.stderr).toContain(`Saved 6 periods to ${file}.`)
  expect(readFileSync(file, 'utf8')).toBe(all.stdout)
})

it('refuses an unknown metric in the service words', async () => {
  const r = await till(['metrics', 'export', ...RANGE, '--metric', 'happiness'])
  expect(r.code).toBe(2)
  expect(r.stderr).toMatch(/happiness/)
})

it('a fresh emulator has a saved dashboard, and the report renders it: its name, its metrics in its order', async () => {
  const listed = await till(['metrics', 'dashboards', 'list', '-o', 'json'])
  ok(listed)
  const [growth] = JSON.parse(listed.stdout).filter((d: Json) => d.name === 'Growth')
  expect(growth.metrics).toEqual(['revenue', 'new_subscriptions', 'monthly_recurring_revenue', 'churned_subscriptions'])

  const file = join(box.root, 'growth.html')
  const r = await till(['report', '--html', file, ...RANGE, '--dashboard', growth.id])
  ok(r)
  const html = readFileSync(file, 'utf8')
  expect(html).toContain('<h2 id="dashboard">Growth</h2>')
  const data = JSON.parse(/<script id="report-data" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!)
  expect(data.charted).toEqual(growth.metrics)
  expect(data.dashboard).toEqual({name: 'Growth', metrics: growth.metrics})

  // without --dashboard, the main metrics as before
  const plain = join(box.root, 'plain.html')
  ok(await till(['report', '--html', plain, ...RANGE]))
  const main = JSON.parse(/<script id="report-data" type="application\/json">(.*?)<\/script>/s.exec(readFileSync(plain, 'utf8'))![1]!)
  expect(main.charted).toContain('orders')
  expect(main.dashboard).toBeUndefined()

  const missing = crypto.randomUUID()
  const gone = await till(['report', '--html', join(box.root, 'x.html'), '--dashboard', missing])
  expect(gone.code).toBe(3)
  expect(gone.stderr.split('\n')[0]).toBe(`Error: not found: there is no metric dashboard ${missing} in local (profile local)`)
})
