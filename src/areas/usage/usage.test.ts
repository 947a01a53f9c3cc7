import {Readable} from 'node:stream'

import {describe, expect, it} from 'vitest'

import {shrink, stretch} from './chart.js'
import {addRange, isSettled, settle} from './checkpoint.js'
import {parseAggregation, parseClause} from './flags.js'
import {checkEvent, csvEvent, feedCsvLine, readCsv, readJsonLines, type InputRecord} from './read-events.js'

async function all(records: AsyncIterable<InputRecord>): Promise<InputRecord[]> {
  const out: InputRecord[] = []
  for await (const r of records) out.push(r)
  return out
}

describe('checkpoint ranges', () => {
  it('merges ranges and grows the settled prefix only when contiguous', () => {
    expect(
      addRange(
        [
          [1, 3],
          [10, 12],
        ],
        [4, 9],
      ),
    ).toEqual([[1, 12]])
    expect(addRange([[10, 12]], [1, 3])).toEqual([
      [1, 3],
      [10, 12],
    ])
    let s = {through: 0, settled: [] as Array<[number, number]>}
    s = settle(s, [101, 200])
    expect(s).toEqual({through: 0, settled: [[101, 200]]})
    expect(isSettled(s, 150)).toBe(true)
    expect(isSettled(s, 50)).toBe(false)
    s = settle(s, [1, 100])
    expect(s).toEqual({through: 200, settled: []})
  })
})

describe('reading events', () => {
  it('numbers JSON lines, counts blank ones, and names what is wrong', async () => {
    const text = '{"name":"a","external_customer_id":"c"}\n\nnot json\n[1]\n{"external_customer_id":"c"}\n{"name":"a"}\n'
    const got = await all(readJsonLines(Readable.from([text]), {}))
    expect(got.map((r) => [r.line, r.error ?? 'ok'])).toEqual([
      [1, 'ok'],
      [3, expect.stringMatching(/^not JSON/)],
      [4, 'not a JSON object (one event per line)'],
      [5, 'no event name (add a "name" field or pass --name)'],
      [6, expect.stringMatching(/^no customer/)],
    ])
  })
  it('fills defaults and checks timestamps', () => {
    expect(checkEvent({}, {name: 'n', externalCustomer: 'x'})).toEqual({name: 'n', external_customer_id: 'x'})
    expect(checkEvent({name: 'n', customer_id: 'id'}, {externalCustomer: 'x'})).toEqual({name: 'n', customer_id: 'id'})
    expect(checkEvent({name: 'n', customer_id: 'id', timestamp: '2026-01-01'}, {})).toMatch(/^bad timestamp/)
    expect(checkEvent({name: 'n', customer_id: 'id', timestamp: '2026-01-01T00:00:00+02:00'}, {})).toMatchObject({timestamp: '2026-01-01T00:00:00+02:00'})
  })
  it('reads CSV with metadata columns and quoted cells, by line', async () => {
    expect(csvEvent({name: 'a', 'metadata.n': '5', 'metadata.ok': 'true', external_id: ''})).toEqual({name: 'a', metadata: {n: 5, ok: true}})
    expect(csvEvent({nom: 'a'})).toMatch(/^unknown column "nom"/)
    const got = await all(readCsv(Readable.from(['name,external_customer_id,metadata.note\na,c1,"x, y"\n,c2,z\n']), {}))
    expect(got[0]).toMatchObject({line: 2, event: {name: 'a', external_customer_id: 'c1', metadata: {note: 'x, y'}}})
    expect(got[1]).toMatchObject({line: 3, error: expect.stringMatching(/^no event name/)})
  })
  it('splits CSV records cell by cell, across lines inside quotes, and names what is malformed', () => {
    const feed = (...lines: string[]) => {
      const state = {cells: [] as string[], cell: '', open: false}
      const outcomes = lines.map((l) => feedCsvLine(state, l))
      return {outcomes, cells: state.cells}
    }
    expect(feed('a,,"b, ""c""",')).toEqual({outcomes: ['done'], cells: ['a', '', 'b, "c"', '']})
    expect(feed('a,"line one', 'line two",z')).toEqual({outcomes: ['open', 'done'], cells: ['a', 'line one\nline two', 'z']})
    expect(feed('a"b,c').outcomes[0]).toMatchObject({error: expect.stringMatching(/^a quote inside a cell that does not start with one/)})
    expect(feed('"a"b,c').outcomes[0]).toMatchObject({error: expect.stringMatching(/^text after the closing quote/)})
  })
  it('reads the CSV records after a bad one: a short row, and a quote never closed (its first line only)', async () => {
    const text = 'name,external_customer_id\na,c1\nb\n"c,c3\nd,c4\n'
    const got = await all(readCsv(Readable.from([text]), {}))
    expect(got.map((r) => [r.line, r.error ?? r.event?.name])).toEqual([
      [2, 'a'],
      [3, '1 cell where the header has 2'],
      [4, expect.stringMatching(/^a quoted cell is never closed/)],
      [5, 'd'],
    ])
  })
})

describe('meter flags', () => {
  it('parses clauses in symbols and in words', () => {
    expect(parseClause('name=api.call')).toEqual({property: 'name', operator: 'eq', value: 'api.call'})
    expect(parseClause('tokens>=10')).toEqual({property: 'tokens', operator: 'gte', value: 10})
    expect(parseClause('model ~ gpt')).toEqual({property: 'model', operator: 'like', value: 'gpt'})
    expect(parseClause('cached eq true')).toEqual({property: 'cached', operator: 'eq', value: true})
    expect(parseClause('code ne "42"')).toEqual({property: 'code', operator: 'ne', value: '42'})
    expect(() => parseClause('tokens')).toThrow(/not PROPERTY OP VALUE/)
  })
  it('parses aggregations', () => {
    expect(parseAggregation('count')).toEqual({func: 'count'})
    expect(parseAggregation('unique:user')).toEqual({func: 'unique', property: 'user'})
    expect(() => parseAggregation('sum')).toThrow(/needs a property/)
    expect(() => parseAggregation('median:x')).toThrow(/unknown function/)
  })
})

describe('chart sizing', () => {
  it('averages many points down to the width and stretches few across it', () => {
    expect(shrink([1, 3, 5, 7], 2)).toEqual([2, 6])
    expect(shrink([1, 2], 5)).toEqual([1, 2])
    expect(stretch([1, 2], 6)).toEqual([1, 1, 1, 2, 2, 2])
  })
})
