import {describe, expect, it} from 'vitest'

import type {Schema} from '../../client/wire/index.js'
import {columnsOf} from './typed-columns.js'

type Refund = Schema<'Refund'>
const refund = columnsOf<Refund>()

describe('columns over a wire type', () => {
  it('reads the named field, money with the row currency, and computed columns from the typed row', () => {
    const row = {id: 'r1', amount: 1250, currency: 'eur', status: 'succeeded'} as unknown as Refund
    expect(refund.column('status', 'Status', 'status').get(row)).toBe('succeeded')
    expect(refund.money('amount', 'Amount').get(row)).toEqual({amount: 1250, currency: 'eur'})
    expect(refund.column('loud', 'Loud', 'text', (r) => r.status.toUpperCase()).get(row)).toBe('SUCCEEDED')
    expect(refund.field('id')(row)).toBe('r1')
  })

  it('lets the compiler refuse a field the type does not have, and a field list that leaves one out', () => {
    // @ts-expect-error: a refund has no `price_amount`
    refund.column('price_amount', 'Price')
    // @ts-expect-error: the list leaves out most of a refund's fields
    refund.fields(['id', 'amount'])
    const event = columnsOf<Schema<'EventName'>>()
    expect(event.fields(['name', 'label', 'source', 'occurrences', 'first_seen', 'last_seen'])).toHaveLength(6)
  })
})
