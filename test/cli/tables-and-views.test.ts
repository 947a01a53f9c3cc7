// Tables that fit the terminal (80 and 120 columns, in a real
// pseudo-terminal), raw values in csv/tsv, and curated detail views. One emulator for the file.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {asShown, envVars, linesOf, runTty, sandbox, stripAnsi, TILL, type CliResult, type Sandbox} from '../helpers/cli.js'
import {api, listAll, startEmulator, type Emulator, type Json} from '../helpers/emulator.js'
import {runInProcess} from '../helpers/in-process.js'
import {scaled} from '../helpers/machine.js'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/

describe('widths, raw values, detail views', {timeout: scaled(90_000)}, () => {
  let emulator: Emulator
  let box: Sandbox
  const vars = (extra: Record<string, string | undefined> = {}) => box.env({...envVars(emulator.sandbox), TERM: 'xterm-256color', ...extra})
  const till = (args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> => runInProcess(args, {env: vars(extra)})
  const tty = async (line: string, cols: number, extra: Record<string, string | undefined> = {}): Promise<string> => {
    const r = await runTty(`${TILL} ${line}`, {env: vars({NO_COLOR: '1', ...extra}), cols})
    expect(r.code, r.stdout).toBe(0)
    return stripAnsi(r.stdout)
  }
  /** Terminal cells of a line (the ellipsis is one). */
  const cells = (line: string) => [...line].length

  beforeAll(async () => {
    emulator = await startEmulator()
    box = sandbox()
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  describe('csv, tsv and json carry raw values', () => {
    it('a product price is its type and minor units with a currency column; JSON is the API object', async () => {
      const products = await listAll(emulator.sandbox, '/products/')
      const fixed = products.find((p) => {
        const live = (p.prices as Json[]).find((x) => !x.is_archived)
        return live?.amount_type === 'fixed' && (live.price_amount as number) > 0
      })!
      const live = (fixed.prices as Json[]).find((x) => !x.is_archived)!
      const csv = await till(['products', 'list', '--all', '-o', 'csv'])
      expect(csv.code, csv.stderr).toBe(0)
      const [header, ...rows] = csv.stdout
        .trimEnd()
        .split('\r\n')
        .map((l) => l.split(','))
      expect(header).toEqual(['id', 'name', 'type', 'price_type', 'price_amount', 'archived', 'created_at', 'currency'])
      const row = rows.find((r) => r[0] === fixed.id)!
      expect(row.slice(3, 5)).toEqual(['fixed', String(live.price_amount)])
      expect(row.at(-1)).toBe(live.price_currency)
      expect(csv.stdout).not.toMatch(/[$€]\d/)
      const tsv = await till(['products', 'get', fixed.id as string, '-o', 'tsv'])
      expect(tsv.stdout.split('\t').slice(3, 5)).toEqual(['fixed', String(live.price_amount)])
      // the table still shows money for people
      const table = await till(['products', 'get', fixed.id as string, '-o', 'table', '--columns', 'name,price'])
      expect(table.stdout).toMatch(/Price\s+[$€]\d+\.\d\d/)
      const json = await till(['products', 'get', fixed.id as string, '--json'])
      expect(JSON.parse(json.stdout)).toEqual(asShown('products', (await api(emulator.sandbox, 'GET', `/products/${fixed.id}`)).body))
    })

    it('a discount value is basis points or minor units with a currency column', async () => {
      const pct = await till(['discounts', 'create', '--name', 'Raw pct', '--percent', '12.5'])
      const fixed = await till(['discounts', 'create', '--name', 'Raw fixed', '--amount', '5.00', '--currency', 'eur'])
      expect(pct.code, pct.stderr).toBe(0)
      expect(fixed.code, fixed.stderr).toBe(0)
      const tsv = await till(['discounts', 'list', '--all', '--header'])
      const [header, ...rows] = linesOf(tsv.stdout).map((l) => l.split('\t'))
      const at = (row: string[], key: string) => row[header!.indexOf(key)]
      const p = rows.find((r) => r[0] === pct.stdout.trim())!
      const f = rows.find((r) => r[0] === fixed.stdout.trim())!
      expect([at(p, 'basis_points'), at(p, 'amount'), at(p, 'currency')]).toEqual(['1250', '', ''])
      expect([at(f, 'basis_points'), at(f, 'amount'), at(f, 'currency')]).toEqual(['', '500', 'eur'])
      expect(p.join('\t')).not.toContain('%')
      expect(f.join('\t')).not.toContain('€')
      // a table shows them for people
      const table = await till(['discounts', 'get', pct.stdout.trim(), '-o', 'table', '--columns', 'name,value'])
      expect(table.stdout).toMatch(/Off\s+12\.5%/)
    })

    it('a file size is bytes in csv, for people in a table', async () => {
      const path = join(box.root, 'raw.bin')
      writeFileSync(path, Buffer.alloc(300_000, 7))
      const up = await till(['files', 'upload', path])
      expect(up.code, up.stderr).toBe(0)
      const id = up.stdout.trim()
      const csv = await till(['files', 'list', '--all', '-o', 'csv'])
      const [header, ...rows] = csv.stdout
        .trimEnd()
        .split('\r\n')
        .map((l) => l.split(','))
      expect(header!.slice(0, 3)).toEqual(['id', 'name', 'size'])
      expect(rows.find((r) => r[0] === id)![2]).toBe('300000')
      expect(csv.stdout).not.toContain('KiB')
      const table = await till(['files', 'list', '--all', '-o', 'table', '--columns', 'id,size'])
      expect(table.stdout).toMatch(new RegExp(`${id}\\s+293\\.0 KiB`))
    })
  })

  describe('tables fit the terminal', () => {
    const lists = ['products', 'orders', 'subscriptions', 'refunds']

    for (const cols of [80, 120]) {
      it(`${lists.join(', ')} lists fit ${cols} columns, the "more" note wrapped at words`, async () => {
        for (const list of lists) {
          const screen = await tty(`${list} list --limit 5`, cols)
          const lines = screen.split('\n').filter((l) => l !== '')
          for (const line of lines) expect(cells(line), `${list} at ${cols}: ${line}`).toBeLessThanOrEqual(cols)
          // the note after the table, at word boundaries: each of its lines ends in a whole word
          const note = screen.slice(screen.indexOf('Showing '))
          expect(note.replaceAll('\n', ' ').trim()).toMatch(
            /^Showing 5 of \d+ \w+; \d+ more: add --all for every one, --max-items N for the first N, or --page 2 for the next page\.$/,
          )
          for (const line of note.trim().split('\n')) expect(line, list).toMatch(/(^|\S)$/)
        }
      })
    }

    it('at 80 columns ids are shortened and names stay whole; at 120 ids are whole, names keep 16 cells; at 160 nothing is cut', async () => {
      const products = await listAll(emulator.sandbox, '/products/')
      const at80 = await tty('products list --limit 5', 80)
      expect(at80).not.toMatch(UUID)
      expect(at80).toMatch(/^[0-9a-f]{8}… {2}/m)
      const names = products.slice(0, 5).map((p) => p.name as string)
      const at120 = await tty('products list --limit 5', 120)
      for (const p of products.slice(0, 5)) expect(at120).toContain(p.id)
      for (const name of names) expect(at120).toContain(name.length <= 16 ? name : name.slice(0, 15))
      const at160 = await tty('products list --limit 5', 160)
      for (const name of names) expect(at160).toContain(name)
      // refunds: one of its two id columns whole again where there is room
      const refunds = await tty('refunds list --limit 3', 120)
      expect(refunds).toMatch(new RegExp(`^${UUID.source}  `, 'm'))
    })

    it('--columns naming the id keeps it whole on a terminal; piped the ids are whole', async () => {
      const named = await tty('orders list --limit 3 --columns id,status', 80)
      expect(named).toMatch(new RegExp(`^${UUID.source}  `, 'm'))
      const piped = await till(['orders', 'list', '--limit', '3'])
      for (const line of linesOf(piped.stdout)) expect(line.split('\t')[0]).toMatch(new RegExp(`^${UUID.source}$`))
    })

    it('the upload progress bar fits 80 columns', async () => {
      const path = join(box.root, 'bar.bin')
      writeFileSync(path, Buffer.alloc(200_000, 3))
      const screen = await tty(`files upload ${path}`, 80)
      const bars = screen.split(/(?=Uploading \[)|[\r\n]|\x1b[78]/).filter((l) => l.includes('Uploading'))
      expect(bars.length).toBeGreaterThan(0)
      for (const bar of bars) expect(cells(bar), bar).toBeLessThan(80)
      expect(bars.at(-1)).toMatch(/\[█+\] 100% \| 195\.3 KiB of 195\.3 KiB/)
    })

    it('at 80 columns dates take their short form, statuses are whole, text is cut at a word, and columns that do not fit are left out and named', async () => {
      const orders = await listAll(emulator.sandbox, '/orders/')
      const screen = await tty('orders list --limit 100', 80)
      const lines = screen.split('\n').filter((l) => l !== '')
      for (const line of lines) expect(cells(line), line).toBeLessThanOrEqual(80)
      const header = lines[0]!.split(/ {2,}/)
      expect(header.slice(0, 3)).toEqual(['ID', 'CREATED', 'STATUS'])
      // what was left out is said on stderr (on the terminal, after the table), with the way to see it
      const left = /Left out to fit 80 columns: ([A-Z, ]+); a wider terminal or --columns shows them\./.exec(screen.replaceAll('\n', ' '))
      expect(left, screen).not.toBeNull()
      for (const name of left![1]!.split(', ')) expect(header).not.toContain(name)
      expect(header.length + left![1]!.split(', ').length).toBe(8)
      const rows = lines.slice(1, 1 + Math.min(100, orders.length)).filter((l) => /^[0-9a-f]{8}…/.test(l))
      expect(rows.length).toBeGreaterThan(10)
      for (const row of rows) {
        const [, created, status] = row.split(/ {2,}/)
        // `11d ago`, `3h ago`, never `11 days a…`
        expect(created, row).toMatch(/^(\d+(min|h|d|mo|y) ago|just now)$/)
        expect(orders.map((o) => o.status)).toContain(status)
        expect(row, 'no word cut into a space before the ellipsis').not.toMatch(/ …/)
      }
      // a status as long as partially_refunded is whole
      if (orders.some((o) => o.status === 'partially_refunded')) expect(screen).toContain('partially_refunded')
      // at 120 columns nothing is left out; with room to spare dates are words again
      expect(await tty('orders list --limit 5', 120)).not.toContain('Left out')
      const wide = await tty('orders list --limit 5', 200)
      expect(wide).toMatch(/ (\d+ (minute|hour|day|month|year)s? ago|just now) /)
    })

    it('a detail view at 80 columns wraps long text at words under its value, and puts a URL whole on a line of its own', async () => {
      const product = await till([
        'products',
        'create',
        '--name',
        'Wrapped',
        '--price',
        '5',
        '--description',
        'A description long enough that it cannot fit beside its label on a terminal of eighty columns, so it wraps.',
      ])
      expect(product.code, product.stderr).toBe(0)
      const successUrl = `https://example.com/${'thanks/'.repeat(12)}done`
      const checkout = await till(['checkouts', 'create', '--product', product.stdout.trim(), '--success-url', successUrl, '--json'])
      expect(checkout.code, checkout.stderr).toBe(0)
      const id = (JSON.parse(checkout.stdout) as {id: string}).id
      const screen = await tty(`checkouts get ${id} --no-pager`, 80)
      const lines = screen.split('\n')
      // the URL is one line, unbroken (the terminal wraps it, and it copies as one)
      expect(lines).toContain(successUrl)
      // the description: at words, each next line starting under the first
      const first = lines.findIndex((l) => /^\s+Description\s+A description/.test(l))
      expect(first, screen).toBeGreaterThan(0)
      const column = lines[first]!.indexOf('A description')
      const next = lines[first + 1]!
      expect(next.slice(0, column).trim()).toBe('')
      expect(next.slice(column)).toMatch(/^\S/)
      for (const line of lines.slice(first, first + 2)) expect(cells(line), line).toBeLessThanOrEqual(80)
      expect([lines[first], next].join(' ').replace(/\s+/g, ' ')).toContain('fit beside its label on a terminal')
    })

    it('the production footer wraps at words on a narrow terminal', async () => {
      const screen = await tty('orders list --limit 2', 60, {...envVars(emulator.production), TILL_ENV: 'production'})
      // the notes on columns left out and cut ids come after the footer
      const end = ['Left out', 'Ids are cut', 'Showing '].find((note) => screen.includes(note))!
      const warning = screen.slice(screen.indexOf('Warning: PRODUCTION'), screen.indexOf(end))
      expect(warning).toBe(`Warning: PRODUCTION data · profile local ·\n${emulator.production.url}\n`)
      for (const line of screen.slice(screen.indexOf('Showing ')).split('\n')) expect(line.length, line).toBeLessThanOrEqual(60)
    })
  })

  describe('detail views are curated', () => {
    /** A detail view on a 120-column terminal of `rows` rows (stdout and stderr together). */
    const view = (line: string, extra: Record<string, string | undefined> = {}, rows = 200) =>
      runTty(`${TILL} ${line}`, {env: vars({NO_COLOR: '1', PAGER: 'cat', ...extra}), cols: 120, rows}).then((r) => {
        expect(r.code, r.stdout).toBe(0)
        return stripAnsi(r.stdout)
      })
    const SNAKE_LABEL = /^\s*[a-z]+_[a-z_]+\s{2}/m

    it('an order: its summary first with readable labels, items, then the other fields under a heading; no empty rows', async () => {
      const order = (await api(emulator.sandbox, 'GET', '/orders/?limit=1')).body.items[0] as Json
      const text = await view(`orders get ${order.id}`)
      const lines = text.trimEnd().split('\n')
      expect(lines.slice(0, 4).map((l) => l.split(/ {2,}/))).toEqual([
        ['ID', order.id],
        ['Status', order.status],
        ['Customer', `${(order.customer as Json).name} <${(order.customer as Json).email}>`],
        ['Product', (order.product as Json).name],
      ])
      expect(text).toMatch(/^Total\s+[$€][\d,]+\.\d\d$/m)
      expect(text).toMatch(/^Items \(\d+\)$/m)
      expect(text.indexOf('Items (')).toBeLessThan(text.indexOf('\nOther fields\n'))
      expect(text).not.toMatch(SNAKE_LABEL)
      expect(text).not.toMatch(/\s-$/m)
      expect(lines.length).toBeLessThan(60)
    })

    it('an order shows the ids to pivot on, and no amount due once paid', async () => {
      const orders = await listAll(emulator.sandbox, '/orders/')
      const order =
        orders.find((o) => o.paid && o.refunded_amount > 0 && o.refunded_amount < o.total_amount) ?? orders.find((o) => o.paid && o.total_amount > 0)!
      const text = await view(`orders get ${order.id}`)
      expect(text).toMatch(new RegExp(`^Customer id +${order.customer_id}$`, 'm'))
      expect(text).toMatch(new RegExp(`^Product id +${order.product_id}$`, 'm'))
      if (order.subscription_id) expect(text).toMatch(new RegExp(`^Subscription id +${order.subscription_id}$`, 'm'))
      if (order.checkout_id) expect(text).toMatch(new RegExp(`^Checkout id +${order.checkout_id}$`, 'm'))
      expect(text).not.toMatch(/^Due/m)
    })

    it('a subscription is a screenful, not 190 lines; a product lists its live price before the archived one', async () => {
      const sub = (await api(emulator.sandbox, 'GET', '/subscriptions/?limit=1')).body.items[0] as Json
      const text = await view(`subscriptions get ${sub.id}`)
      expect(text.split('\n').length).toBeLessThan(45)
      expect(text).toMatch(/^Amount\s+\S+ (monthly|yearly|every .*)$/m)
      expect(text).toMatch(/^Prices \(\d+\)$/m)
      expect(text).not.toMatch(SNAKE_LABEL)
      // a product whose price was replaced: the archived one comes first from the API, last here
      const created = await till(['products', 'create', '--name', 'Curated view', '--price', '10.00', '--interval', 'month'])
      expect(created.code, created.stderr).toBe(0)
      const id = created.stdout.trim()
      const updated = await till(['products', 'update', id, '--price', '12.00'])
      expect(updated.code, updated.stderr).toBe(0)
      const prices = (await api(emulator.sandbox, 'GET', `/products/${id}`)).body.prices as Json[]
      expect(prices.map((p) => p.is_archived)).toEqual([true, false])
      const product = await view(`products get ${id}`)
      const live = product.indexOf('  $12.00  ')
      const archived = product.indexOf('  $10.00  (archived)')
      expect(live).toBeGreaterThan(0)
      expect(archived).toBeGreaterThan(live)
    })

    it('a customer: its summary with the address on one line', async () => {
      const customer = (await api(emulator.sandbox, 'GET', '/customers/?limit=20')).body.items.find((c: Json) => c.billing_address) as Json
      const text = await view(`customers get ${customer.id}`)
      expect(text).toContain(`Email            ${customer.email}`)
      expect(text).toMatch(new RegExp(`^Billing address  .*${(customer.billing_address as Json).country}$`, 'm'))
      expect(text).not.toMatch(SNAKE_LABEL)
    })

    it('subscriptions update prints the short summary, not every field', async () => {
      const subs = await listAll(emulator.sandbox, '/subscriptions/', 'status=active')
      const text = await view(`subscriptions update ${subs[0]!.id} --remove-discount --yes`)
      expect(text).toMatch(new RegExp(`^ID\\s+${subs[0]!.id}$`, 'm'))
      expect(text).toMatch(/^Status\s+active$/m)
      expect(text).not.toContain('Other fields')
      expect(text.split('\n').length).toBeLessThan(25)
    })

    it('longer than the screen: paged through $PAGER on a terminal; not with --no-pager, TILL_PAGER= or when piped', async () => {
      const order = (await api(emulator.sandbox, 'GET', '/orders/?limit=1')).body.items[0] as Json
      const pager = {PAGER: "sed 's/^/paged: /'"}
      const paged = await view(`orders get ${order.id}`, pager, 10)
      expect(paged).toMatch(new RegExp(`^paged: ID +${order.id}$`, 'm'))
      expect(paged).toContain('paged: Other fields')
      for (const [line, extra] of [
        [`orders get ${order.id} --no-pager`, pager],
        [`orders get ${order.id}`, {...pager, TILL_PAGER: ''}],
      ] as const) {
        const plain = await view(line, extra, 10)
        expect(plain, line).toMatch(new RegExp(`^ID +${order.id}$`, 'm'))
        expect(plain, line).not.toContain('paged:')
      }
      // TILL_PAGER comes before PAGER; a screen tall enough needs no pager
      expect(await view(`orders get ${order.id}`, {...pager, TILL_PAGER: "sed 's/^/till: /'"}, 10)).toMatch(new RegExp(`^till: ID +${order.id}$`, 'm'))
      expect(await view(`orders get ${order.id}`, pager, 200)).not.toContain('paged:')
      const piped = await till(['orders', 'get', order.id as string, '-o', 'table'], pager)
      expect(piped.stdout).toMatch(new RegExp(`^ID +${order.id}$`, 'm'))
      expect(piped.stdout).not.toContain('paged:')
    })

    it('a list is paged with --pager when longer than the screen; not without it, on a tall screen or when piped', async () => {
      const pager = {PAGER: "sed 's/^/paged: /'"}
      const paged = await view('orders list --limit 30 --pager', pager, 10)
      expect(paged).toMatch(/^paged: ID +/m)
      expect(paged.split('\n').filter((l) => l.startsWith('paged: ')).length).toBeGreaterThanOrEqual(31)
      expect(await view('orders list --limit 30', pager, 10)).not.toContain('paged:')
      const tall = await view('orders list --limit 30 --pager', pager, 200)
      expect(tall).toMatch(/^ID +/m)
      expect(tall).not.toContain('paged:')
      const piped = await till(['orders', 'list', '--limit', '30', '--pager', '-o', 'table'], pager)
      expect(piped.stdout).not.toContain('paged:')
    })
  })
})
