// The journal of a bulk job: a writing command acting on ids read from stdin. Each input's outcome is
// appended to a file in till's data folder as soon as it is known (one line, one `write` to a file opened
// for appending: a process killed at any point leaves every line it wrote), and a line before an input is
// acted on says its writes may have gone out. A job is the command, its arguments and flags (not the
// output ones), the profile and its environment, and the ids in order: the same command run again with
// the same input finds its journal. The journal of a job whose every input ended ok or already done is
// removed; a lock file keeps two runs from using one journal.
import {createHash} from 'node:crypto'
import {closeSync, mkdirSync, openSync, rmSync, writeSync} from 'node:fs'
import {join} from 'node:path'

import {fsError} from '../client/fs-problem.js'
import {holdLock, type HeldLock} from '../client/lockfile.js'
import {MiB, readOwnText} from '../client/own-file.js'
import {ExitCode, TillError} from '../client/till-error.js'
import type {BulkResult, BulkStatus, RunHooks} from './bulk.js'
import {DeclinedError} from './prompt.js'

/** A line per id (under 200 bytes) of a job of a million ids is well under this; the most a string holds is about 512 MiB. */
const JOURNAL_MAX_BYTES = 400 * MiB

/** Flags that change how results are shown, or whether a question is asked, but not what is done. */
const NOT_THE_JOB = new Set([
  'resume',
  'restart',
  'output',
  'columns',
  'header',
  'envelope',
  'json',
  'color',
  'debug',
  'yes',
  'no-input',
  'max-wait',
  'profile',
  'dry-run',
])

export interface Job {
  /** The command, `orders invoice generate`. */
  command: string
  profile: string
  environment: string
  baseUrl: string
  args: Record<string, unknown>
  flags: Record<string, unknown>
  ids: readonly string[]
}

/** What an earlier run recorded of one input. */
export interface Entry {
  /** Its writes may have been sent. */
  sent: boolean
  status?: BulkStatus
  exit_code?: number
}

const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)))

/** The hash naming a job: the same command, flags, profile and input give the same hash. Pure. */
export function jobHash(job: Job): string {
  const flags = Object.fromEntries(Object.entries(job.flags).filter(([name, value]) => !NOT_THE_JOB.has(name) && value !== undefined))
  const what = JSON.stringify([job.command, job.profile, job.environment, job.baseUrl, sorted(job.args), sorted(flags)])
  return createHash('sha256').update(what).update('\n').update(job.ids.join('\n')).digest('hex')
}

/** The journal's file for `job` in `dir`: `orders-invoice-generate-<hash>.jsonl`. */
export const journalFile = (dir: string, job: Job) => join(dir, `${job.command.replace(/[^a-z0-9]+/gi, '-')}-${jobHash(job).slice(0, 24)}.jsonl`)

/** The entries of a journal's text by input index; a line cut short (a crash mid-line) is skipped. Pure. */
export function parseJournal(text: string): Map<number, Entry> {
  const entries = new Map<number, Entry>()
  for (const line of text.split('\n')) {
    let record: {i?: unknown; sent?: unknown; status?: BulkStatus; exit_code?: number}
    try {
      record = JSON.parse(line)
    } catch {
      continue
    }
    if (typeof record?.i !== 'number') continue
    const entry = entries.get(record.i) ?? {sent: false}
    if (record.sent === true) entries.set(record.i, {sent: true})
    else if (typeof record.status === 'string') entries.set(record.i, {...entry, status: record.status, exit_code: record.exit_code})
  }
  return entries
}

const isDone = (e: Entry | undefined) => e?.status === 'ok' || e?.status === 'already done'

/**
 * Whether the writes of an input may have gone out without their answer being recorded: sent, and then
 * no outcome, an unknown one, or a failure that is not a refusal (the network, the rate limit). Pure.
 */
export const mayHaveBeenSent = (e: Entry | undefined) =>
  e?.sent === true && (e.status === undefined || e.status === 'unknown' || (e.status === 'failed' && (e.exit_code === 5 || e.exit_code === 6)))

/** `150 of 200 ids done, 2 failed, 1 of unknown outcome`. */
export function progressText(entries: Map<number, Entry>, total: number): string {
  let done = 0
  let failed = 0
  let unknown = 0
  for (const e of entries.values()) {
    if (isDone(e)) done++
    else if (e.status === 'failed') failed++
    else if (e.status === 'unknown' || e.sent) unknown++
  }
  return `${done} of ${total} ids done${failed ? `, ${failed} failed` : ''}${unknown ? `, ${unknown} of unknown outcome` : ''}`
}

export class Journal {
  private constructor(
    readonly file: string,
    /** What the earlier runs recorded (empty for a new job). */
    readonly earlier: Map<number, Entry>,
    private fd: number | null,
    private lock: HeldLock | null,
  ) {}

