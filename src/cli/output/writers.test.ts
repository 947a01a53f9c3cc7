import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'

import {describe, expect, it} from 'vitest'

import {Capture} from '../../../test/helpers/capture.js'

import {ColumnError, selectColumns} from './columns.js'
import {orderColumns} from '../../areas/billing/columns.js'
import {resourceColumns} from '../../areas/columns.js'
import {columnsFor as lookup} from './columns.js'

const columnsFor = (resource: string, requested?: string) => lookup(resourceColumns, resource, requested)
import type {Format} from './format.js'
import {gathered, isOutputClosed, sinkFor} from './sink.js'
import {createListWriter, type ListWriterOptions, writeList, writeObject} from './writers.js'

const epipe = () => Object.assign(new Error('write EPIPE'), {code: 'EPIPE'})
const tick = () => new Promise((resolve) => setImmediate(resolve))

const now = Date.parse('2026-03-01T12:00:00Z')
const orders = [
  {
    id: 'o-1',
    created_at: '2026-03-01T09:00:00Z',
    status: 'paid',
    currency: 'usd',
    net_amount: 1200,
    total_amount: 1500,
    is_invoice_generated: true,
    customer: {email: 'ada@example.com'},
    product: {name: 'Pro, "annual"'},
    metadata: {k: 'v'},
  },
  {
    id: 'o-2',
    created_at: '2026-02-27T12:00:00Z',
    status: 'refunded',
    currency: 'eur',
    net_amount: 0,
    total_amount: -2400,
    is_invoice_generated: false,
    customer: {email: 'bob@example.com'},
    product: {name: 'Tip\tjar'},
    metadata: {},
  },
]

function writerFor(format: Format, extra: Partial<ListWriterOptions> = {}) {
  const out = new Capture()
  const writer = createListWriter({format, out, columns: columnsFor('orders'), tty: false, color: false, now: () => now, ...extra})
  return {out, writer}
}

async function listText(format: Format, items: object[], extra: Partial<ListWriterOptions> = {}): Promise<string> {
  const {out, writer} = writerFor(format, extra)
  await writeList(items, writer)
  return out.text
}

describe('list formats', () => {
  it('table: a header, aligned rows, relative dates and money on a terminal, the footer last', async () => {
    const text = await listText('table', orders, {tty: true, footer: 'production profile'})
    expect(text).toBe(
      [
        'ID   CREATED      STATUS    CUSTOMER         PRODUCT           NET    TOTAL  INVOICE',
        'o-1  3 hours ago  paid      ada@example.com  Pro, "annual"  $12.00   $15.00  yes',
        'o-2  2 days ago   refunded  bob@example.com  Tip jar         €0.00  -€24.00  no',
        'production profile',
        '',
      ].join('\n'),
    )
  })

  it('table: full ISO dates when not on a terminal', async () => {
    const text = await listText('table', orders, {columns: columnsFor('orders', 'id,created_at')})
    expect(text).toBe('ID   CREATED\no-1  2026-03-01T09:00:00Z\no-2  2026-02-27T12:00:00Z\n')
  })

  it('tsv: no header, one line per row, tabs in values turned to spaces, raw money and its currency last', async () => {
    expect(await listText('tsv', orders)).toBe(
      [
        'o-1\t2026-03-01T09:00:00Z\tpaid\tada@example.com\tPro, "annual"\t1200\t1500\tyes\tusd',
        'o-2\t2026-02-27T12:00:00Z\trefunded\tbob@example.com\tTip jar\t0\t-2400\tno\teur',
        '',
      ].join('\n'),
    )
    // --header asks for the header line
    expect((await listText('tsv', orders, {header: true})).split('\n')[0]).toBe(
      'id\tcreated_at\tstatus\tcustomer\tproduct\tnet_amount\ttotal_amount\tinvoice\tcurrency',
    )
  })

  it('csv: a header of keys, RFC 4180 quoting, CRLF records', async () => {
    expect(await listText('csv', orders, {columns: columnsFor('orders', 'id,product,total_amount,metadata')})).toBe(
      'id,product,total_amount,metadata,currency\r\n' + 'o-1,"Pro, ""annual""",1500,"{""k"":""v""}",usd\r\n' + 'o-2,Tip\tjar,-2400,{},eur\r\n',
    )
    // a currency column chosen is not added twice; --no-header leaves the header out
    expect(await listText('csv', orders, {columns: columnsFor('orders', 'currency,net_amount'), header: false})).toBe('usd,1200\r\neur,0\r\n')
  })

  it('json: one array of the untouched items', async () => {
    const text = await listText('json', orders)
    expect(text).toBe(`[\n${JSON.stringify(orders[0])},\n${JSON.stringify(orders[1])}\n]\n`)
    expect(JSON.parse(text)).toEqual(orders)
    const pretty = await listText('json', orders, {tty: true})
    expect(pretty).toContain('\n  {\n    "id": "o-1",\n')
    expect(JSON.parse(pretty)).toEqual(orders)
  })

  it('jsonl: one object per line', async () => {
    const text = await listText('jsonl', orders)
    expect(text.split('\n')).toEqual([JSON.stringify(orders[0]), JSON.stringify(orders[1]), ''])
  })

  it('empty lists: [] for json, a header for csv, nothing otherwise', async () => {
    expect(await listText('json', [])).toBe('[]\n')
    expect(await listText('jsonl', [])).toBe('')
    expect(await listText('csv', [])).toBe('id,created_at,status,customer,product,net_amount,total_amount,invoice,currency\r\n')
    expect(await listText('tsv', [])).toBe('')
    expect(await listText('table', [], {footer: 'production profile'})).toBe('')
  })
})

