// `till metrics`, `metrics list|limits` and `till report --html` as processes against one emulator:
// the numbers agree with the orders and subscriptions till lists (per period and in total, in UTC and
// in another time zone), charts on a pseudo-terminal fit its width and are coloured there only, piped
// output is data only, and the HTML report loads offline in headless Chromium with every chart drawn.
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {Polar} from '@polar-sh/sdk-0.49'
import {RFCDate} from '@polar-sh/sdk-0.49/types/rfcdate.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {allowRefusals} from '../helpers/contract.js'
import {api, ROOT, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {envVars, linesOf, sandbox, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {chromiumTool, launchChromium} from '../helpers/tools.js'
import {eventually, scaled} from '../helpers/machine.js'

const CHROMIUM = chromiumTool()

const PAID = new Set(['paid', 'refunded', 'partially_refunded'])
const ARTIFACTS = join(ROOT, 'test', 'artifacts')

let emulator: Emulator
let box: Sandbox
let env: () => NodeJS.ProcessEnv
let orders: Json[]
let subscriptions: Json[]

const till = (args: string[]) => runInProcess(args, {env: env(), timeoutMs: scaled(60_000)})
const jsonl = (r: CliResult): Json[] => linesOf(r.stdout).map((l) => JSON.parse(l))

/** A shell command line on a pseudo-terminal `cols` wide; stdout and stderr both land in `stdout`. */
function onTerminal(command: string, cols: number, extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const child = spawn('script', ['-qfec', `stty cols ${cols} rows 50 2>/dev/null; ${command}`, '/dev/null'], {
    cwd: ROOT,
    env: {...env(), ...extraEnv},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  const started = Date.now()
  const timer = setTimeout(() => child.kill('SIGKILL'), scaled(60_000))
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout: stdout.replaceAll('\r\n', '\n'), stderr: '', ms: Date.now() - started})
    })
  })
}

/** The local calendar date of an instant in a time zone. */
const localDate = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', {timeZone, year: 'numeric', month: '2-digit', day: '2-digit'}).format(new Date(iso))

beforeAll(async () => {
  emulator = await startEmulator({orders: 600, customers: 120})
  box = sandbox()
  env = () => box.env(envVars(emulator.production))
  const [o, s] = await Promise.all([till(['orders', 'list', '--all', '-o', 'jsonl']), till(['subscriptions', 'list', '--all', '-o', 'jsonl'])])
  expect(o.code, o.stderr).toBe(0)
  expect(s.code, s.stderr).toBe(0)
  orders = jsonl(o)
  subscriptions = jsonl(s)
}, scaled(120_000))

afterAll(async () => {
  await emulator?.stop()
  box?.cleanup()
})

describe('the seeded history', () => {
  it('spans 18 months, grows, and has refunds and cancellations', () => {
    const times = orders.map((o) => Date.parse(o.created_at)).sort((a, b) => a - b)
    const days = (times.at(-1)! - times[0]!) / 86_400_000
    expect(days).toBeGreaterThan(18 * 30)
    const firstQuarter = times.filter((t) => t < times[0]! + (days / 4) * 86_400_000).length
    const lastQuarter = times.filter((t) => t > times.at(-1)! - (days / 4) * 86_400_000).length
    expect(lastQuarter).toBeGreaterThan(firstQuarter * 1.5)
    expect(orders.some((o) => o.status === 'refunded')).toBe(true)
    expect(subscriptions.some((s) => s.ended_at !== null)).toBe(true)
  })
})

