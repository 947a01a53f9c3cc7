import {Readable} from 'node:stream'

import {describe, expect, it} from 'vitest'

import {countedSummary, heldIds, readIds, runEach} from './bulk.js'

const where = {profile: 'p', environment: 'local', baseUrl: 'http://127.0.0.1:1/v1'}
const lines = (...l: string[]) => Readable.from([`${l.join('\n')}\n`])

describe('bulk input', () => {
  it('acts on nothing when a line of a held input is bad', async () => {
    const acted: string[] = []
    const results: string[] = []
    const run = async () => {
      for await (const r of runEach(heldIds(readIds(lines('C1', 'C2', '{"id": 5}', 'C3'))), async (id) => acted.push(id), where)) results.push(r.id)
    }
    await expect(run()).rejects.toThrow('stdin line 3 has no "id" string')
    expect(acted).toEqual([])
    expect(results).toEqual([])
  })

  it('past the hold, yields the result of every id acted on before the error', async () => {
    const acted: string[] = []
    const results: string[] = []
    const run = async () => {
      for await (const r of runEach(heldIds(readIds(lines('C1', 'C2', '{"id": 5}', 'C3')), 1), async (id) => acted.push(id), where)) results.push(r.id)
    }
    await expect(run()).rejects.toThrow('stdin line 3')
    expect(acted).toEqual(['C1', 'C2'])
    expect(results).toEqual(['C1', 'C2'])
  })

  it('reads JSON lines and plain ids, in order', async () => {
    const ids: string[] = []
    for await (const id of heldIds(readIds(lines('a', '', '{"id":"b"}', 'c extra')))) ids.push(id)
    expect(ids).toEqual(['a', 'b', 'c'])
  })
})

describe('countedSummary', () => {
  it('says how many objects were read instead of "every"', () => {
    expect(countedSummary('delete every customer read from stdin (benefits are revoked)', 14)).toBe(
      'delete 14 customers read from stdin (benefits are revoked)',
    )
    expect(countedSummary('archive every product read from stdin', 1)).toBe('archive 1 product read from stdin')
    expect(countedSummary('refund order o1', 3)).toBe('refund order o1')
  })
})
