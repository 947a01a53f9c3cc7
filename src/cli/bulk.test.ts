import {Readable} from 'node:stream'

import {describe, expect, it} from 'vitest'

import {currentAttempt, markAlreadyDone} from '../client/attempt.js'
import {OutcomeUnknownError} from '../client/errors.js'
import {TillError} from '../client/till-error.js'
import {countedSummary, heldIds, readIds, runEach, type BulkResult} from './bulk.js'

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

describe('the outcome of each input', () => {
  const collect = async <T>(gen: AsyncIterable<BulkResult<T>>) => {
    const out: BulkResult<T>[] = []
    for await (const r of gen) out.push(r)
    return out
  }

  it('ok, already done (the action says so), unknown (a lost answer, exit 7) and failed (with its reason)', async () => {
    const action = async (id: string) => {
      if (id === 'done') markAlreadyDone('it was so already')
      if (id === 'lost') throw new OutcomeUnknownError('POST', 'http://x/v1/products/', 'HTTP 502', 'till products list')
      if (id === 'bad') throw new TillError('refused', 2)
      return {id}
    }
    const results = await collect(runEach(['a', 'done', 'lost', 'bad'], action, where))
    expect(results.map((r) => [r.id, r.ok, r.status])).toEqual([
      ['a', true, 'ok'],
      ['done', true, 'already done'],
      ['lost', false, 'unknown'],
      ['bad', false, 'failed'],
    ])
    expect(results[1]!.reason).toBe('it was so already')
    expect(results[2]!.error).toMatchObject({exit_code: 7, hint: 'see whether it was done with: till products list'})
    expect(results[3]!.error).toEqual({message: 'refused', exit_code: 2})
  })

  it('hooks: a known outcome is not acted on; each other input is started, then finished as soon as its outcome is known', async () => {
    const events: string[] = []
    const acted: string[] = []
    const results = await collect(
      runEach(
        ['a', 'b', 'c'],
        async (id) => {
          acted.push(`${id}${currentAttempt()?.earlier ? ' (maybe sent before)' : ''}`)
          return {id}
        },
        where,
        4,
        {
          known: (i, id) => (i === 1 ? {id, ok: true, status: 'already done', reason: 'earlier'} : undefined),
          earlier: (i) => i === 2,
          started: (i) => events.push(`start ${i}`),
          finished: (i, r) => events.push(`end ${i} ${r.status}`),
        },
      ),
    )
    expect(acted).toEqual(['a', 'c (maybe sent before)'])
    expect(results.map((r) => r.status)).toEqual(['ok', 'already done', 'ok'])
    expect(events.filter((e) => e.endsWith(' 0') || e.startsWith('end 0'))).toEqual(['start 0', 'end 0 ok'])
    expect(events.filter((e) => e.endsWith(' 2') || e.startsWith('end 2'))).toEqual(['start 2', 'end 2 ok'])
    expect(events).toHaveLength(4)
  })
})