  /** Takes the job's lock (or fails naming the run that holds it) and reads what earlier runs recorded. */
  static claim(dir: string, job: Job): {file: string; earlier: Map<number, Entry> | undefined; lock: HeldLock} {
    const file = journalFile(dir, job)
    let lock: ReturnType<typeof holdLock>
    try {
      mkdirSync(dir, {recursive: true, mode: 0o700})
      lock = holdLock(`${file}.lock`)
    } catch (error) {
      throw fsError(error, 'write the journal', dir, ExitCode.error, "check that till's data folder (TILL_DATA_DIR) can be written to")
    }
    if (!('release' in lock)) {
      throw new TillError(
        `another till ${job.command} is running this job with the same input${lock.heldBy === null ? '' : ` (pid ${lock.heldBy})`}`,
        ExitCode.busy,
        `wait for it to end (two runs of one job would act on the same ids twice); if none is running, delete ${file}.lock`,
      )
    }
    try {
      return {file, earlier: parseJournal(readOwnText(file, JOURNAL_MAX_BYTES)), lock}
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {file, earlier: undefined, lock}
      lock.release()
      throw fsError(error, 'read the journal', file, ExitCode.error, `delete ${file} to start over`)
    }
  }

  /** Opens the claimed journal for appending: a new one (its first line says what job it is) or an earlier one. */
  static open(claim: {file: string; earlier: Map<number, Entry> | undefined; lock: HeldLock}, job: Job): Journal {
    const fresh = claim.earlier === undefined
    try {
      if (fresh) rmSync(claim.file, {force: true})
      const fd = openSync(claim.file, 'a', 0o600)
      const journal = new Journal(claim.file, claim.earlier ?? new Map(), fd, claim.lock)
      journal.append(
        fresh
          ? {
              till_journal: 1,
              command: job.command,
              profile: job.profile,
              environment: job.environment,
              ids: job.ids.length,
              started_at: new Date().toISOString(),
            }
          : {resumed_at: new Date().toISOString()},
      )
      return journal
    } catch (error) {
      claim.lock.release()
      throw error instanceof TillError
        ? error
        : fsError(error, 'write the journal', claim.file, ExitCode.error, "check that till's data folder (TILL_DATA_DIR) can be written to")
    }
  }

  private append(record: object): void {
    if (this.fd === null) return
    try {
      writeSync(this.fd, `${JSON.stringify(record)}\n`)
    } catch (error) {
      throw fsError(error, 'write the journal', this.file, ExitCode.error, "check that till's data folder (TILL_DATA_DIR) can be written to")
    }
  }

  /** The hooks that record a run in this journal and skip what earlier runs did. */
  hooks<T>(): RunHooks<T> {
    return {
      known: (index, id) =>
        isDone(this.earlier.get(index)) ? {id, ok: true, status: 'already done', reason: 'done by an earlier run of this job'} : undefined,
      earlier: (index) => mayHaveBeenSent(this.earlier.get(index)),
      started: (index, id) => this.append({i: index, id, sent: true}),
      finished: (index, r: BulkResult<T>) =>
        this.append(
          r.error ? {i: index, id: r.id, status: r.status, exit_code: r.error.exit_code, error: r.error.message} : {i: index, id: r.id, status: r.status},
        ),
    }
  }

  /** How many inputs earlier runs did. */
  get doneBefore(): number {
    return [...this.earlier.values()].filter(isDone).length
  }

  /** Closes the file and lets another run use the journal (done at exit at the latest). */
  close(): void {
    if (this.fd !== null) closeSync(this.fd)
    this.fd = null
    this.lock?.release()
    this.lock = null
  }

  /** The job is finished: its journal goes. */
  remove(): void {
    if (this.fd !== null) closeSync(this.fd)
    this.fd = null
    rmSync(this.file, {force: true})
    this.close()
  }
}

/**
 * Whether a stopped run is carried on: --resume says yes, else the question on a terminal (yes by
 * default); without a terminal, exit 13 naming --resume and --restart. `doing` and `rest` say what carrying
 * on does (`acting only on...`, `act only on the ids it did not finish`); `earlier` names the run (`till
 * orders invoice generate with this input`). Call it only when there is a stopped run and no --restart.
 */
export async function resumeStopped(
  ask: (question: string, fallback: boolean) => Promise<boolean | undefined>,
  o: {resume?: boolean; what: string; earlier: string; progress: string; file: string; doing: string; rest: string},
): Promise<void> {
  if (o.resume) return
  const resume = await ask(`An earlier run of this ${o.what} was stopped (${o.progress}). Resume it, ${o.doing}?`, true)
  if (resume === undefined)
    throw new TillError(
      `an earlier run of ${o.earlier} was stopped (${o.progress}; journal ${o.file})`,
      ExitCode.unfinished,
      `run it again with --resume to ${o.rest}, or with --restart to start over`,
    )
  if (!resume) throw new DeclinedError('nothing was sent', 'run it again with --restart to start over, or with --resume to carry on')
}
