import {describe, expect, it} from 'vitest'

import {type CellStyle, cellText, ColumnError, columnsFor as lookup, fieldColumn, genericColumns, type Row, selectColumns} from '../cli/output/columns.js'
import {orderColumns} from './billing/columns.js'
import {productColumns, productPrice, productType} from './catalog/columns.js'
import {resourceColumns} from './columns.js'

const columnsFor = (resource: string, requested?: string) => lookup(resourceColumns, resource, requested)

const now = Date.parse('2026-03-01T12:00:00Z')
const human: CellStyle = {dates: 'relative', grouping: true, now}
const machine: CellStyle = {dates: 'iso', grouping: false, now}

const keys = (columns: Array<{key: string}>) => columns.map((c) => c.key)

describe('selectColumns', () => {
  const {columns, defaults, fields} = productColumns

  it('gives the defaults without --columns, and the requested ones in order', () => {
    expect(keys(selectColumns(columns, defaults))).toEqual(['id', 'name', 'type', 'price', 'archived', 'created_at'])
    expect(keys(selectColumns(columns, defaults, ' price, id ,,name'))).toEqual(['price', 'id', 'name'])
  })

  it('accepts any top-level field of the resource', () => {
    const selected = selectColumns(columns, defaults, 'id,metadata,is_archived', fields)
    expect(keys(selected)).toEqual(['id', 'metadata', 'is_archived'])
    expect(cellText(selected[1]!, {metadata: {tier: 'gold'}}, machine)).toBe('{"tier":"gold"}')
  })

  it('names unknown columns and lists the valid ones', () => {
    let error: unknown
    try {
      selectColumns(columns, defaults, 'id,nmae,colour', fields)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ColumnError)
    const {message, unknown, valid, exitCode} = error as ColumnError
    expect(unknown).toEqual(['nmae', 'colour'])
    expect(exitCode).toBe(2)
    expect(message).toMatch(
      /^Unknown columns "nmae", "colour"\. Did you mean "name"\? Valid columns: id, name, type, price, archived, visibility, created_at, /,
    )
    expect(() => selectColumns(columns, defaults, 'idd', fields)).toThrow(/^Unknown column "idd"\. Did you mean "id"\? Valid columns: id, /)
    expect(valid).toContain('metadata')
    expect(() => selectColumns(columns, defaults, 'nope', fields)).toThrow(/^Unknown column "nope"\./)
    expect(() => selectColumns(columns, defaults, ' , ', fields)).toThrow(/^No columns given\. Valid columns: id, /)
  })

  it('accepts unknown names as fields when there is nothing to check them against', () => {
    expect(keys(selectColumns(columns, defaults, 'id,anything'))).toEqual(['id', 'anything'])
  })
})

describe('field columns', () => {
  it('guess ids, money and dates from the name and value', () => {
    const row: Row = {id: 'p1', customer_id: 'c1', tax_amount: 250, currency: 'eur', paid_at: '2026-03-01T09:00:00Z', note: null, paid: true}
    expect(fieldColumn('customer_id').kind).toBe('id')
    expect(cellText(fieldColumn('tax_amount'), row, human)).toBe('€2.50')
    expect(cellText(fieldColumn('tax_amount'), {tax_amount: 250}, human)).toBe('250')
    expect(cellText(fieldColumn('paid_at'), row, human)).toBe('3 hours ago')
    expect(cellText(fieldColumn('paid_at'), row, machine)).toBe('2026-03-01T09:00:00Z')
    expect(cellText(fieldColumn('paid_at'), row, {...human, dates: 'both'})).toBe('2026-03-01T09:00:00Z (3 hours ago)')
    expect(cellText(fieldColumn('note'), row, human)).toBe('')
    expect(cellText(fieldColumn('paid'), row, human)).toBe('yes')
    expect(cellText(fieldColumn('missing'), row, human)).toBe('')
  })
})

