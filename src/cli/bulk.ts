// Ids from stdin (`-` as the id argument): one per line, or JSON lines with an `id`. The whole input is
// read and checked before the first id is acted on (up to HOLD ids; a longer input is checked as it
// streams). Each id is acted on within the rate budget (the client paces), and one result per input is
// produced in input order; when the input turns out bad midway, the results of the ids already acted
// on still come out before the error.
import {createInterface} from 'node:readline'

import {toTillError, type ErrorContext} from '../client/errors.js'
import {usageError} from '../client/till-error.js'

export interface BulkResult<T> {
  id: string
  ok: boolean
  result?: T
  error?: {message: string; exit_code: number}
}

/** Reads ids from a stream of lines; blank lines are skipped, `{"id": ...}` lines give their id. */
export async function* readIds(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  const lines = createInterface({input, crlfDelay: Number.POSITIVE_INFINITY})
  let n = 0
  for await (const raw of lines) {
    n++
    const line = raw.trim()
    if (line === '') continue
    if (line.startsWith('{')) {
      let id: unknown
      try {
        id = (JSON.parse(line) as {id?: unknown}).id
      } catch {
        throw usageError(`stdin line ${n} is not valid JSON`, 'give one id per line, or JSON lines with an "id" field')
      }
      if (typeof id !== 'string' || id === '') throw usageError(`stdin line ${n} has no "id" string`)
      yield id
    } else {
      yield line.split(/\s+/)[0]!
    }
  }
}

/** `delete every customer read from stdin` -> `delete 14 customers read from stdin`, for the preview. */
export function countedSummary(summary: string, n: number): string {
  return summary.replace(/\bevery ([a-z][a-z ]*?) read from stdin/, (_all, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`} read from stdin`)
}

/** How many ids are read and checked before the first is acted on; past this the input streams. */
export const HOLD = 100_000

/** The ids of `ids`, yielded only once the whole input (or its first `hold` ids) has been read without error. */
export async function* heldIds(ids: AsyncIterable<string>, hold = HOLD): AsyncGenerator<string> {
  const it = ids[Symbol.asyncIterator]()
  const held: string[] = []
  let next = await it.next()
  while (!next.done) {
    held.push(next.value)
    if (held.length >= hold) break
    next = await it.next()
  }
  yield* held
  if (next.done) return
  for (next = await it.next(); !next.done; next = await it.next()) yield next.value
}

/**
 * Runs `action` for every id with at most `concurrency` in flight, yielding results in input order.
 * A failure is a result, not an exception: the other ids go on. When reading `ids` fails, the results
 * of the ids already started are yielded first, then the error is thrown.
 */
export async function* runEach<T>(
  ids: AsyncIterable<string> | Iterable<string>,
  action: (id: string) => Promise<T>,
  where: ErrorContext,
  concurrency = 4,
): AsyncGenerator<BulkResult<T>> {
  const settle = (id: string): Promise<BulkResult<T>> =>
    action(id).then(
      (result) => ({id, ok: true, result}),
      (error: unknown) => {
        const e = toTillError(error, where)
        return {id, ok: false, error: {message: e.message, exit_code: e.exitCode}}
      },
    )
  const window: Array<Promise<BulkResult<T>>> = []
  try {
    for await (const id of ids) {
      window.push(settle(id))
      if (window.length >= concurrency) yield await window.shift()!
    }
  } finally {
    while (window.length > 0) yield await window.shift()!
  }
}