describe('streaming', () => {
  it('writes a JSON array incrementally that parses once ended', async () => {
    const {out, writer} = writerFor('json')
    await writer.write(orders[0]!)
    await writer.flush()
    expect(out.text).toBe(`[\n${JSON.stringify(orders[0])}`)
    await writer.write(orders[1]!)
    await writer.flush()
    expect(() => JSON.parse(out.text)).toThrow()
    await writer.end()
    expect(JSON.parse(out.text)).toEqual(orders)
    expect(writer.count).toBe(2)
  })

  it('shows rows once the producer waits (a page boundary) without an explicit flush', async () => {
    for (const format of ['jsonl', 'tsv', 'table'] as const) {
      const {out, writer} = writerFor(format)
      await writer.write(orders[0]!)
      expect(out.text).toBe('')
      await tick()
      expect(out.text).toContain('o-1')
      await writer.end()
    }
  })

  it('prints a table in batches: header once, widths from the first batch, wider text cut, ids and statuses whole', async () => {
    const columns = selectColumns(orderColumns.columns, orderColumns.defaults, 'id,product,status')
    const {out, writer} = writerFor('table', {columns, batchSize: 2})
    const rows = [
      ...orders,
      {...orders[0], id: 'o-3', product: {name: 'A much longer product name'}, status: 'partially_refunded'},
      {...orders[1], id: 'o-1000'},
    ]
    await writeList(rows, writer)
    expect(out.text).toBe(
      [
        'ID   PRODUCT        STATUS',
        'o-1  Pro, "annual"  paid',
        'o-2  Tip jar        refunded',
        'o-3     A much longe…  partially_refunded',
        'o-1000  Tip jar        refunded',
        '',
      ].join('\n'),
    )
  })

  it('fits a table into the terminal width, keeping ids whole', async () => {
    const columns = columnsFor('orders', 'id,customer,product')
    const text = await listText('table', orders, {columns, width: 30})
    expect(text.split('\n').map((line) => line.length)).toEqual([25, 30, 25, 0])
    expect(text).toContain('o-1  ada@exampl…  Pro, "annua…\n')
  })

  it('colours headers, statuses, dates and the footer only when asked', async () => {
    const coloured = await listText('table', orders, {color: true, tty: true, footer: 'production profile'})
    expect(coloured).toContain('\u001b[1mID\u001b[22m')
    expect(coloured).toContain('\u001b[32mpaid\u001b[39m')
    expect(coloured).toContain('\u001b[31mrefunded\u001b[39m')
    expect(coloured).toContain('\u001b[2m3 hours ago\u001b[22m')
    // the production marker stands out: bold red, not dim
    expect(coloured).toContain('\u001b[1m\u001b[31mproduction profile\u001b[39m\u001b[22m\n')
    expect(await listText('table', orders, {color: false, tty: true})).not.toContain('\u001b')
  })

  it('reports an unknown column of a generic resource before printing anything', async () => {
    const out = new Capture()
    const writer = createListWriter({format: 'csv', out, columns: columnsFor('widgets', 'id,colour'), tty: false, color: false})
    await expect(writer.write({id: 'w1', color: 'red'})).rejects.toThrow(ColumnError)
    expect(out.text).toBe('')
  })

  it('leaves a JSON array open when the source fails mid-way, after showing what arrived', async () => {
    const {out, writer} = writerFor('json')
    async function* failing() {
      yield orders[0]!
      throw new Error('HTTP 500')
    }
    await expect(writeList(failing(), writer)).rejects.toThrow('HTTP 500')
    expect(out.text).toBe(`[\n${JSON.stringify(orders[0])}`)
  })
})

