// `till orders|products list|get` and `till api` as processes against one emulator seeded with 1,050
// orders: every output format, a full `--all` export compared with the API's own pages, `| head -1`,
// terminal versus pipe, error exit codes and messages, and tokens kept out of every output.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {api, listAll, startEmulator, unknownId, type Emulator, type Json} from '../helpers/emulator.js'
import {
  asShown,
  envVars,
  expectNoToken,
  ISO_RE,
  jsonlIds,
  linesOf,
  RELATIVE_RE,
  runShell,
  runTty,
  sandbox,
  sh,
  stripAnsi,
  TILL,
  type CliResult,
  type Sandbox,
} from '../helpers/cli.js'
import {runInProcess} from '../helpers/in-process.js'
import {allowRefusals} from '../helpers/contract.js'

const ORDERS = 1050
const ORDER_HEADER = ['id', 'created_at', 'status', 'customer', 'product', 'net_amount', 'total_amount', 'invoice']
/** csv and tsv carry money raw, with the currency as a column of its own (added last). */
const ORDER_MACHINE_HEADER = [...ORDER_HEADER, 'currency']

describe('till list/get output against the emulator', () => {
  let emulator: Emulator
  /** Every order as the API pages list it (newest first). */
  let orders: Json[]
  let orderIds: string[]
  let box: Sandbox
  /** Every output of every run in this file, checked for the token at the end. */
  const outputs: string[] = []

  const till = async (args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> => {
    const result = await runInProcess(args, {env: box.env({...envVars(emulator.production), ...extra})})
    outputs.push(result.stdout, result.stderr)
    return result
  }
  const tty = async (command: string, extra: Record<string, string | undefined> = {}): Promise<CliResult> => {
    const result = await runTty(`${TILL} ${command}`, {env: box.env({...envVars(emulator.production), ...extra})})
    outputs.push(result.stdout, result.stderr)
    return result
  }

  beforeAll(async () => {
    emulator = await startEmulator({orders: ORDERS})
    orders = await listAll(emulator.production, '/orders/')
    orderIds = orders.map((o) => o.id)
  })
  afterAll(async () => {
    await emulator?.stop()
  })
  beforeEach(() => {
    box = sandbox()
  })
  afterEach(() => box.cleanup())

  it('the seeded list has over a thousand distinct orders (the premise of the export tests)', () => {
    expect(orderIds).toHaveLength(ORDERS)
    expect(new Set(orderIds).size).toBe(ORDERS)
  })

  describe('--all export of 1,050 orders', () => {
    it('-o jsonl streams every order once, in the API order, as full objects', async () => {
      const r = await till(['orders', 'list', '--all', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toBe('')
      expect(r.stdout.endsWith('\n')).toBe(true)
      const lines = r.stdout.slice(0, -1).split('\n')
      expect(lines).toHaveLength(ORDERS)
      const items = lines.map((l) => JSON.parse(l))
      expect(items.map((o) => o.id)).toEqual(orderIds)
      // Values untouched: the first and last orders are exactly what the API returned.
      expect(items[0]).toEqual(asShown('orders', orders[0]))
      expect(items.at(-1)).toEqual(asShown('orders', orders.at(-1)))
    })

    it('-o json prints one JSON array of every order in order', async () => {
      const r = await till(['orders', 'list', '--all', '-o', 'json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toBe('')
      const items = JSON.parse(r.stdout) as Json[]
      expect(items.map((o) => o.id)).toEqual(orderIds)
    })

    it('--json is the same JSON array', async () => {
      const r = await till(['orders', 'list', '--all', '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect((JSON.parse(r.stdout) as Json[]).map((o) => o.id)).toEqual(orderIds)
    })

    it('-o csv has the header once, CRLF records, and every order in order', async () => {
      const r = await till(['orders', 'list', '--all', '-o', 'csv'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toBe('')
      expect(r.stdout.endsWith('\r\n')).toBe(true)
      const records = r.stdout.slice(0, -2).split('\r\n')
      expect(records[0]).toBe(ORDER_MACHINE_HEADER.join(','))
      expect(records).toHaveLength(ORDERS + 1)
      expect(records.slice(1).map((l) => l.split(',')[0])).toEqual(orderIds)
    })

    it('piped without -o: tab-separated values, no header, ISO dates, every order in order', async () => {
      const r = await till(['orders', 'list', '--all'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toBe('')
      const rows = linesOf(r.stdout).map((l) => l.split('\t'))
      expect(rows).toHaveLength(ORDERS)
      expect(rows.map((cells) => cells[0])).toEqual(orderIds)
      for (const cells of rows.slice(0, 50)) expect(cells).toHaveLength(ORDER_MACHINE_HEADER.length)
      rows.slice(0, 50).forEach((cells, i) => {
        expect(cells[1]).toBe(orders[i].created_at)
        expect(cells[2]).toBe(orders[i].status)
        expect(cells[3]).toBe(orders[i].customer.email)
        expect(cells[5]).toBe(String(orders[i].net_amount))
        expect(cells[8]).toBe(orders[i].currency)
      })
    })
  })

  describe('till api --paginate', () => {
    it('-o jsonl streams every order of every page, in order', async () => {
      const r = await till(['api', 'GET', '/orders/', '--paginate', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toBe('')
      expect(jsonlIds(r.stdout)).toEqual(orderIds)
    })

    it('prints one JSON array by default, with query fields from -f', async () => {
      const r = await till(['api', 'GET', '/orders/', '--paginate', '-f', 'status=refunded'])
      expect(r.code, r.stderr).toBe(0)
      const expected = await listAll(emulator.production, '/orders/', 'status=refunded')
      expect((JSON.parse(r.stdout) as Json[]).map((o) => o.id)).toEqual(expected.map((o) => o.id))
    })
  })

  describe('paging and column flags', () => {
    it('--page and --limit read one page', async () => {
      const r = await till(['orders', 'list', '--page', '3', '--limit', '7', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(jsonlIds(r.stdout)).toEqual(orderIds.slice(14, 21))
    })

    it('without flags: the first 10 orders', async () => {
      const r = await till(['orders', 'list', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(jsonlIds(r.stdout)).toEqual(orderIds.slice(0, 10))
    })

    it('--all --max-items stops after that many items', async () => {
      const r = await till(['orders', 'list', '--all', '--max-items', '250', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      expect(jsonlIds(r.stdout)).toEqual(orderIds.slice(0, 250))
    })

    it('repeated --status filters like the API does', async () => {
      const statuses = ['refunded', 'partially_refunded']
      const expected = await listAll(emulator.production, '/orders/', statuses.map((s) => `status=${s}`).join('&'))
      expect(expected.length).toBeGreaterThan(0)
      const r = await till(['orders', 'list', '--all', '--status', 'refunded', '--status', 'partially_refunded', '-o', 'jsonl'])
      expect(r.code, r.stderr).toBe(0)
      const items = linesOf(r.stdout).map((l) => JSON.parse(l))
      expect(items.map((o) => o.id)).toEqual(expected.map((o) => o.id))
      for (const o of items) expect(statuses).toContain(o.status)
    })

    it('--columns picks and orders columns in csv', async () => {
      const r = await till(['orders', 'list', '--limit', '5', '-o', 'csv', '--columns', 'status,id,net_amount,invoice_number'])
      expect(r.code, r.stderr).toBe(0)
      const records = r.stdout.split('\r\n').filter((l) => l !== '')
      expect(records).toEqual([
        'status,id,net_amount,invoice_number,currency',
        ...orders.slice(0, 5).map((o) => [o.status, o.id, o.net_amount, o.invoice_number, o.currency].join(',')),
      ])
    })

    it('--columns with an unknown name exits 2 and lists the valid columns', async () => {
      const r = await till(['orders', 'list', '--columns', 'id,bogus'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('"bogus"')
      expect(r.stderr).toMatch(/Valid columns: .*\bid\b/)
      for (const name of ORDER_HEADER) expect(r.stderr).toContain(name)
    })

    it('products list: 10 products as tsv with their names and prices', async () => {
      const products = (await api(emulator.production, 'GET', '/products/?limit=10')).body.items as Json[]
      const r = await till(['products', 'list'])
      expect(r.code, r.stderr).toBe(0)
      const rows = linesOf(r.stdout).map((l) => l.split('\t'))
      expect(rows.map((c) => c[0])).toEqual(products.map((p) => p.id))
      expect(rows.map((c) => c[1])).toEqual(products.map((p) => p.name))
      // price is price_type and price_amount when piped (raw), so created_at is the 7th field
      expect(rows.map((c) => c[6])).toEqual(products.map((p) => p.created_at))
    })
  })

  describe('get', () => {
    it('orders get -o json prints the API object', async () => {
      const order = orders[3]
      const r = await till(['orders', 'get', order.id, '-o', 'json'])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toEqual(asShown('orders', (await api(emulator.production, 'GET', `/orders/${order.id}`)).body))
    })

    it('products get --json prints the API object', async () => {
      const product = (await api(emulator.production, 'GET', '/products/?limit=1')).body.items[0]
      const r = await till(['products', 'get', product.id, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toEqual(asShown('products', product))
    })

    it('orders get piped: one tsv row as in the list, the header line with --header only', async () => {
      const order = orders[0]
      const r = await till(['orders', 'get', order.id, '--columns', 'id,status,created_at'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe(`${order.id}\t${order.status}\t${order.created_at}\n`)
      const headed = await till(['orders', 'get', order.id, '--columns', 'id,status,created_at', '--header'])
      expect(headed.stdout).toBe(`id\tstatus\tcreated_at\n${order.id}\t${order.status}\t${order.created_at}\n`)
    })
  })

  describe('errors and exit codes', () => {
    it('an unknown order exits 3 with "not found" on stderr only', async () => {
      const r = await till(['orders', 'get', unknownId()])
      expect(r.code).toBe(3)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/^Error: not found/)
    })

    it('an unknown product exits 3', async () => {
      const r = await till(['products', 'get', unknownId()])
      expect(r.code).toBe(3)
      expect(r.stderr).toMatch(/not found/)
    })

    it('api GET of an unknown path exits 3', async () => {
      const r = await till(['api', 'GET', `/customers/${unknownId()}`])
      expect(r.code).toBe(3)
      expect(r.stdout).toBe('')
    })

    it('a 422 from the API exits 2 and shows each loc and msg', async () => {
      allowRefusals()
      const r = await till(['api', 'POST', '/customers/', '-f', 'email=not-an-email', '-F', 'metadata={"a":[1]}'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('the API rejected the input')
      expect(r.stderr).toMatch(/^ {2}body\.email: .*valid email/m)
      expect(r.stderr).toMatch(/^ {2}body\.metadata\.a: \S/m)
    })

    it("a malformed id is refused before any request with the API's message; the API's own 422 at path.id exits 2", async () => {
      allowRefusals()
      const r = await till(['orders', 'get', 'not-a-uuid'])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^Error: order id "not-a-uuid": Input should be a valid UUID/)
      const raw = await till(['api', 'GET', '/orders/not-a-uuid'])
      expect(raw.code).toBe(2)
      expect(raw.stderr).toMatch(/^ {2}path\.id: .*UUID/m)
    })

    it('an invalid token exits 4 with a hint naming the profile', async () => {
      const r = await till(['orders', 'list'], {TILL_TOKEN: `polar_oat_${'x'.repeat(43)}`})
      expect(r.code).toBe(4)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/not authenticated/)
      expect(r.stderr).toMatch(/^Hint: .*profile "local"/m)
    })

    it('--json with another -o is a usage error (exit 2)', async () => {
      const r = await till(['orders', 'list', '--json', '-o', 'csv'])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
    })
  })

  it('`| head -1` ends quietly: exit 0, empty stderr, one line', async () => {
    const codeFile = join(box.root, 'till-exit-code')
    const env = box.env(envVars(emulator.production))
    const r = await runShell(`${TILL} orders list --all -o jsonl | head -1`, {env})
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    expect(linesOf(r.stdout)).toHaveLength(1)
    expect(JSON.parse(r.stdout).id).toBe(orderIds[0])
    // till's own exit status, not only head's.
    const own = await runShell(`{ ${TILL} orders list --all -o jsonl; echo $? > ${sh(codeFile)}; } | head -1`, {env})
    expect(own.stderr).toBe('')
    expect(linesOf(own.stdout)).toHaveLength(1)
    expect(readFileSync(codeFile, 'utf8').trim()).toBe('0')
  })

  describe('on a terminal versus piped', () => {
    it('a table with a header and relative dates on a TTY', async () => {
      const r = await tty('orders list --limit 5')
      expect(r.code, r.stdout).toBe(0)
      const [note, ...lines] = linesOf(stripAnsi(r.stdout)).reverse()
      lines.reverse()
      // the table, then (stderr) how many more there are and how to get them
      expect(note).toBe(
        `Showing 5 of ${orders.length} orders; ${orders.length - 5} more: add --all for every one, --max-items N for the first N, or --page 2 for the next page.`,
      )
      expect(lines).toHaveLength(6)
      expect(lines[0]!.split(/\s{2,}/)).toEqual(['ID', 'CREATED', 'STATUS', 'CUSTOMER', 'PRODUCT', 'NET', 'TOTAL', 'INVOICE'])
      lines.slice(1).forEach((line, i) => {
        expect(line.startsWith(`${orders[i].id}  `)).toBe(true)
        expect(line).toMatch(RELATIVE_RE)
        expect(line).not.toMatch(ISO_RE)
        expect(line).toContain(orders[i].customer.email)
      })
      expect(r.stdout).not.toContain('PRODUCTION')
    })

    it('a TTY table of the whole --all export: the header once, then every order in order', async () => {
      const r = await tty('orders list --all --columns id,status')
      expect(r.code).toBe(0)
      const lines = linesOf(stripAnsi(r.stdout))
      expect(lines[0]!.split(/\s+/)).toEqual(['ID', 'STATUS'])
      expect(lines.filter((l) => l.startsWith('ID '))).toHaveLength(1)
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(orderIds)
      expect(lines.slice(1).map((l) => l.split(/\s+/)[1])).toEqual(orders.map((o) => o.status))
    })

    it('the same list piped is tsv with ISO dates and no header', async () => {
      const r = await till(['orders', 'list', '--limit', '5'])
      expect(r.code, r.stderr).toBe(0)
      const lines = linesOf(r.stdout)
      expect(lines).toHaveLength(5)
      lines.forEach((line, i) => {
        expect(line.split('\t').slice(0, 3)).toEqual([orders[i].id, orders[i].created_at, orders[i].status])
        expect(line).not.toMatch(RELATIVE_RE)
      })
      expect(r.stdout).not.toMatch(/\bID\b|\x1b\[/)
    })

    it('a TTY table of a production profile ends with the production marker', async () => {
      const r = await tty('orders list --limit 3', {TILL_ENV: 'production'})
      expect(r.code, r.stdout).toBe(0)
      const lines = linesOf(stripAnsi(r.stdout))
      expect(lines).toHaveLength(6)
      // readable without colour: a word that warns
      expect(lines.at(-2)).toBe(`Warning: PRODUCTION data · profile local · ${emulator.production.url}`)
      expect(lines.at(-1)).toMatch(/^Showing 3 of \d+ orders; /)
    })

    it('piped output of a production profile has no marker', async () => {
      const r = await till(['orders', 'list', '--limit', '3'], {TILL_ENV: 'production'})
      expect(r.code, r.stderr).toBe(0)
      expect(linesOf(r.stdout)).toHaveLength(3)
      expect(r.stdout + r.stderr).not.toContain('PRODUCTION')
    })

    it('-o jsonl on a TTY is still JSON lines', async () => {
      const r = await tty('orders list --limit 2 -o jsonl')
      expect(r.code, r.stdout).toBe(0)
      expect(jsonlIds(r.stdout)).toEqual(orderIds.slice(0, 2))
    })

    it('products get on a TTY is a label/value table with full and relative dates', async () => {
      const product = (await api(emulator.production, 'GET', '/products/?limit=1')).body.items[0]
      const r = await tty(`products get ${sh(product.id)}`)
      expect(r.code, r.stdout).toBe(0)
      const text = stripAnsi(r.stdout)
      expect(text).toMatch(new RegExp(`^ID\\s+${product.id}$`, 'm'))
      expect(text).toMatch(new RegExp(`^Name\\s+${product.name}$`, 'm'))
      expect(text).toContain(`${product.created_at} (`)
      expect(text).toMatch(RELATIVE_RE)
    })
  })

  describe('the token never reaches the output', () => {
    it('with --debug, on success and on each kind of error', async () => {
      allowRefusals()
      const token = emulator.production.token
      const runs = [
        await till(['orders', 'list', '--all', '--max-items', '150', '-o', 'jsonl', '--debug']),
        await till(['orders', 'get', orders[0].id, '--debug']),
        await till(['orders', 'get', unknownId(), '--debug']),
        await till(['api', 'GET', '/organizations/', '--debug']),
        await till(['api', 'POST', '/customers/', '-f', 'email=nope', '--debug']),
        await till(['orders', 'list', '--columns', 'nope', '--debug']),
        await runTty(`${TILL} orders list --limit 3 --debug`, {env: box.env(envVars(emulator.production))}),
      ]
      expect(runs.map((r) => r.code)).toEqual([0, 0, 3, 0, 2, 2, 0])
      // The traces are there (so the check below looked at them) and show the requests.
      expect(runs[0]!.stderr).toMatch(/^\[debug\] → GET http:\/\/127\.0\.0\.1:\d+\/v1\/orders\/\?page=2&limit=100/m)
      expect(runs[6]!.stdout).toContain('[debug]')
      for (const r of runs) {
        expectNoToken(r.stdout, token, 'stdout')
        expectNoToken(r.stderr, token, 'stderr')
      }
    })

    it('with --debug and an invalid token, that token is not shown either', async () => {
      const bad = `polar_oat_${'Q7'.repeat(21)}z`
      const r = await till(['orders', 'list', '--debug'], {TILL_TOKEN: bad})
      expect(r.code).toBe(4)
      expect(r.stderr).toContain('[debug]')
      expectNoToken(r.stdout + r.stderr, bad)
    })

    it('in any output of this file', () => {
      expect(outputs.length).toBeGreaterThan(40)
      for (const text of outputs) expectNoToken(text, emulator.production.token)
    })
  })
})
