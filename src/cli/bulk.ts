// Ids from stdin (`-` as the id argument): one per line, or JSON lines with an `id`. The whole input is
// read and checked before the first id is acted on (up to HOLD ids; a longer input is checked as it
// streams). Each id is acted on within the rate budget (the client paces), and one result per input is
// produced in input order; when the input turns out bad midway, the results of the ids already acted
// on still come out before the error.
import {createInterface} from 'node:readline'

import {runAttempt, type Attempt} from '../client/attempt.js'
import {toTillError, type ErrorContext} from '../client/errors.js'
import {ExitCode, usageError} from '../client/till-error.js'

/**
 * What became of one input: `ok` (done now), `already done` (the state it asks for held already, or an
 * earlier run of the job did it), `unknown` (a write whose answer was lost and that nothing could settle:
 * exit 7, the hint names the command that shows the truth), or `failed` (refused, with its reason).
 */
export type BulkStatus = 'ok' | 'already done' | 'unknown' | 'failed'

export interface BulkResult<T> {
  id: string
  /** True for `ok` and `already done`. */
  ok: boolean
  status: BulkStatus
  result?: T
  /** Why nothing was done now (`already done`). */
  reason?: string
  error?: {message: string; exit_code: number; hint?: string}
}

/** How a run of `runEach` is recorded and resumed (by a journal, src/cli/journal.ts). */
export interface RunHooks<T> {
  /** The outcome of input `index` already known (an earlier run did it): reported, not acted on again. */
  known?(index: number, id: string): BulkResult<T> | undefined
  /** Whether an earlier run may have sent the writes of input `index` without recording their answer. */
  earlier?(index: number): boolean
  /** Called just before input `index` is acted on. */
  started?(index: number, id: string): void
  /** Called as soon as the outcome of input `index` is known (before earlier inputs' results are yielded). */
  finished?(index: number, result: BulkResult<T>): void
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
 * of the ids already started are yielded first, then the error is thrown. `hooks` record each outcome
 * as it is known and skip what an earlier run did (see RunHooks).
 */
export async function* runEach<T>(
  ids: AsyncIterable<string> | Iterable<string>,
  action: (id: string) => Promise<T>,
  where: ErrorContext,
  concurrency = 4,
  hooks: RunHooks<T> = {},
): AsyncGenerator<BulkResult<T>> {
  const act = (id: string, index: number): Promise<BulkResult<T>> => {
    const attempt: Attempt = {earlier: hooks.earlier?.(index) ?? false}
    hooks.started?.(index, id)
    return runAttempt(attempt, () => action(id)).then(
      (result): BulkResult<T> =>
        attempt.alreadyDone === undefined ? {id, ok: true, status: 'ok', result} : {id, ok: true, status: 'already done', result, reason: attempt.alreadyDone},
      (error: unknown): BulkResult<T> => {
        const e = toTillError(error, where)
        const status = e.exitCode === ExitCode.unknown ? 'unknown' : 'failed'
        return {id, ok: false, status, error: {message: e.message, exit_code: e.exitCode, ...(e.hint ? {hint: e.hint} : {})}}
      },
    )
  }
  const settle = (id: string, index: number): Promise<BulkResult<T>> => {
    const known = hooks.known?.(index, id)
    if (known) return Promise.resolve(known)
    return act(id, index).then((r) => {
      hooks.finished?.(index, r)
      return r
    })
  }
  const window: Array<Promise<BulkResult<T>>> = []
  let index = 0
  try {
    for await (const id of ids) {
      window.push(settle(id, index++))
      if (window.length >= concurrency) yield await window.shift()!
    }
  } finally {
    while (window.length > 0) yield await window.shift()!
  }
}
