// Tables that fit the terminal: ids shortened first, text keeping its room, the footer wrapped.

import {describe, expect, it} from 'vitest'

import {Capture} from '../../../test/helpers/capture.js'

import {resourceColumns} from '../../areas/columns.js'
import {columnsFor as lookup} from './columns.js'
import {createListWriter, type ListWriterOptions, writeList} from './writers.js'

const columnsFor = (resource: string, requested?: string) => lookup(resourceColumns, resource, requested)

const now = Date.parse('2026-03-01T12:00:00Z')
const orders = [
  {id: 'o-1', created_at: '2026-03-01T09:00:00Z', status: 'paid', currency: 'usd', net_amount: 1200, total_amount: 1500, customer: {email: 'ada@example.com'}},
  {
    id: 'o-2',
    created_at: '2026-02-27T12:00:00Z',
    status: 'refunded',
    currency: 'eur',
    net_amount: 0,
    total_amount: -2400,
    customer: {email: 'bob@example.com'},
  },
]

async function listText(items: object[], extra: Partial<ListWriterOptions> = {}): Promise<string> {
  const out = new Capture()
  const writer = createListWriter({format: 'table', out, columns: columnsFor('orders'), tty: false, color: false, now: () => now, ...extra})
  await writeList(items, writer)
  return out.text
}

describe('tables on a terminal', () => {
  it('on a narrow terminal ids are shortened so that text keeps its room; named by --columns they stay whole', async () => {
    const uuid = (n: number) => `${String(n).repeat(8)}-1111-4111-8111-111111111111`
    const long = orders.map((o, i) => ({...o, id: uuid(i + 1), product: {name: 'Pro Plan (yearly, with support)'}}))
    const widths = (text: string) =>
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => line.length)
    const columns = columnsFor('orders', 'id,status,customer,product,total_amount')
    const natural = await listText(long, {tty: true, columns})
    expect(Math.max(...widths(natural))).toBeGreaterThan(80)
    const narrow = await listText(long, {tty: true, width: 80, columns})
    for (const w of widths(narrow)) expect(w).toBeLessThanOrEqual(80)
    expect(narrow).toContain('11111111…  ')
    expect(narrow).not.toContain(uuid(1))
    expect(narrow).toContain('Pro Plan (yearly, with support)')
    // wide enough: ids whole again
    const wide = await listText(long, {tty: true, width: 160, columns})
    expect(wide).toContain(uuid(1))
    // two id columns and room for one: the first is whole again
    const two = await listText(long, {tty: true, width: 70, columns: columnsFor('orders', 'id,customer_id,status')})
    expect(two).toContain(`${uuid(1)}  `)
    for (const w of widths(two)) expect(w).toBeLessThanOrEqual(70)
    // --columns named the ids: whole, text gives way
    const named = await listText(long, {tty: true, width: 60, fullIds: true, columns: columnsFor('orders', 'id,product')})
    expect(named).toContain(uuid(1))
    // cut at a word
    expect(named).toContain('Pro Plan (yearly,…')
  })

  it('squeezed, dates take their short form and the last columns are left out rather than cut to a few letters', async () => {
    const uuid = (n: number) => `${String(n).repeat(8)}-1111-4111-8111-111111111111`
    const many = orders.map((o, i) => ({...o, id: uuid(i + 1), status: 'partially_refunded', product: {name: 'Consulting Hours Package'}}))
    const left: string[][] = []
    const text = await listText(many, {tty: true, width: 60, onLeftOut: (headers) => left.push(headers)})
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60)
    expect(text).toContain('3h ago')
    expect(text).toContain('partially_refunded')
    expect(left).toHaveLength(1)
    expect(text.split('\n')[0]).not.toContain(left[0]![0]!.toUpperCase())
    // named by --columns: nothing is left out
    const named: string[][] = []
    await listText(many, {tty: true, width: 60, fullIds: true, onLeftOut: (headers) => named.push(headers)})
    expect(named).toEqual([])
  })

  it('a status longer than the first batch showed widens its column rather than being cut, and the table still fits', async () => {
    const rows = [
      {...orders[0]!, product: {name: 'Consulting Hours Package (with a long name)'}},
      {...orders[1]!, status: 'partially_refunded', product: {name: 'Consulting Hours Package (with a long name)'}},
    ]
    const text = await listText(rows, {tty: true, width: 80, batchSize: 1})
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(text).toContain('partially_refunded')
  })

  it('wraps the footer at words within the terminal width', async () => {
    const footer = 'Warning: PRODUCTION data · profile production · https://api.polar.sh/v1 and some more words'
    const text = await listText(orders, {tty: true, width: 50, footer})
    expect(text.endsWith('\nWarning: PRODUCTION data · profile production ·\nhttps://api.polar.sh/v1 and some more words\n')).toBe(true)
  })
})