describe('a reader that goes away', () => {
  /** A stream whose reader leaves after `accept` chunks: the next write fails with EPIPE. */
  class Leaving extends Writable {
    writes = 0
    constructor(private readonly accept: number) {
      super()
    }
    override _write(_chunk: Buffer, _encoding: string, done: (error?: Error | null) => void): void {
      this.writes++
      done(this.writes > this.accept ? epipe() : null)
    }
  }

  it('stops writing, resolves, and says the output is closed', async () => {
    const out = new Leaving(1)
    const writer = createListWriter({format: 'jsonl', out, tty: false, color: false})
    for (let i = 0; i < 1000; i++) {
      await writer.write({i})
      if (i % 10 === 9) await writer.flush()
    }
    await expect(writer.end()).resolves.toBeUndefined()
    expect(writer.closed).toBe(true)
    expect(isOutputClosed(out)).toBe(true)
    expect(out.writes).toBe(2)
  })

  it('ends the source early through writeList', async () => {
    const out = new Leaving(0)
    const writer = createListWriter({format: 'table', out, columns: columnsFor('orders'), tty: true, color: false, now: () => now})
    let produced = 0
    let finished = false
    async function* pages() {
      try {
        for (let page = 0; page < 1000; page++) {
          await tick()
          for (const order of orders) {
            produced++
            yield order
          }
        }
      } finally {
        finished = true
      }
    }
    await expect(writeList(pages(), writer)).resolves.toEqual({count: expect.any(Number), closed: true})
    expect(finished).toBe(true)
    expect(produced).toBeLessThan(10)
  })

  it('ignores an EPIPE reported after the list ended', async () => {
    const out = new Capture()
    const writer = createListWriter({format: 'jsonl', out, tty: false, color: false})
    await writeList(orders, writer)
    expect(() => out.emit('error', epipe())).not.toThrow()
    expect(writer.closed).toBe(true)
  })

  it('still fails on other stream errors', async () => {
    const out = new Writable({write: (_chunk, _encoding, done) => done(Object.assign(new Error('disk full'), {code: 'ENOSPC'}))})
    const writer = createListWriter({format: 'jsonl', out, tty: false, color: false})
    await writer.write({a: 1})
    await expect(writer.flush()).rejects.toThrow('disk full')
    await expect(writer.end()).rejects.toThrow('disk full')
  })

  it('exits 0 and quietly in a real `| head -1`', async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url))
    const dir = mkdtempSync(join(tmpdir(), 'till-output-'))
    const script = join(dir, 'list.mts')
    writeFileSync(
      script,
      [
        `import {createListWriter, writeList} from ${JSON.stringify(join(root, 'src/cli/output/writers.ts'))}`,
        `async function* items() { for (let i = 0; i < 1_000_000; i++) { if (i % 100 === 0) await new Promise((r) => setTimeout(r, 0)); yield {i} } }`,
        `const writer = createListWriter({format: 'jsonl', out: process.stdout, tty: false, color: false})`,
        `const result = await writeList(items(), writer)`,
        `process.stderr.write(result.closed ? '' : 'not closed')`,
      ].join('\n'),
    )
    const child = spawn(process.execPath, ['--import', 'tsx', script], {cwd: root, stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    const first = await Promise.race([
      new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))),
      closed.then(() => ''),
    ])
    child.stdout.destroy()
    const code = await closed
    rmSync(dir, {recursive: true, force: true})
    expect(first.split('\n')[0]).toBe('{"i":0}')
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})