describe('products', () => {
  const price = (p: Row) => ({prices: [p]})

  it('describe their type with the interval', () => {
    expect(productType({recurring_interval: null})).toBe('one-time')
    expect(productType({recurring_interval: 'month', recurring_interval_count: 1})).toBe('recurring (monthly)')
    expect(productType({recurring_interval: 'day', recurring_interval_count: null})).toBe('recurring (daily)')
    expect(productType({recurring_interval: 'week', recurring_interval_count: 2})).toBe('recurring (every 2 weeks)')
  })

  it('show the first non-archived price', () => {
    expect(productPrice(price({amount_type: 'fixed', price_amount: 1200, price_currency: 'usd', is_archived: false}))).toBe('$12.00')
    expect(productPrice(price({amount_type: 'fixed', price_amount: 0, price_currency: 'usd'}))).toBe('free')
    expect(productPrice(price({amount_type: 'free', price_currency: 'usd'}))).toBe('free')
    expect(productPrice(price({amount_type: 'custom', minimum_amount: 100, price_currency: 'usd'}))).toBe('pay what you want (min $1.00)')
    expect(productPrice(price({amount_type: 'custom', minimum_amount: 0, price_currency: 'eur'}))).toBe('pay what you want')
    expect(productPrice(price({amount_type: 'metered_unit', unit_amount: '0.5', price_currency: 'usd'}))).toBe('$0.005/unit')
    expect(
      productPrice({
        prices: [
          {amount_type: 'fixed', price_amount: 900, price_currency: 'usd', is_archived: true},
          {amount_type: 'fixed', price_amount: 2400, price_currency: 'sek', is_archived: false},
        ],
      }),
    ).toBe('24.00 SEK')
    expect(productPrice({prices: []})).toBe('')
  })
})

describe('orders', () => {
  const order: Row = {
    id: 'o1',
    created_at: '2026-02-28T12:00:00Z',
    status: 'paid',
    currency: 'usd',
    net_amount: 123456,
    total_amount: -500,
    is_invoice_generated: false,
    customer: {email: 'ada@example.com'},
    product: {name: 'Pro'},
  }

  it('show the customer email, product name, money and invoice state', () => {
    const columns = selectColumns(orderColumns.columns, orderColumns.defaults)
    expect(columns.map((c) => cellText(c, order, human))).toEqual(['o1', '1 day ago', 'paid', 'ada@example.com', 'Pro', '$1,234.56', '-$5.00', 'no'])
    expect(columns.map((c) => cellText(c, {...order, customer: null, customer_id: 'c9', product: null}, machine))).toEqual([
      'o1',
      '2026-02-28T12:00:00Z',
      'paid',
      'c9',
      '',
      '$1234.56',
      '-$5.00',
      'no',
    ])
  })
})

describe('columnsFor', () => {
  it('checks known resources at once', () => {
    expect(keys(columnsFor('orders', 'id,status') as Array<{key: string}>)).toEqual(['id', 'status'])
    expect(() => columnsFor('orders', 'id,statu')).toThrow(ColumnError)
  })

  it('chooses a generic resource’s columns from its first row', () => {
    const spec = columnsFor('widgets')
    expect(typeof spec).toBe('function')
    const first = {
      id: 'c1',
      created_at: 'x',
      modified_at: null,
      email: 'a@b.c',
      name: 'Ada',
      metadata: {},
      organization_id: 'o',
      deleted: false,
      n: 3,
      extra: 'e',
    }
    const resolve = spec as (first: Row | undefined) => Array<{key: string}>
    expect(keys(resolve(first))).toEqual(['id', 'created_at', 'email', 'name', 'deleted', 'n'])
    expect(keys(resolve(undefined))).toEqual(['id', 'created_at'])
    const chosen = columnsFor('widgets', 'email,metadata') as (first: Row | undefined) => Array<{key: string}>
    expect(keys(chosen(first))).toEqual(['email', 'metadata'])
    const wrong = columnsFor('widgets', 'emial') as (first: Row | undefined) => unknown
    expect(() => wrong(first)).toThrow(/Unknown column "emial"\. Did you mean "email"\? Valid columns: id, created_at, modified_at, email, /)
  })

  it('leaves id and created_at out of the defaults when rows have none', () => {
    expect(genericColumns({key: 'k', value: 1}).defaults).toEqual(['key', 'value'])
  })
})