describe('till metrics agrees with the listed orders and subscriptions', () => {
  it('per month in UTC: revenue and orders from paid orders, active subscriptions at each period, and the totals', async () => {
    const r = await till([
      'metrics',
      '--metric',
      'revenue',
      '--metric',
      'orders',
      '--metric',
      'active_subscriptions',
      '--start',
      '2025-06-15',
      '--end',
      '2026-09-10',
      '--interval',
      'month',
      '-o',
      'jsonl',
    ])
    expect(r.code, r.stderr).toBe(0)
    const periods = jsonl(r)
    expect(periods.map((p) => p.timestamp)).toEqual(Array.from({length: 16}, (_, i) => new Date(Date.UTC(2025, 5 + i, 1)).toISOString().replace('.000Z', 'Z')))
    const start = Date.parse('2025-06-15T00:00:00Z')
    const end = Date.parse('2026-09-10T23:59:59.999Z')
    const inRange = orders.filter((o) => PAID.has(o.status) && Date.parse(o.created_at) >= start && Date.parse(o.created_at) <= end)
    expect(inRange.length).toBeGreaterThan(50)
    const month = (iso: string) => iso.slice(0, 7)
    for (const p of periods) {
      const mine = inRange.filter((o) => month(o.created_at) === month(p.timestamp))
      expect(p.revenue, `revenue of ${p.timestamp}`).toBe(mine.reduce((a, o) => a + o.net_amount, 0))
      expect(p.orders, `orders of ${p.timestamp}`).toBe(mine.length)
      // active in a month: started in it or before, and not ended (or set to end) in it or before
      const active = subscriptions.filter((s) => {
        const ends = s.ended_at ?? s.ends_at
        if (!s.started_at || month(s.started_at) > month(p.timestamp) || Date.parse(s.started_at) > end) return false
        if (ends && (month(ends) <= month(p.timestamp) || Date.parse(ends) < start)) return false
        return true
      })
      expect(p.active_subscriptions, `active subscriptions of ${p.timestamp}`).toBe(active.length)
    }
    const json = await till(['metrics', '--metric', 'revenue', '--start', '2025-06-15', '--end', '2026-09-10', '--interval', 'month', '--json'])
    const rows = JSON.parse(json.stdout) as Json[]
    expect(rows.reduce((a, p) => a + p.revenue, 0)).toBe(inRange.reduce((a, o) => a + o.net_amount, 0))
  })

  it('per day in Asia/Tokyo: periods are local days and orders fall on their local date', async () => {
    const r = await till([
      'metrics',
      '--metric',
      'revenue',
      '--metric',
      'orders',
      '--last',
      '60d',
      '--interval',
      'day',
      '--timezone',
      'Asia/Tokyo',
      '-o',
      'jsonl',
    ])
    expect(r.code, r.stderr).toBe(0)
    const periods = jsonl(r)
    expect(periods).toHaveLength(60)
    expect(periods[0].timestamp).toMatch(/T00:00:00\+09:00$/)
    const first = periods[0].timestamp.slice(0, 10)
    const counted = orders.filter((o) => PAID.has(o.status) && localDate(o.created_at, 'Asia/Tokyo') >= first)
    for (const p of periods) {
      const mine = counted.filter((o) => localDate(o.created_at, 'Asia/Tokyo') === p.timestamp.slice(0, 10))
      expect(p.revenue, p.timestamp).toBe(mine.reduce((a, o) => a + o.net_amount, 0))
      expect(p.orders, p.timestamp).toBe(mine.length)
    }
    expect(periods.reduce((a, p) => a + p.orders, 0)).toBe(counted.length)
  })

  it('checkouts and conversion from the listed checkouts', async () => {
    const r = await till([
      'metrics',
      '--metric',
      'checkouts',
      '--metric',
      'succeeded_checkouts',
      '--metric',
      'checkouts_conversion',
      '--start',
      '2025-06-01',
      '--end',
      '2026-10-31',
      '--interval',
      'month',
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    const periods = JSON.parse(r.stdout) as Json[]
    const listed = jsonl(await till(['checkouts', 'list', '--all', '-o', 'jsonl'])).filter((c) => c.created_at >= '2025-06-01' && c.created_at < '2026-11-01')
    for (const p of periods) {
      const mine = listed.filter((c) => c.created_at.slice(0, 7) === p.timestamp.slice(0, 7))
      const succeeded = mine.filter((c) => c.status === 'succeeded').length
      expect(p.checkouts, p.timestamp).toBe(mine.length)
      expect(p.succeeded_checkouts, p.timestamp).toBe(succeeded)
      expect(p.checkouts_conversion, p.timestamp).toBeCloseTo(mine.length ? succeeded / mine.length : 0)
    }
    expect(periods.reduce((a, p) => a + p.checkouts, 0)).toBeGreaterThan(30)
  })

  it('--product and --billing-type narrow the orders counted', async () => {
    const product = orders.find((o) => PAID.has(o.status) && o.product_id && !o.subscription_id)!.product_id
    const r = await till(['metrics', '--metric', 'revenue', '--metric', 'orders', '--last', '2y', '--interval', 'year', '--product', product, '-o', 'jsonl'])
    expect(r.code, r.stderr).toBe(0)
    const mine = orders.filter((o) => PAID.has(o.status) && o.product_id === product)
    expect(jsonl(r).reduce((a, p) => a + p.revenue, 0)).toBe(mine.reduce((a, o) => a + o.net_amount, 0))
    const oneTime = await till(['metrics', '--metric', 'orders', '--last', '2y', '--interval', 'year', '--billing-type', 'one_time', '-o', 'jsonl'])
    expect(jsonl(oneTime).reduce((a, p) => a + p.orders, 0)).toBe(orders.filter((o) => PAID.has(o.status) && o.subscription_id === null).length)
  })
})

describe('the service contract', () => {
  it('answers in the shapes the SDK parses, and refuses bad ranges as the service does', async () => {
    allowRefusals() // the bad ranges and a request without its dates, on purpose
    const polar = new Polar({accessToken: emulator.production.token, serverURL: emulator.production.url.replace(/\/v1$/, '')})
    const m = await polar.metrics.get({startDate: new RFCDate('2026-01-01'), endDate: new RFCDate('2026-03-31'), interval: 'month', timezone: 'Europe/Paris'})
    expect(m.periods).toHaveLength(3)
    expect(m.periods[0]!.timestamp.toISOString()).toBe('2025-12-31T23:00:00.000Z')
    expect(m.metrics.revenue).toEqual({slug: 'revenue', displayName: 'Revenue', type: 'currency'})
    const limits = await polar.metrics.limits()
    expect(limits.intervals.day).toEqual({minDays: 0, maxDays: 366})
    const tooBig = await api(emulator.production, 'GET', '/metrics/?start_date=2024-01-01&end_date=2026-01-01&interval=day')
    expect(tooBig.status).toBe(422)
    expect(tooBig.body.detail[0]).toMatchObject({loc: ['query'], type: 'value_error'})
    const missing = await api(emulator.production, 'GET', '/metrics/?interval=day')
    expect(missing.status).toBe(422)
    expect(missing.body.detail.map((d: Json) => d.loc)).toEqual([
      ['query', 'start_date'],
      ['query', 'end_date'],
    ])
  })

  it('metrics list names every metric; metrics limits shows each interval', async () => {
    const list = await till(['metrics', 'list', '-o', 'jsonl'])
    expect(list.code, list.stderr).toBe(0)
    const slugs = jsonl(list).map((m) => m.slug)
    expect(slugs).toEqual(
      expect.arrayContaining([
        'revenue',
        'orders',
        'monthly_recurring_revenue',
        'annual_recurring_revenue',
        'active_subscriptions',
        'churn_rate',
        'checkouts_conversion',
      ]),
    )
    expect(jsonl(list).every((m) => m.definition.length > 0)).toBe(true)
    const limits = await till(['metrics', 'limits'])
    expect(linesOf(limits.stdout)).toEqual([
      'hour\t0\t7\t2023-01-01',
      'day\t0\t366\t2023-01-01',
      'week\t14\t371\t2023-01-01',
      'month\t60\t1460\t2023-01-01',
      'year\t366\t3650\t2023-01-01',
    ])
  })

  it('bad input: one line naming the problem, exit 2, nothing on stdout', async () => {
    for (const args of [
      ['--last', '3x'],
      ['--start', '2026-02-30'],
      ['--timezone', 'Mars/Olympus'],
      ['--last', '30d', '--start', '2026-01-01'],
      ['--metric', 'bogus'],
      ['--start', '2020-01-01', '--end', '2026-01-01', '--interval', 'day'],
    ]) {
      const r = await till(['metrics', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  })
})

describe('charts on a terminal', () => {
  it('one chart per metric, as wide as the terminal, coloured, with units, total and change', async () => {
    for (const cols of [60, 140]) {
      const r = await onTerminal(`${TILL} metrics --metric revenue --metric orders --last 12m`, cols)
      expect(r.code, r.stdout).toBe(0)
      expect(r.stdout).toContain('\x1b[')
      const text = stripAnsi(r.stdout)
      expect(text).toMatch(/Revenue \(USD\)/)
      expect(text).toMatch(/total \$[\d,]+\.\d\d/)
      expect(text).toMatch(/vs previous 12 months/)
      expect(text).toMatch(/Orders · total \d+/)
      expect(text.match(/┤/g)!.length).toBeGreaterThan(8)
      for (const line of text.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(cols)
      // the plot fills the width: its longest line is close to the terminal's
      expect(Math.max(...text.split('\n').map((l) => [...l].length))).toBeGreaterThan(cols - 8)
    }
  })

  it('gauges say latest and averages average; partial first and last periods are marked; count axes are whole numbers, aligned', async () => {
    // a range cut short at both ends: from the 15th of a month six months ago to the 10th of last month
    const now = new Date()
    const day = (monthsBack: number, d: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, d)).toISOString().slice(0, 10)
    const [start, end] = [day(6, 15), day(1, 10)]
    const r = await onTerminal(`${TILL} metrics -m mrr -m orders -m aov -m active_subscriptions --start ${start} --end ${end} --interval month --no-color`, 100)
    expect(r.code, r.stdout).toBe(0)
    const text = stripAnsi(r.stdout)
    expect(text).toMatch(/^Monthly Recurring Revenue \(USD\) · latest \$[\d,]+\.\d\d/m)
    expect(text).toMatch(/^Average Order Value \(USD\) · average \$[\d,]+\.\d\d/m)
    expect(text).toMatch(/^Active Subscriptions · latest \d+/m)
    expect(text).toMatch(/^Orders · total \d+/m)
    expect(text).not.toMatch(/(Recurring Revenue|Average Order Value|Active Subscriptions)[^\n]*· total/)
    expect(text).toContain(`* partial periods: ${start.slice(0, 7)} from ${start} · ${end.slice(0, 7)} up to ${end}`)
    const charts = text.split('\n\n').filter((block) => /[┤┼]/.test(block))
    expect(charts).toHaveLength(4)
    for (const chart of charts) {
      const lines = chart.split('\n').filter(Boolean)
      const rows = lines.filter((l) => /[┤┼]/.test(l))
      // one column for the axis in every row: the labels are as wide as the widest
      expect(new Set(rows.map((l) => l.search(/[┤┼]/))).size, chart).toBe(1)
      const axis = lines.at(-1)!.trim().split(/\s+/)
      expect(axis[0], 'the first period is partial').toBe(`${start.slice(0, 7)}*`)
      expect(axis.at(-1), 'the last period is partial').toBe(`${end.slice(0, 7)}*`)
      if (/^(Orders|Active Subscriptions)/.test(lines[0]!)) {
        const labels = rows.map((l) => l.slice(0, l.search(/[┤┼]/)).trim()).filter(Boolean)
        for (const label of labels) expect(label, chart).toMatch(/^\d[\d,]*$/)
        expect(new Set(labels).size, `no label repeated: ${labels.join(', ')}`).toBe(labels.length)
      }
    }
  })

  it('--no-color and NO_COLOR give plain charts', async () => {
    const r = await onTerminal(`${TILL} metrics --metric revenue --last 30d --no-color`, 100)
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('\x1b[')
    const n = await onTerminal(`${TILL} metrics --metric revenue --last 30d`, 100, {NO_COLOR: '1'})
    expect(n.stdout).not.toContain('\x1b[')
  })

  it('piped: periods as tab-separated rows, no colour, nothing else on stdout', async () => {
    const r = await till(['metrics', '--last', '12m'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).not.toContain('\x1b[')
    const lines = linesOf(r.stdout)
    expect(lines.length).toBeGreaterThanOrEqual(12)
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-01T00:00:00Z\t\d+\t\d+\t\d+\t\d+$/)
    const csv = await till(['metrics', '--last', '12m', '-o', 'csv'])
    expect(csv.stdout.split('\r\n')[0]).toBe('timestamp,revenue,orders,monthly_recurring_revenue,active_subscriptions')
  })
})

describe('till report --html', () => {
  it('names the periods the range cuts short', async () => {
    const file = join(box.root, 'partial.html')
    const r = await till(['report', '--html', file, '--start', '2026-01-15', '--end', '2026-03-10', '--interval', 'month'])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toContain(
      '<p class="partial">Partial periods: 2026-01 from 2026-01-15; 2026-03 up to 2026-03-10 (the range covers only part of them).</p>',
    )
    const whole = join(box.root, 'whole.html')
    expect((await till(['report', '--html', whole, '--start', '2026-01-01', '--end', '2026-03-31', '--interval', 'month'])).code).toBe(0)
    expect(readFileSync(whole, 'utf8')).not.toContain('class="partial"')
  })

  it(
    'writes one self-contained page whose embedded figures agree with the orders and refunds',
    async () => {
      const file = join(box.root, 'report.html')
      const r = await till(['report', '--html', file, '--last', '18m', '--interval', 'month'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/Wrote .*report\.html/)
      const html = readFileSync(file, 'utf8')
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/i)

      // the embedded figures agree with the listed orders and refunds
      const data = JSON.parse(/<script id="report-data" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!)
      const start = Date.parse(`${data.range.startDate}T00:00:00Z`)
      const end = Date.parse(`${data.range.endDate}T23:59:59.999Z`)
      const inRange = (iso: string) => Date.parse(iso) >= start && Date.parse(iso) <= end
      const top = data.topProducts[0]
      const topOrders = orders.filter((o) => PAID.has(o.status) && o.product_id === top.id && o.currency === top.currency && inRange(o.created_at))
      expect(top.revenue).toBe(topOrders.reduce((a, o) => a + o.net_amount, 0))
      expect(top.orders).toBe(topOrders.length)
      // never summed across currencies: each row is one product in one currency, the
      // organization's first, and orders in another currency are named beside the charts, which add them up
      for (const row of data.topProducts) {
        const mine = orders.filter((o) => PAID.has(o.status) && o.product_id === row.id && inRange(o.created_at))
        const same = mine.filter((o) => o.currency === row.currency)
        expect(row.revenue, `${row.name} in ${row.currency}`).toBe(same.reduce((a, o) => a + o.net_amount, 0))
      }
      const foreign = orders.filter((o) => PAID.has(o.status) && inRange(o.created_at) && o.currency !== data.currency)
      expect(foreign.length, "orders in another currency than the organization's in the seed").toBeGreaterThan(0)
      expect(data.topProducts.some((p: Json) => p.currency !== data.currency)).toBe(true)
      expect(data.otherCurrencies).toEqual([...new Set(foreign.map((o) => o.currency))].sort())
      expect(html).toContain(`Some orders are in ${data.otherCurrencies.map((c: string) => c.toUpperCase()).join(', ')}: the charts are the service's metrics`)
      const listed = jsonl(await till(['refunds', 'list', '--all', '-o', 'jsonl'])).filter((x) => x.status === 'succeeded' && inRange(x.created_at))
      expect(data.refunds.reduce((a: number, x: Json) => a + x.count, 0)).toBe(listed.length)
      // the charted amounts are in the organization's currency; other currencies' refunds are named apart
      const sum = (xs: Json[]) => xs.reduce((a, x) => a + x.amount, 0)
      expect(data.refunds.reduce((a: number, x: Json) => a + x.amount, 0)).toBe(sum(listed.filter((x) => x.currency === data.currency)))
      for (const c of new Set(listed.map((x) => x.currency).filter((c) => c !== data.currency)))
        expect(data.otherRefunds[c], c).toBe(sum(listed.filter((x) => x.currency === c)))
    },
    scaled(90_000),
  )

  it.skipIf(CHROMIUM.missing)(
    `headless Chromium draws the page with no console error and no request${CHROMIUM.skipped}`,
    async () => {
      const file = join(box.root, 'report.html')
      if (!existsSync(file)) expect((await till(['report', '--html', file, '--last', '18m', '--interval', 'month'])).code).toBe(0)
      const browser = await launchChromium(CHROMIUM.path!)
      try {
        const page = await browser.newPage({viewport: {width: 1280, height: 900}})
        const errors: string[] = []
        const network: string[] = []
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
        page.on('pageerror', (e) => errors.push(String(e)))
        page.on('request', (req) => !req.url().startsWith('file:') && network.push(req.url()))
        await page.goto(`file://${file}`, {waitUntil: 'load'})
        await page.waitForSelector('.uplot canvas')
        const charts = await page.evaluate(() =>
          [...document.querySelectorAll('.card')].map((card) => {
            const canvas = card.querySelector('canvas') as HTMLCanvasElement | null
            if (!canvas || canvas.width === 0 || canvas.height === 0) return {title: card.querySelector('h2')?.textContent, drawn: 0}
            const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
            let drawn = 0
            for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) drawn++
            return {title: card.querySelector('h2')?.textContent, drawn}
          }),
        )
        expect(charts.map((c) => c.title)).toEqual([
          'Revenue',
          'Net Revenue',
          'Orders',
          'Monthly Recurring Revenue',
          'Active Subscriptions',
          'New Subscriptions',
          'Churned Subscriptions',
          'Average Order Value',
          'Refunds',
        ])
        for (const c of charts) expect(c.drawn, `${c.title} is drawn`).toBeGreaterThan(500)
        // what each figure is: a total, the latest value of a gauge, an average
        const subtitles = Object.fromEntries(
          await page.$$eval('.card', (cards) => cards.map((c) => [c.querySelector('h2')?.textContent, c.querySelector('.sub')?.textContent])),
        )
        expect(subtitles.Orders).toMatch(/^Total \d/)
        expect(subtitles.Revenue).toMatch(/^Total \$/)
        expect(subtitles['Monthly Recurring Revenue']).toMatch(/^Latest \$/)
        expect(subtitles['Active Subscriptions']).toMatch(/^Latest \d/)
        expect(subtitles['Average Order Value']).toMatch(/^Average \$/)
        // counts are ticked on whole numbers
        const ticks = await page.evaluate(() =>
          (window as unknown as {tillCharts: Array<{tillTitle: string; tillTicks: string[]}>}).tillCharts.map((u) => [u.tillTitle, u.tillTicks]),
        )
        for (const [title, labels] of ticks.filter(([t]) =>
          ['Orders', 'Active Subscriptions', 'New Subscriptions', 'Churned Subscriptions'].includes(t as string),
        )) {
          expect((labels as string[]).length, `${title} has ticks`).toBeGreaterThan(1)
          for (const label of labels as string[]) expect(label, `${title}: ${(labels as string[]).join(', ')}`).toMatch(/^\d[\d,]*$/)
          expect(new Set(labels).size, `${title}: ${(labels as string[]).join(', ')}`).toBe((labels as string[]).length)
        }
        // the refunds bars at both ends are whole inside the plot
        const ends = await page.evaluate(() => {
          type Plot = {tillTitle: string; data: number[][]; valToPos(v: number, scale: string): number; bbox: {width: number}}
          const u = (window as unknown as {tillCharts: Plot[]}).tillCharts.find((c) => c.tillTitle === 'Refunds')!
          const xs = u.data[0]!
          const bar = (u.valToPos(xs[1]!, 'x') - u.valToPos(xs[0]!, 'x')) * 0.6
          return {first: u.valToPos(xs[0]!, 'x') - bar / 2, last: u.valToPos(xs.at(-1)!, 'x') + bar / 2, width: u.bbox.width / devicePixelRatio}
        })
        expect(ends.first, JSON.stringify(ends)).toBeGreaterThanOrEqual(0)
        expect(ends.last, JSON.stringify(ends)).toBeLessThanOrEqual(ends.width)
        const products = await page.$$eval('#top-products tr', (rows) => rows.map((r) => r.textContent))
        expect(products.length).toBeGreaterThan(3)
        if (!existsSync(ARTIFACTS)) mkdirSync(ARTIFACTS, {recursive: true})
        await page.screenshot({path: join(ARTIFACTS, 'metrics-report.png'), fullPage: true})
        expect(errors).toEqual([])
        expect(network).toEqual([])
      } finally {
        await browser.close()
      }
    },
    90_000,
  )

  it('--open hands the written file to the desktop opener; a bad range writes nothing', async () => {
    const bin = join(box.root, 'bin')
    mkdirSync(bin, {recursive: true})
    const opened = join(box.root, 'opened.txt')
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(opened)}\n`, {mode: 0o755})
    const file = join(box.root, 'open.html')
    const r = await runInProcess(['report', '--html', file, '--last', '30d', '--open'], {
      env: box.env({...envVars(emulator.production), PATH: `${bin}:${process.env.PATH}`}),
      timeoutMs: scaled(60_000),
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).not.toContain('Could not open a browser')
    // the opener runs on its own (detached): on a loaded machine its shell may take more than the 5 s this waited
    await eventually('the opener to write what it was given', () => existsSync(opened) && readFileSync(opened, 'utf8') === file, 20_000)
    const bad = join(box.root, 'bad.html')
    const b = await till(['report', '--html', bad, '--start', '2026-13-01'])
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/--start must be a date/)
    expect(existsSync(bad)).toBe(false)
  })
})
