import {describe, expect, it} from 'vitest'

import {paginate, type PageResult} from './paginate.js'

/** A list of `n` numbered items served page by page, recording which pages were asked for. */
function server(n: number, delays: (page: number) => number = () => 0) {
  const asked: number[] = []
  let inflight = 0
  let maxInflight = 0
  const fetchPage = async (page: number, limit: number): Promise<PageResult<{id: number}>> => {
    asked.push(page)
    inflight++
    maxInflight = Math.max(maxInflight, inflight)
    await new Promise((r) => setTimeout(r, delays(page)))
    inflight--
    const items = Array.from({length: Math.max(0, Math.min(limit, n - (page - 1) * limit))}, (_, i) => ({id: (page - 1) * limit + i}))
    return {items, pagination: {total_count: n, max_page: Math.ceil(n / limit)}}
  }
  return {fetchPage, asked, maxInflight: () => maxInflight}
}

async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of gen) out.push(x)
  return out
}

describe('paginate', () => {
  it('reads one page by default', async () => {
    const s = server(25)
    const items = await collect(paginate(s.fetchPage, {limit: 10, page: 2}))
    expect(items.map((i) => i.id)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
    expect(s.asked).toEqual([2])
  })

  it('with all, yields every item once and in order even when later pages answer first', async () => {
    const s = server(1050, (page) => (page % 3) * 5)
    const items = await collect(paginate(s.fetchPage, {limit: 100, all: true, concurrency: 4}))
    expect(items.map((i) => i.id)).toEqual(Array.from({length: 1050}, (_, i) => i))
    expect(s.asked.sort((a, b) => a - b)).toEqual(Array.from({length: 11}, (_, i) => i + 1))
    expect(s.maxInflight()).toBeLessThanOrEqual(4)
  })

  it('stops at maxItems and asks for no page it does not need', async () => {
    const s = server(1000)
    const items = await collect(paginate(s.fetchPage, {limit: 100, all: true, maxItems: 250}))
    expect(items).toHaveLength(250)
    expect(items.at(-1)!.id).toBe(249)
    expect(Math.max(...s.asked)).toBe(3)
  })

  it('maxItems without all reads pages until it has that many (or the end), and records what it saw', async () => {
    const s = server(95)
    const seen = {yielded: 0}
    expect((await collect(paginate(s.fetchPage, {limit: 10, maxItems: 25, seen}))).map((x) => x.id)).toEqual(Array.from({length: 25}, (_, i) => i))
    expect(s.asked.sort((a, b) => a - b)).toEqual([1, 2, 3])
    expect(seen).toEqual({yielded: 25, total: 95, maxPage: 10})
    const short = server(12)
    expect(await collect(paginate(short.fetchPage, {limit: 10, maxItems: 25}))).toHaveLength(12)
  })

  it('handles an empty list', async () => {
    const s = server(0)
    expect(await collect(paginate(s.fetchPage, {all: true}))).toEqual([])
    expect(s.asked).toEqual([1])
  })

  it('warns once when total_count changes during the export', async () => {
    let calls = 0
    const shifts: Array<[number, number]> = []
    const fetchPage = async (page: number, limit: number): Promise<PageResult<number>> => {
      calls++
      const total = calls === 1 ? 30 : 31
      return {
        items: Array.from({length: limit}, (_, i) => (page - 1) * limit + i).filter((i) => i < total),
        pagination: {total_count: total, max_page: Math.ceil(total / limit)},
      }
    }
    await collect(paginate(fetchPage, {limit: 10, all: true, onShift: (a, b) => shifts.push([a, b])}))
    expect(shifts).toEqual([[30, 31]])
  })

  it('passes a page error to the consumer in order and stops', async () => {
    const fetchPage = async (page: number): Promise<PageResult<number>> => {
      if (page === 3) throw new Error('page 3 failed')
      return {items: [page], pagination: {total_count: 5, max_page: 5}}
    }
    const seen: number[] = []
    await expect(async () => {
      for await (const x of paginate(fetchPage, {limit: 1, all: true})) seen.push(x)
    }).rejects.toThrow('page 3 failed')
    expect(seen).toEqual([1, 2])
  })

  it('stops at the first empty page whatever max_page says, asking only for the pages in flight beside it', async () => {
    const asked: number[] = []
    const fetchPage = async (page: number): Promise<PageResult<number>> => {
      asked.push(page)
      return {items: page <= 3 ? [page] : [], pagination: {total_count: 1e9, max_page: 1e9}}
    }
    expect(await collect(paginate(fetchPage, {limit: 1, all: true, concurrency: 2}))).toEqual([1, 2, 3])
    expect(Math.max(...asked)).toBeLessThanOrEqual(5)
  })

  it('fails on a page that repeats any earlier one, naming both (items without an id by their JSON)', async () => {
    const pages = [
      [1, 2],
      [3, 4],
      [5, 6],
      [3, 4],
    ]
    const fetchPage = async (page: number): Promise<PageResult<number>> => ({
      items: pages[page - 1] ?? [7],
      pagination: {total_count: 1e9, max_page: 1e9},
    })
    const seen: number[] = []
    await expect(async () => {
      for await (const x of paginate(fetchPage, {limit: 2, all: true, concurrency: 1, list: 'GET /numbers/'})) seen.push(x)
    }).rejects.toThrow('page 4 of GET /numbers/ repeats page 2 (the same 2 items, 3 to 4): its paging does not advance')
    expect(seen).toEqual([1, 2, 3, 4, 5, 6])
  })
})
