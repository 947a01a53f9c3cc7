import {describe, expect, it} from 'vitest'

import type {EventRecord} from '../events/log.js'
import {Accumulator, matches, quantities, requiredName} from './aggregate.js'
import type {FilterRecord} from './model.js'

const ev = (timestamp: string, metadata: Record<string, unknown>, name = 'api.call'): EventRecord => ({
  id: `${timestamp}-${JSON.stringify(metadata)}`,
  timestamp,
  name,
  source: 'user',
  customer_id: null,
  external_customer_id: 'c',
  external_id: null,
  parent_id: null,
  metadata,
})

describe('meter filters', () => {
  const e = ev('2026-01-05T10:00:00Z', {tokens: 12, model: 'gpt-large', cached: true, nested: {tier: 'pro'}})
  it('compares numbers as numbers, booleans as booleans, text as text', () => {
    const f = (property: string, operator: string, value: string | number | boolean): FilterRecord => ({
      conjunction: 'and',
      clauses: [{property, operator: operator as 'eq', value}],
    })
    expect(matches(e, f('tokens', 'gt', 9))).toBe(true)
    expect(matches(e, f('tokens', 'lte', 11))).toBe(false)
    expect(matches(e, f('cached', 'eq', true))).toBe(true)
    expect(matches(e, f('model', 'like', 'large'))).toBe(true)
    expect(matches(e, f('model', 'not_like', 'small'))).toBe(true)
    expect(matches(e, f('metadata.nested.tier', 'eq', 'pro'))).toBe(true)
    expect(matches(e, f('name', 'ne', 'other'))).toBe(true)
    expect(matches(e, f('missing', 'eq', 'x'))).toBe(false)
  })
  it('nests and/or; an empty and passes all, an empty or none', () => {
    const nested: FilterRecord = {
      conjunction: 'or',
      clauses: [
        {property: 'tokens', operator: 'gt', value: 100},
        {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'api.call'}]},
      ],
    }
    expect(matches(e, nested)).toBe(true)
    expect(matches(e, {conjunction: 'and', clauses: []})).toBe(true)
    expect(matches(e, {conjunction: 'or', clauses: []})).toBe(false)
    expect(requiredName({conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'x'}]})).toBe('x')
    expect(requiredName(nested)).toBeNull()
  })
})

describe('aggregations and periods', () => {
  const events = [
    ev('2026-01-05T01:00:00Z', {t: 3, u: 'a'}),
    ev('2026-01-05T02:00:00Z', {t: 5, u: 'b'}),
    ev('2026-01-06T00:00:00Z', {t: 10, u: 'a'}),
    ev('2026-01-06T01:00:00Z', {u: 'c'}),
  ]
  it('folds each function; events without the property are left out of sum/max/min/avg', () => {
    const value = (agg: ConstructorParameters<typeof Accumulator>[0]) => {
      const acc = new Accumulator(agg)
      for (const e of events) acc.add(e)
      return acc.value()
    }
    expect(value({func: 'count'})).toBe(4)
    expect(value({func: 'sum', property: 't'})).toBe(18)
    expect(value({func: 'max', property: 't'})).toBe(10)
    expect(value({func: 'min', property: 't'})).toBe(3)
    expect(value({func: 'avg', property: 't'})).toBe(6)
    expect(value({func: 'unique', property: 'u'})).toBe(3)
    expect(new Accumulator({func: 'max', property: 't'}).value()).toBe(0)
  })
  it('follows the periods of a time zone: local midnight, written with its offset', () => {
    // 2026-01-05 20:00 UTC is already 2026-01-06 in Tokyo (UTC+9)
    const late = [ev('2026-01-05T20:00:00Z', {t: 4}), ev('2026-01-05T10:00:00Z', {t: 1})]
    const q = quantities(
      late,
      {conjunction: 'and', clauses: []},
      {func: 'sum', property: 't'},
      Date.parse('2026-01-04T15:00:00Z'),
      Date.parse('2026-01-06T14:59:59Z'),
      'day',
      {timeZone: 'Asia/Tokyo'},
    )
    expect(q.quantities).toEqual([
      {timestamp: '2026-01-05T00:00:00+09:00', quantity: 1},
      {timestamp: '2026-01-06T00:00:00+09:00', quantity: 4},
    ])
    const utc = quantities(
      late,
      {conjunction: 'and', clauses: []},
      {func: 'sum', property: 't'},
      Date.parse('2026-01-05T00:00:00Z'),
      Date.parse('2026-01-05T23:59:59Z'),
      'day',
    )
    expect(utc.quantities).toEqual([{timestamp: '2026-01-05T00:00:00Z', quantity: 5}])
  })
  it('combines per-customer quantities with the customer aggregation function', () => {
    const mixed = [
      {...ev('2026-01-05T01:00:00Z', {t: 2}), external_customer_id: 'a'},
      {...ev('2026-01-05T02:00:00Z', {t: 3}), external_customer_id: 'a'},
      {...ev('2026-01-05T03:00:00Z', {t: 7}), external_customer_id: 'b'},
    ]
    const range = [Date.parse('2026-01-05T00:00:00Z'), Date.parse('2026-01-05T23:59:59Z')] as const
    const per = (f: 'max' | 'min' | 'avg' | 'count' | 'sum') =>
      quantities(mixed, {conjunction: 'and', clauses: []}, {func: 'sum', property: 't'}, ...range, 'day', {perCustomer: f}).total
    expect([per('max'), per('min'), per('avg'), per('count'), per('sum')]).toEqual([7, 5, 6, 2, 12])
  })
  it('gives one quantity per period and the total over the range', () => {
    const q = quantities(
      events,
      {conjunction: 'and', clauses: []},
      {func: 'sum', property: 't'},
      Date.parse('2026-01-05T00:00:00Z'),
      Date.parse('2026-01-07T00:00:00Z'),
      'day',
    )
    expect(q).toEqual({
      quantities: [
        {timestamp: '2026-01-05T00:00:00Z', quantity: 8},
        {timestamp: '2026-01-06T00:00:00Z', quantity: 10},
        {timestamp: '2026-01-07T00:00:00Z', quantity: 0},
      ],
      total: 18,
    })
  })
})
