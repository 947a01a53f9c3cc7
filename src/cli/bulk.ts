// Ids from stdin (`-` as the id argument): one per line, or JSON lines with an `id`. Each id is acted on
// within the rate budget (the client paces), and one result per input is produced in input order.
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

/**
 * Runs `action` for every id with at most `concurrency` in flight, yielding results in input order.
 * A failure is a result, not an exception: the other ids go on.
 */
export async function* runEach<T>(
  ids: AsyncIterable<string>,
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
  for await (const id of ids) {
    window.push(settle(id))
    if (window.length >= concurrency) yield await window.shift()!
  }
  while (window.length > 0) yield await window.shift()!
}
