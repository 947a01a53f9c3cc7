import {describe, expect, it} from 'vitest'

import type {EventRecord} from '../events/log.js'
import {Accumulator, matches, nextPeriod, quantities, requiredName, truncate} from './aggregate.js'
import type {FilterRecord} from './model.js'

const ev = (timestamp: string, metadata: Record<string, unknown>, name = 'api.call'): EventRecord => ({
  id: `${timestamp}-${JSON.stringify(metadata)}`, timestamp, name, source: 'user', customer_id: null, external_customer_id: 'c', external_id: null, parent_id: null, metadata,
})

describe('meter filters', () => {
  const e = ev('2026-01-05T10:00:00Z', {tokens: 12, model: 'gpt-large', cached: true, nested: {tier: 'pro'}})
  it('compares numbers as numbers, booleans as booleans, text as text', () => {
    const f = (property: string, operator: string, value: string | number | boolean): FilterRecord => ({conjunction: 'and', clauses: [{property, operator: operator as 'eq', value}]})
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
    const nested: FilterRecord = {conjunction: 'or', clauses: [{property: 'tokens', operator: 'gt', value: 100}, {conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'api.call'}]}]}
    expect(matches(e, nested)).toBe(true)
    expect(matches(e, {conjunction: 'and', clauses: []})).toBe(true)
    expect(matches(e, {conjunction: 'or', clauses: []})).toBe(false)
    expect(requiredName({conjunction: 'and', clauses: [{property: 'name', operator: 'eq', value: 'x'}]})).toBe('x')
    expect(requiredName(nested)).toBeNull()
  })
})

describe('aggregations and periods', () => {
  const events = [ev('2026-01-05T01:00:00Z', {t: 3, u: 'a'}), ev('2026-01-05T02:00:00Z', {t: 5, u: 'b'}), ev('2026-01-06T00:00:00Z', {t: 10, u: 'a'}), ev('2026-01-06T01:00:00Z', {u: 'c'})]
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
  it('truncates to UTC periods, weeks from Monday', () => {
    const t = Date.parse('2026-01-07T15:42:00Z') // a Wednesday
    expect(new Date(truncate(t, 'hour')).toISOString()).toBe('2026-01-07T15:00:00.000Z')
    expect(new Date(truncate(t, 'week')).toISOString()).toBe('2026-01-05T00:00:00.000Z')
    expect(new Date(truncate(t, 'month')).toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(new Date(nextPeriod(Date.parse('2026-01-31T00:00:00Z'), 'month')).toISOString()).toBe('2026-02-01T00:00:00.000Z')
  })
  it('gives one quantity per period and the total over the range', () => {
    const q = quantities(events, {conjunction: 'and', clauses: []}, {func: 'sum', property: 't'}, Date.parse('2026-01-05T00:00:00Z'), Date.parse('2026-01-07T00:00:00Z'), 'day')
    expect(q).toEqual({
      quantities: [
        {timestamp: '2026-01-05T00:00:00.000Z', quantity: 8},
        {timestamp: '2026-01-06T00:00:00.000Z', quantity: 10},
        {timestamp: '2026-01-07T00:00:00.000Z', quantity: 0},
      ],
      total: 18,
    })
  })
})
