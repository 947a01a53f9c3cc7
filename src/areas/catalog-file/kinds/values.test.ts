import {describe, expect, it} from 'vitest'

import {readCatalog} from '../document.js'
import type {Change} from './kind.js'
import {fileMetadata, metadataChanges, metadataSchema} from './values.js'

describe('catalog metadata keys named as Object.prototype names are keys like any other', () => {
  it('a metadata key "__proto__" in a catalog file is read and kept as the entry\'s own', () => {
    const parsed = metadataSchema.parse(JSON.parse('{"__proto__": "x", "plan": "pro"}'))
    expect(Object.entries(parsed)).toEqual([
      ['__proto__', 'x'],
      ['plan', 'pro'],
    ])
    expect(Object.entries(fileMetadata(parsed))).toEqual([
      ['__proto__', 'x'],
      ['plan', 'pro'],
    ])
    const price = '{type: fixed, amount: "29.00", currency: usd}'
    const file = `version: 1\nproducts:\n  pro:\n    name: Pro\n    prices: [${price}]\n`
    const {catalog, issues} = readCatalog(`${file}    metadata: {__proto__: x, plan: pro}\n`)
    expect(issues).toEqual([])
    const metadata = (catalog.products!.pro as {metadata: Record<string, unknown>}).metadata
    expect(Object.entries(metadata)).toEqual([
      ['__proto__', 'x'],
      ['plan', 'pro'],
    ])
  })

  it('a key on one side only is added or removed, not compared with what Object inherits', () => {
    const own = (text: string) => JSON.parse(text) as Record<string, string>
    const as = (field: string, changes: Change[]) => changes.map((c) => ({...c, field}))
    const added = metadataChanges({}, {plan: 'x'})
    const removed = metadataChanges({plan: 'x'}, {})
    expect(metadataChanges({}, own('{"__proto__": "x"}'))).toEqual(as('metadata.__proto__', added))
    expect(metadataChanges({constructor: 'x'}, {})).toEqual(as('metadata.constructor', removed))
    expect(metadataChanges(own('{"__proto__": "x"}'), own('{"__proto__": "x"}'))).toEqual([])
  })
})