describe('backpressure', () => {
  /** A stream that takes a while per chunk and records the most it ever held queued. */
  class Slow extends Writable {
    maxQueued = 0
    received = ''
    constructor() {
      super({highWaterMark: 1024})
    }
    override _write(chunk: Buffer, _encoding: string, done: (error?: Error | null) => void): void {
      this.maxQueued = Math.max(this.maxQueued, this.writableLength)
      this.received += chunk.toString()
      setImmediate(done)
    }
  }

  it('waits for the stream to drain, so buffered output stays bounded', async () => {
    for (const format of ['jsonl', 'table'] as const) {
      const out = new Slow()
      let drains = 0
      out.on('drain', () => drains++)
      const writer = createListWriter({format, out, columns: columnsFor('widgets', 'id,note'), tty: false, color: false})
      // about 1 MB in either format, in rows long enough that a few thousand fill it
      const total = 4_000
      for (let i = 0; i < total; i++) await writer.write({id: i, note: 'x'.repeat(240)})
      await writer.end()
      expect(drains).toBeGreaterThan(5)
      // at most the stream's own buffer plus one chunk from the writer (64 KiB of text or a 100-row batch)
      expect(out.maxQueued).toBeLessThan(1024 + 64 * 1024 + 100)
      const lines = out.received.trimEnd().split('\n')
      expect(lines).toHaveLength(format === 'table' ? total + 1 : total)
      expect(lines.at(-1)).toContain(String(total - 1))
    }
  })

  it('writes pieces gathered into chunks of 64 KiB, each once the stream can take it, the text whole', async () => {
    const out = new Slow()
    const pieces = Array.from({length: 3000}, (_, i) => `piece ${i} ${'y'.repeat(200)}\n`)
    expect([...gathered(pieces)].every((chunk, i, all) => chunk.length >= 64 * 1024 || i === all.length - 1)).toBe(true)
    expect([...gathered(['', ''])]).toEqual([])
    await sinkFor(out).writeAll(pieces)
    expect(out.received).toBe(pieces.join(''))
    expect(out.maxQueued).toBeLessThan(1024 + 2 * 64 * 1024)
  })
})

describe('writeObject', () => {
  const order = orders[0]!
  async function objectText(format: Format, extra: {tty?: boolean; columns?: ReturnType<typeof columnsFor>; header?: boolean; detail?: boolean} = {}) {
    const out = new Capture()
    await writeObject(order, {
      format,
      out,
      tty: extra.tty ?? false,
      color: false,
      now: () => now,
      columns: extra.columns,
      header: extra.header,
      detail: extra.detail,
    })
    return out.text
  }

  it('table: labels and values of the selected or all top-level fields', async () => {
    expect(await objectText('table', {tty: true, columns: columnsFor('orders', 'id,created_at,total_amount,customer')})).toBe(
      ['ID        o-1', 'Created   2026-03-01T09:00:00Z (3 hours ago)', 'Total     $15.00', 'Customer  ada@example.com', ''].join('\n'),
    )
    const all = await objectText('table')
    expect(all.split('\n')[0]).toBe('id                    o-1')
    expect(all).toContain('\nnet_amount            $12.00\n')
    expect(all).toContain('\ncustomer              {"email":"ada@example.com"}\n')
  })

  it('json pretty, jsonl on one line, csv and tsv a row (with a header as for lists: csv yes, tsv when asked)', async () => {
    expect(await objectText('json')).toBe(`${JSON.stringify(order, null, 2)}\n`)
    expect(await objectText('jsonl')).toBe(`${JSON.stringify(order)}\n`)
    const columns = columnsFor('orders', 'id,product,net_amount')
    expect(await objectText('csv', {columns})).toBe('id,product,net_amount,currency\r\no-1,"Pro, ""annual""",1200,usd\r\n')
    expect(await objectText('tsv', {columns})).toBe('o-1\tPro, "annual"\t1200\tusd\n')
    expect(await objectText('tsv', {columns, header: true})).toBe('id\tproduct\tnet_amount\tcurrency\no-1\tPro, "annual"\t1200\tusd\n')
  })

  it('table with detail: sections for nested objects, money formatted, no JSON', async () => {
    const text = await objectText('table', {tty: true, detail: true})
    expect(text).toMatch(/\nNet amount +\$12\.00\n/)
    expect(text).toContain('\nCustomer\n  Email  ada@example.com\n')
    expect(text).not.toContain('{"')
  })
})
