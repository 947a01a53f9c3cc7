// The checkpoint of an ingest: which input lines are settled (acknowledged by the service or skipped as
// invalid), and which lines' fate is unknown (a write that may have reached the server, answer lost).
// Batches finish out of order, so it holds the settled prefix plus the settled ranges past it.
import {readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'

import {fsError} from '../../client/fs-problem.js'
import {holdLock, type HeldLock} from '../../client/lockfile.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'

export type Range = [number, number]

export interface CheckpointData {
  version: 1
  /** The input as given (a path, or `-` for stdin). */
  input: string
  /** Every line up to here is settled. */
  through: number
  /** Settled ranges past `through`. */
  settled: Range[]
  /** Ranges sent without external ids whose answer was lost: they may or may not be stored. */
  unknown: Range[]
  /**
   * Ranges without external ids being sent: recorded before the request goes, so that a run killed with
   * them in flight leaves them unknown, not unsent (a re-run would store them twice).
   */
  sending?: Range[]
  counts: {inserted: number; duplicates: number; rejected: number}
}

/** Adds `[a, b]` to sorted, disjoint `ranges`, merging neighbours. Pure. */
export function addRange(ranges: Range[], [a, b]: Range): Range[] {
  const out: Range[] = []
  let cur: Range = [a, b]
  let placed = false
  for (const r of ranges) {
    if (r[1] + 1 < cur[0]) out.push(r)
    else if (cur[1] + 1 < r[0]) {
      if (!placed) {
        out.push(cur)
        placed = true
      }
      out.push(r)
    } else cur = [Math.min(cur[0], r[0]), Math.max(cur[1], r[1])]
  }
  if (!placed) out.push(cur)
  return out
}

/** Marks lines `[a, b]` settled: the prefix grows when the range touches it. Pure. */
export function settle(data: {through: number; settled: Range[]}, range: Range): {through: number; settled: Range[]} {
  let settled = addRange(data.settled, range)
  let through = data.through
  while (settled.length > 0 && settled[0]![0] <= through + 1) {
    through = Math.max(through, settled[0]![1])
    settled = settled.slice(1)
  }
  return {through, settled}
}

export const isSettled = (data: {through: number; settled: Range[]}, line: number) =>
  line <= data.through || data.settled.some(([a, b]) => line >= a && line <= b)

export const rangeText = ([a, b]: Range) => (a === b ? `line ${a}` : `lines ${a}-${b}`)

/** The settled lines as text (`lines 1-4000, 4101-4200`), or null when none is. Pure. */
export function settledText(data: {through: number; settled: Range[]}): string | null {
  const ranges: Range[] = data.through > 0 ? [[1, data.through], ...data.settled] : data.settled
  if (ranges.length === 0) return null
  const one = ranges.length === 1 && ranges[0]![0] === ranges[0]![1]
  return `${one ? 'line' : 'lines'} ${ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ')}`
}

export class Checkpoint {
  data: CheckpointData
  /** Held while the run lasts: two runs with one checkpoint would both send the same lines. */
  private lock: HeldLock | null = null

  private constructor(
    readonly file: string | null,
    data: CheckpointData,
  ) {
    this.data = data
  }

  /** Lets another run use the checkpoint file (done at exit at the latest). */
  close(): void {
    this.lock?.release()
    this.lock = null
  }

  /** Takes the file's lock (`FILE.lock`), or fails naming the run that has it. */
  private static lock(file: string): HeldLock {
    let lock: ReturnType<typeof holdLock>
    try {
      lock = holdLock(`${file}.lock`)
    } catch (error) {
      throw fsError(error, 'write the checkpoint', file, ExitCode.usage, 'give --checkpoint a path in a folder you can write to')
    }
    if ('release' in lock) return lock
    throw new TillError(
      `--checkpoint ${file} is in use by another till events ingest${lock.heldBy === null ? '' : ` (pid ${lock.heldBy})`}`,
      ExitCode.busy,
      `wait for that run to end (two runs with one checkpoint would send the same lines twice); if none is running, delete ${file}.lock`,
    )
  }

  /** The checkpoint in `file` (a fresh one when it does not exist), for `input`. */
  static open(file: string | null, input: string): Checkpoint {
    const fresh: CheckpointData = {version: 1, input, through: 0, settled: [], unknown: [], counts: {inserted: 0, duplicates: 0, rejected: 0}}
    if (file === null) return new Checkpoint(null, fresh)
    if (file.trim() === '') throw usageError('--checkpoint needs a file name', 'e.g. --checkpoint usage.ckpt')
    const lock = Checkpoint.lock(file)
    try {
      const checkpoint = Checkpoint.read(file, input, fresh)
      checkpoint.lock = lock
      return checkpoint
    } catch (error) {
      lock.release()
      throw error
    }
  }

  private static read(file: string, input: string, fresh: CheckpointData): Checkpoint {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw fsError(error, 'read the checkpoint', file, ExitCode.usage, 'give --checkpoint the path of a file')
      // Written now, before any event is sent: a checkpoint that cannot be saved stops the run here,
      // not after a batch went out unrecorded (a re-run would send it twice).
      const checkpoint = new Checkpoint(file, fresh)
      checkpoint.save(ExitCode.usage)
      return checkpoint
    }
    let data: CheckpointData
    try {
      data = JSON.parse(text) as CheckpointData
      if (data.version !== 1 || typeof data.through !== 'number') throw new Error('not a till ingest checkpoint')
    } catch (error) {
      throw usageError(
        `--checkpoint ${file} is not a checkpoint of till events ingest (${(error as Error).message})`,
        'give a new file name, or delete this one to start over',
      )
    }
    // lines the last run was sending when it stopped: their fate is unknown
    for (const range of data.sending ?? []) data.unknown = addRange(data.unknown, range)
    data.sending = []
    if (data.input !== input) {
      throw usageError(
        `--checkpoint ${file} belongs to the input ${data.input}, not ${input}`,
        'give the same input again, or another checkpoint file to start over',
      )
    }
    return new Checkpoint(file, data)
  }

  get resumed(): boolean {
    return this.data.through > 0 || this.data.settled.length > 0 || this.data.unknown.length > 0
  }

  /** Forgets what an earlier run settled (--restart): the next save starts the record over. */
  reset(): void {
    this.data = {...this.data, through: 0, settled: [], unknown: [], sending: [], counts: {inserted: 0, duplicates: 0, rejected: 0}}
    this.save()
  }

  settle(range: Range, counts: {inserted?: number; duplicates?: number; rejected?: number}): void {
    this.doneSending(range)
    const {through, settled} = settle(this.data, range)
    this.data.through = through
    this.data.settled = settled
    this.data.counts.inserted += counts.inserted ?? 0
    this.data.counts.duplicates += counts.duplicates ?? 0
    this.data.counts.rejected += counts.rejected ?? 0
  }

  markUnknown(range: Range): void {
    this.data.unknown = addRange(this.data.unknown, range)
    this.doneSending(range)
  }

  /** Records that `range` is about to be sent (saved before the request goes). */
  markSending(range: Range): void {
    this.data.sending = addRange(this.data.sending ?? [], range)
    this.save()
  }

  /** `range` is no longer in flight: settled, or known unknown. */
  doneSending([a, b]: Range): void {
    if (!this.data.sending?.length) return
    this.data.sending = this.data.sending.flatMap(([x, y]): Range[] => {
      if (y < a || x > b) return [[x, y]]
      return [...(x < a ? [[x, a - 1] as Range] : []), ...(y > b ? [[b + 1, y] as Range] : [])]
    })
  }

  /** Writes the file atomically (temp file + rename), mode 0600. */
  save(exitCode: typeof ExitCode.error | typeof ExitCode.usage = ExitCode.error): void {
    if (this.file === null) return
    const tmp = `${this.file}.${process.pid}.tmp`
    try {
      writeFileSync(tmp, `${JSON.stringify(this.data)}\n`, {mode: 0o600})
      renameSync(tmp, this.file)
    } catch (error) {
      rmSync(tmp, {force: true})
      throw fsError(error, 'write the checkpoint', this.file, exitCode, 'give --checkpoint a path in a folder you can write to')
    }
  }
}
