// Ingesting a stream of events: batches by count and bytes under the body limit, several batches in
// flight inside the rate budget (the client paces), input read only as fast as batches leave (bounded
// memory), and exactly-once rules: a batch whose events all carry `external_id` may be sent again (the
// service deduplicates); one without that may have reached the server is never re-sent, and its lines
// are reported as of unknown fate. Settled lines go to the checkpoint so that a re-run continues.
import type {ApiClient} from '../../client/client.js'
import {ApiError, NetworkError, OutcomeUnknownError} from '../../client/errors.js'
import type {EventInput, IngestResult} from '../../client/resources/events.js'
import {NotSentError} from '../../client/pace.js'
import {neverSent} from '../../client/retry.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {isSettled, rangeText, type Checkpoint, type Range} from './checkpoint.js'
import type {InputRecord} from './read-events.js'

/** The service refuses bodies over 10 MiB; batches stay well under it. */
export const MAX_BATCH_BYTES = 8 * 1024 * 1024

export interface IngestOptions {
  batchSize: number
  batchBytes: number
  concurrency: number
  skipInvalid: boolean
  /** Called after every settled batch and every read record (progress). */
  onProgress?: (p: IngestProgress) => void
  /** One line per skipped invalid line (stderr). */
  warn: (line: string) => void
  /** Stops reading when aborted (Ctrl-C): batches in flight finish, nothing more is sent. */
  signal?: AbortSignal
}

export interface IngestProgress {
  read: number
  inserted: number
  duplicates: number
  rejected: number
  requests: number
  bytes: number
}

export interface IngestSummary extends IngestProgress {
  /** Lines already settled by an earlier run (checkpoint), not read again. */
  resumedLines: number
  interrupted: boolean
  /** The lines skipped as invalid or refused by the service (--skip-invalid), in the order found. */
  rejectedLines: number[]
}

interface Batch {
  events: EventInput[]
  /** Each event serialized once, when it was measured for the batch's size. */
  json: string[]
  /** Input line of each event, to name lines in errors. */
  lines: number[]
  /** The input lines this batch settles: from after the previous batch to its last event. */
  range: Range
  bytes: number
}

/** The input line of each event a 422 names (`["body","events",i,...]`). */
function linesOf422(error: ApiError, batch: Batch): Array<{line: number; index: number; msg: string}> {
  const out: Array<{line: number; index: number; msg: string}> = []
  for (const d of error.details) {
    const loc = (d as {loc?: unknown[]}).loc ?? []
    const index = loc[0] === 'body' && loc[1] === 'events' && typeof loc[2] === 'number' ? loc[2] : -1
    if (index >= 0 && index < batch.events.length) {
      const field = loc
        .slice(3)
        .filter((x) => typeof x === 'string' && !/^EventCreate/.test(x))
        .join('.')
      out.push({line: batch.lines[index]!, index, msg: `${field ? `${field}: ` : ''}${(d as {msg?: string}).msg ?? 'invalid'}`})
    }
  }
  return out
}

export class Ingester {
  private readonly progress: IngestProgress = {read: 0, inserted: 0, duplicates: 0, rejected: 0, requests: 0, bytes: 0}
  private failure: Error | null = null
  private readonly inflight = new Set<Promise<void>>()
  private readonly rejectedLines: number[] = []

  constructor(
    private readonly client: ApiClient,
    private readonly checkpoint: Checkpoint,
    private readonly options: IngestOptions,
  ) {}

  async run(records: AsyncIterable<InputRecord>): Promise<IngestSummary> {
    const o = this.options
    let batch: Batch | null = null
    let lastLine = 0
    let resumedLines = 0
    let interrupted = false
    const flush = async () => {
      if (batch && batch.events.length > 0) await this.send(batch)
      batch = null
    }
    for await (const read of records) {
      // An event larger than one request may carry is a bad line (the service would refuse the batch whole).
      const json = read.error === undefined ? JSON.stringify(read.event) : ''
      const tooBig = Buffer.byteLength(json) + 16 > o.batchBytes
      const record = tooBig
        ? {
            ...read,
            event: undefined,
            error: `the event is ${(Buffer.byteLength(json) / 1_048_576).toFixed(1)} MiB, more than one request may carry (${(o.batchBytes / 1_048_576).toFixed(0)} MiB)`,
          }
        : read
      if (o.signal?.aborted) {
        interrupted = true
        break
      }
      if (this.failure) break
      this.progress.bytes = record.bytes
      if (isSettled(this.checkpoint.data, record.line)) {
        resumedLines++
        lastLine = record.line
        continue
      }
      this.progress.read++
      if (record.error !== undefined) {
        if (!o.skipInvalid || record.fatal) {
          // nothing after a bad line is sent: what came before it goes, then the run stops
          await flush()
          await this.drain()
          this.checkpoint.save()
          if (this.failure) throw this.failure
          throw new TillError(
            `line ${record.line}: ${record.error}`,
            ExitCode.error,
            'fix the line and run the same command again with --resume (or the same --checkpoint): the lines already stored are not sent again; or pass --skip-invalid to skip bad lines',
          )
        }
        o.warn(`Skipped line ${record.line}: ${record.error}`)
        this.progress.rejected++
        this.rejectedLines.push(record.line)
        // settled on its own, or with the batch being filled (whose range then reaches this line)
        if (!batch) this.checkpoint.settle([lastLine + 1, record.line], {rejected: 1})
        else {
          this.pendingRejected.push(record.line)
          ;(batch as Batch).range[1] = record.line
        }
        lastLine = record.line
        o.onProgress?.(this.progress)
        continue
      }
      const size = Buffer.byteLength(json) + 1
      if (batch && (batch.events.length >= o.batchSize || batch.bytes + size > o.batchBytes)) await flush()
      if (!batch) batch = {events: [], json: [], lines: [], range: [lastLine + 1, record.line], bytes: 16}
      batch.events.push(record.event!)
      batch.json.push(json)
      batch.lines.push(record.line)
      batch.range[1] = record.line
      batch.bytes += size
      lastLine = record.line
      o.onProgress?.(this.progress)
    }
    if (!this.failure && !interrupted) await flush()
    await this.drain()
    this.checkpoint.save()
    if (this.failure) throw this.failure
    return {...this.progress, resumedLines, interrupted: interrupted || this.stoppedUnsent, rejectedLines: [...this.rejectedLines].sort((a, b) => a - b)}
  }

