import {describe, expect, it} from 'vitest'

import {projectRow, valueAt} from './paths.js'

const product = {
  id: 'p1',
  name: 'Pro',
  organization: {id: 'o1', name: 'Acme'},
  prices: [
    {id: 'a', price_amount: 1500, price_currency: 'usd'},
    {id: 'b', price_amount: 2000, price_currency: 'eur'},
  ],
  medias: [],
  metadata: {'2024': 'yes'},
}

describe('dotted paths (--columns and --json FIELDS)', () => {
  it('a path into an object keeps its nesting, a missing field and its parent null', () => {
    const picked = projectRow(product, ['id', 'organization.name', 'nope.x'])
    expect(picked).toEqual({id: 'p1', organization: {name: 'Acme'}, nope: {x: null}})
    expect(valueAt(product, 'organization.name')).toBe('Acme')
    expect(valueAt(product, 'nope.x')).toBeUndefined()
  })

  it('a path through a list takes the field of every element, keeping the list', () => {
    expect(projectRow(product, ['prices.price_amount'])).toEqual({prices: [{price_amount: 1500}, {price_amount: 2000}]})
    expect(projectRow(product, ['prices.id', 'prices.price_amount', 'medias.id'])).toEqual({
      prices: [
        {id: 'a', price_amount: 1500},
        {id: 'b', price_amount: 2000},
      ],
      medias: [],
    })
    expect(valueAt(product, 'prices.price_amount')).toEqual([1500, 2000])
  })

  it('a field asked for whole takes in the paths under it, and the row is left as it was', () => {
    const before = structuredClone(product)
    expect(projectRow(product, ['organization', 'organization.name'])).toEqual({organization: {id: 'o1', name: 'Acme'}})
    expect(projectRow(product, ['organization.name', 'organization'])).toEqual({organization: {id: 'o1', name: 'Acme'}})
    expect(product).toEqual(before)
  })

  it('a number is a name in an object, and refused where it meets a list, naming the path that works', () => {
    expect(projectRow(product, ['metadata.2024'])).toEqual({metadata: {'2024': 'yes'}})
    expect(() => projectRow(product, ['prices.0.price_amount'])).toThrow(
      '"prices.0.price_amount": prices is a list, and a path takes from each of its elements, not one by position',
    )
    try {
      projectRow(product, ['prices.0.price_amount'])
    } catch (error) {
      expect((error as {exitCode: number}).exitCode).toBe(2)
      expect((error as {hint: string}).hint).toBe(
        "give prices.price_amount for every element, or pick one with jq: --json prices | jq '.prices[0].price_amount'",
      )
    }
    expect(() => projectRow(product, ['medias.0'])).toThrow(/"medias\.0": medias is a list/)
    expect(() => projectRow(product, ['medias.0'])).toThrow(
      expect.objectContaining({
        hint: "give medias for the whole list, or pick one with jq: --json medias | jq '.medias[0]'",
      }),
    )
    expect(() => valueAt(product, 'prices.1.id')).toThrow(/"prices\.1\.id": prices is a list/)
  })

  it('a field named __proto__ is a field: nothing reaches the prototype of the output or of any object', () => {
    const metadata = '{"__proto__":{"polluted":"yes"},"plan":"pro"}'
    const row = JSON.parse(`{"id":"c1","metadata":${metadata}}`) as Record<string, unknown>
    const out = projectRow(row, ['metadata.__proto__', '__proto__.polluted', 'metadata.plan'])
    expect(JSON.stringify(out)).toBe(`{"metadata":${metadata},"__proto__":{"polluted":null}}`)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
