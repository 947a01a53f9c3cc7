// What a value holds never acts on a terminal: csv, tsv and JSON written to one are escaped (JSON with \u
// escapes, the same JSON); piped, they keep the bytes. Tables and detail views: writers.test.ts, detail.test.ts.

import {describe, expect, it} from 'vitest'

import {Capture} from '../../../test/helpers/capture.js'

import {resourceColumns} from '../../areas/columns.js'
import {columnsFor as lookup} from './columns.js'
import type {Format} from './format.js'
import {createListWriter, type ListWriterOptions, writeList, writeObject} from './writers.js'

const columnsFor = (resource: string, requested?: string) => lookup(resourceColumns, resource, requested)

const now = Date.parse('2026-03-01T12:00:00Z')
const order = {id: 'o-1', created_at: '2026-03-01T09:00:00Z', status: 'paid', currency: 'usd', net_amount: 1200, total_amount: 1500, product: {name: 'Pro'}}

async function listText(format: Format, items: object[], extra: Partial<ListWriterOptions> = {}): Promise<string> {
  const out = new Capture()
  const writer = createListWriter({format, out, columns: columnsFor('orders'), tty: false, color: false, now: () => now, ...extra})
  await writeList(items, writer)
  return out.text
}

describe('csv, tsv and json on a terminal', () => {
  it('on a terminal, csv, tsv and json show what would act on it escaped; piped, csv keeps the bytes', async () => {
    const name = 'Evil \u001b]52;c;aGk=\u0007 \u001b[2J \u202egnp.exe\u202c X\rY \u009b1m'
    const hostile = [{...order, product: {name}}]
    const columns = columnsFor('orders', 'id,product')
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/
    const csv = await listText('csv', hostile, {columns, tty: true})
    expect(csv).toBe('id,product\r\no-1,Evil \\x1b]52;c;aGk=\\x07 \\x1b[2J \\u202egnp.exe\\u202c X\\x0dY \\x9b1m\r\n')
    const tsv = await listText('tsv', hostile, {columns, tty: true})
    expect(tsv).toBe('o-1\tEvil \\x1b]52;c;aGk=\\x07 \\x1b[2J \\u202egnp.exe\\u202c X Y \\x9b1m\n')
    for (const format of ['json', 'jsonl'] as const) {
      const text = await listText(format, hostile, {tty: true})
      expect(text.replaceAll('\r\n', ''), format).not.toMatch(raw)
      expect(format === 'json' ? JSON.parse(text) : JSON.parse(text), format).toEqual(format === 'json' ? hostile : hostile[0])
    }
    // piped: the bytes, as a script reads them (tsv's own separators and line breaks still spaces)
    expect(await listText('csv', hostile, {columns})).toBe(`id,product\r\no-1,"${name}"\r\n`)
    expect(JSON.parse(await listText('json', hostile))[0].product.name).toBe(name)
    expect(await listText('json', hostile)).toContain('\u202e')
  })

  it('csv, tsv and json of one resource on a terminal are escaped too', async () => {
    const hostile = {...order, product: {name: 'a\u202eb\u001b[2Jc'}}
    const text = async (format: Format) => {
      const out = new Capture()
      await writeObject(hostile, {format, out, tty: true, color: false, now: () => now, columns: columnsFor('orders', 'id,product')})
      return out.text
    }
    expect(await text('csv')).toBe('id,product\r\no-1,a\\u202eb\\x1b[2Jc\r\n')
    expect(await text('tsv')).toBe('o-1\ta\\u202eb\\x1b[2Jc\n')
    expect(await text('json')).toContain('"name": "a\\u202eb\\u001b[2Jc"')
    expect(JSON.parse(await text('json')).product.name).toBe(hostile.product.name)
  })
})