  /** Set when a batch was given up before it was sent (the run was interrupted while it waited for the budget). */
  private stoppedUnsent = false

  /** Lines skipped as invalid inside the batch being filled; settled with it. */
  private pendingRejected: number[] = []

  /** Starts sending `batch` once a slot is free (this is what holds reading back). */
  private async send(batch: Batch): Promise<void> {
    while (this.inflight.size >= this.options.concurrency) await Promise.race(this.inflight)
    if (this.failure) return
    const rejected = this.pendingRejected.length
    this.pendingRejected = []
    const task = this.post(batch, rejected).finally(() => this.inflight.delete(task))
    this.inflight.add(task)
  }

  private async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.race(this.inflight)
  }

  private async post(batch: Batch, rejectedBefore: number): Promise<void> {
    const replayable = batch.events.every((e) => typeof e.external_id === 'string' && e.external_id !== '')
    let events = batch.events
    let json = batch.json
    let lines = batch.lines
    let rejected = rejectedBefore
    let result: IngestResult = {inserted: 0, duplicates: 0}
    // a batch that cannot be sent twice is on record before it goes: a kill in flight leaves it unknown
    if (!replayable && this.checkpoint.file !== null) this.checkpoint.markSending(batch.range)
    while (events.length > 0) {
      try {
        this.progress.requests++
        result = await postBatch(this.client, json, replayable, this.options.signal)
        break
      } catch (error) {
        if (error instanceof NotSentError) {
          // stopped while it waited for the budget: nothing was sent, its lines are left for a resumed run
          this.progress.requests--
          this.stoppedUnsent = true
          if (this.checkpoint.data.sending?.length) this.checkpoint.doneSending(batch.range)
          return
        }
        const named = error instanceof ApiError && error.status === 422 && this.options.skipInvalid ? linesOf422(error, {...batch, events, json, lines}) : []
        if (named.length === 0) {
          this.fail(error as Error, {...batch, events, json, lines}, replayable)
          return
        }
        // a refused batch stored nothing: leave out the events the service named and send the rest
        const drop = new Set(named.map((n) => n.index))
        for (const n of named) this.options.warn(`Skipped line ${n.line}: ${n.msg}`)
        this.rejectedLines.push(...named.map((n) => n.line))
        rejected += drop.size
        this.progress.rejected += drop.size
        events = events.filter((_, i) => !drop.has(i))
        json = json.filter((_, i) => !drop.has(i))
        lines = lines.filter((_, i) => !drop.has(i))
      }
    }
    this.progress.inserted += result.inserted
    this.progress.duplicates += result.duplicates ?? 0
    this.checkpoint.settle(batch.range, {inserted: result.inserted, duplicates: result.duplicates ?? 0, rejected})
    this.checkpoint.save()
    this.options.onProgress?.(this.progress)
  }

  /** The first failure stops the run; a write that may have landed is named by its lines. */
  private fail(error: Error, batch: Batch, replayable: boolean): void {
    if (this.failure) return
    const range: Range = [batch.lines[0]!, batch.lines.at(-1)!]
    const mayHaveLanded =
      error instanceof OutcomeUnknownError || (error instanceof ApiError && error.status >= 500) || (error instanceof NetworkError && !neverSent(error.code))
    if (!(mayHaveLanded && !replayable) && this.checkpoint.data.sending?.length) {
      // not stored (refused, or never sent): no longer in flight
      this.checkpoint.doneSending(range)
      this.checkpoint.save()
    }
    if (mayHaveLanded && !replayable) {
      this.checkpoint.markUnknown(range)
      const exit = error instanceof OutcomeUnknownError ? ExitCode.unknown : error instanceof NetworkError ? ExitCode.unavailable : ExitCode.error
      this.failure = new TillError(
        `${rangeText(range)}: unknown whether these events were stored (${error.message}); they are not sent again because they have no external_id`,
        exit,
        'check with `till events list`, then run the same command again (with --resume, or the same --checkpoint) adding --resend-unknown or --skip-unknown; give every event an external_id to make retries safe',
      )
      return
    }
    if (error instanceof ApiError && error.status === 422) {
      const named = linesOf422(error, batch)
      if (named.length > 0) {
        const first = named[0]!
        this.failure = new TillError(
          `line ${first.line}: refused by the service: ${first.msg}${named.length > 1 ? ` (and ${named.length - 1} more)` : ''}`,
          ExitCode.error,
          'fix the lines, or pass --skip-invalid to leave out what the service refuses',
        )
        return
      }
    }
    this.failure = error
  }
}

/** One request from events serialized already; re-sent after a 5xx or a dropped connection only when replayable. */
export function postBatch(client: ApiClient, events: string[], replayable: boolean, unsent?: AbortSignal): Promise<IngestResult> {
  return client.post<IngestResult>('/events/ingest', undefined, {json: `{"events":[${events.join(',')}]}`, replayable, unsent})
}
