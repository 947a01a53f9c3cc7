// Client-side pacing: keeps requests inside the service's rate budgets (server/polar/rate_limit.py): 429s are rare.
// Each budget is a sliding log of send times: at most `limit` requests in any `windowMs` (plus a margin).
// Staying inside every sliding window also stays inside the server's fixed windows, whatever their phase.
// The log is kept in a small lock-protected file, so concurrent till processes of one profile share it.
// So is what a 429 taught: its Retry-After deadline is a hold in the same file, and every process whose
// requests the refusing limit covers waits it out instead of drawing a 429 of its own.
import {closeSync, constants, ftruncateSync, mkdirSync, openSync, writeSync} from 'node:fs'
import {dirname} from 'node:path'

import {withLock} from './lockfile.js'
import {MiB, readOwnText} from './own-file.js'
import {sleep} from './timer.js'

export interface Budget {
  /** Name of the log in the shared state (`minute`, `ip`, `license-keys`). */
  name: string
  limit: number
  windowMs: number
  /** Extra spacing beyond the window; by default 2% of it, at least 25 ms. */
  marginMs?: number
}

/** Budget logs by name, and holds (`hold:<budget names>` → `[deadline]`) left by 429 answers. */
export type PaceState = Record<string, number[]>

/** Extra spacing beyond the window, for clock and network jitter between us and the server. */
export const marginMs = (b: Budget) => b.marginMs ?? Math.max(25, Math.round(b.windowMs * 0.02))

/** Milliseconds to wait before one more request fits every budget (0: send now). Pure. */
export function delayFor(state: PaceState, budgets: Budget[], now: number): number {
  let wait = 0
  for (const b of budgets) {
    const span = b.windowMs + marginMs(b)
    const log = recent(state[b.name] ?? [], now - span)
    state[b.name] = log
    if (log.length >= b.limit) wait = Math.max(wait, log[log.length - b.limit]! + span - now)
  }
  return wait
}

/**
 * The entries of `log` after `since`. A loop, not `filter` with an arrow: the arrow would be a new closure at
 * each request, and V8 optimized each one anew (a stream of 2,000 pages compiled it 120 times).
 */
function recent(log: number[], since: number): number[] {
  const kept: number[] = []
  for (const t of log) if (t > since) kept.push(t)
  return kept
}

/** Records one request sent at `now` in every budget's log, keeping only what the limits need. */
export function record(state: PaceState, budgets: Budget[], now: number): void {
  for (const b of budgets) {
    const log = state[b.name] ?? []
    log.push(now)
    if (log.length > b.limit) log.splice(0, log.length - b.limit)
    state[b.name] = log
  }
}

const HOLD = 'hold:'

/** The key of a hold for requests counted against `budgets` (order-free). */
export const holdKey = (budgets: Budget[]) =>
  HOLD +
  budgets
    .map((b) => b.name)
    .sort()
    .join('+')

/**
 * Records that a request counted against `budgets` was refused until `until` (epoch ms). Pure. A later
 * deadline for the same budgets wins; an earlier one never shortens a hold.
 */
export function hold(state: PaceState, budgets: Budget[], until: number): void {
  const key = holdKey(budgets)
  const current = deadlineOf(state[key])
  state[key] = [Math.max(current, until)]
}

/**
 * Milliseconds until every hold that covers a request counted against `budgets` has passed (0: none).
 * The limit that refused a request is one of its budgets, unknown which: a hold covers the requests
 * counted against all of its budgets (the same route or a wider one), not those that share only some
 * (a 429 on the 3/s license-key route does not stop the others). Drops holds that have passed. Pure.
 */
export function holdFor(state: PaceState, budgets: Budget[], now: number): number {
  const names = new Set(budgets.map((b) => b.name))
  let wait = 0
  for (const key of Object.keys(state)) {
    if (!key.startsWith(HOLD)) continue
    const until = deadlineOf(state[key])
    if (until <= now) {
      delete state[key]
      continue
    }
    if (
      key
        .slice(HOLD.length)
        .split('+')
        .every((name) => names.has(name))
    )
      wait = Math.max(wait, until - now)
  }
  return wait
}

function deadlineOf(entry: unknown): number {
  const value = Array.isArray(entry) ? entry[0] : undefined
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

export interface PacerOptions {
  /** Shared state file; without one the log lives in this process only. */
  statePath?: string
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /**
   * Told about each wait for a budget: how long, the budget's name, and how many of the requests in its
   * log that the wait is for were sent by others (other processes sharing the state file), not this pacer.
   */
  onWait?: (ms: number, budget: string, others: number) => void
}

/** A request given up while it waited for its budget: nothing of it was sent. */
export class NotSentError extends Error {
  constructor() {
    super('stopped before it was sent (it was waiting for the rate budget)')
    this.name = 'NotSentError'
  }
}

/** Waits `ms` with `sleep`, or throws NotSentError as soon as `unsent` is aborted. */
async function waitUnlessStopped(sleep: (ms: number) => Promise<void>, ms: number, unsent?: AbortSignal): Promise<void> {
  if (!unsent) return sleep(ms)
  if (unsent.aborted) throw new NotSentError()
  let stop: () => void = () => {}
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(new NotSentError())
    unsent.addEventListener('abort', stop, {once: true})
  })
  try {
    await Promise.race([sleep(ms), stopped])
  } finally {
    unsent.removeEventListener('abort', stop)
  }
}

/** A counted request: `settle` moves its entry to when its answer came back. */
export interface Ticket {
  budgets: Budget[]
  at: number
}

/** Moves the entry recorded at `from` to `to` in every budget's log, keeping the logs sorted. Pure. */
export function moveEntry(state: PaceState, budgets: Budget[], from: number, to: number): void {
  for (const b of budgets) {
    const log = state[b.name]
    const at = log?.indexOf(from) ?? -1
    if (!log || at < 0) continue
    log.splice(at, 1)
    let i = log.length
    while (i > 0 && log[i - 1]! > to) i--
    log.splice(i, 0, to)
  }
}

/** A 429 hold about to be waited out. */
export interface Held {
  ms: number
  /** The deadline (epoch ms): requests waiting on the same one share it. */
  until: number
  /** Set by this pacer's own 429, not by another process's. */
  own: boolean
}

/** Told before the pacer waits out a 429 hold; it may throw to give up instead (the client does, past --max-wait). */
export type HoldGate = (held: Held) => Promise<void> | void

export class Pacer {
  private memory: PaceState = {}
  /** The last deadline this pacer held its budgets to (to tell its own holds from others'). */
  private ownHold = 0
  /** The entries this pacer put in the logs (send times, moved to answer times): the others' are the rest. */
  private readonly mine = new Set<number>()
  private folderMade = false
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly options: PacerOptions = {}) {
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? sleep
  }

  /**
   * Waits until no 429 hold covers the request and one more request fits every budget, and counts it.
   * `gate` is told about each hold before it is waited out. Aborting `unsent` ends the wait with a
   * NotSentError (the first Ctrl-C of a bulk job drops what is not on the wire yet).
   */
  async acquire(budgets: Budget[], gate?: HoldGate, unsent?: AbortSignal): Promise<Ticket> {
    if (unsent?.aborted) throw new NotSentError()
    if (budgets.length === 0) return this.acquireUnpaced(gate, unsent)
    for (;;) {
      const {wait, held, until, at} = await this.update(
        (state) => {
          const now = this.now()
          const held = holdFor(state, budgets, now)
          const wait = held > 0 ? held : delayFor(state, budgets, now)
          if (wait === 0) record(state, budgets, now)
          return {wait, held: held > 0, until: now + held, at: now}
        },
        // a request that must wait counted nothing: the shared file stays as it is
        ({wait}) => wait === 0,
      )
      if (wait === 0) {
        this.keepMine(at)
        return {budgets, at}
      }
      if (held) {
        await gate?.({ms: wait, until, own: until <= this.ownHold})
        await waitUnlessStopped(this.sleep, wait, unsent)
        continue
      }
      const tightest = budgets.find((b) => (this.memory[b.name] ?? []).length >= b.limit) ?? budgets[0]!
      const log = this.memory[tightest.name] ?? []
      const others = log.slice(-tightest.limit).filter((t) => !this.mine.has(t)).length
      this.options.onWait?.(wait, tightest.name, others)
      await waitUnlessStopped(this.sleep, wait, unsent)
    }
  }

  /**
   * Once the answer is back, counts the request as made then: the server counted it on arrival, at the
   * latest now. Start-up, locking and connecting under load can put hundreds of ms between the two.
   */
  async settle(ticket: Ticket): Promise<void> {
    const now = this.now()
    if (ticket.budgets.length === 0 || now <= ticket.at) return
    await this.update((state) => moveEntry(state, ticket.budgets, ticket.at, now))
    this.mine.delete(ticket.at)
    this.keepMine(now)
  }

  /** Notes an entry of this pacer's, forgetting those the logs no longer hold. */
  private keepMine(at: number): void {
    this.mine.add(at)
    if (this.mine.size <= 1000) return
    const held = new Set(Object.values(this.memory).flat())
    for (const t of this.mine) if (!held.has(t)) this.mine.delete(t)
  }

  /** Without budgets nothing is counted or shared, but this pacer's own 429s are still waited out. */
  private async acquireUnpaced(gate?: HoldGate, unsent?: AbortSignal): Promise<Ticket> {
    for (let wait = this.ownHold - this.now(); wait > 0; wait = this.ownHold - this.now()) {
      await gate?.({ms: wait, until: this.ownHold, own: true})
      await waitUnlessStopped(this.sleep, wait, unsent)
    }
    return {budgets: [], at: this.now()}
  }

  /** Holds every request that `budgets` cover until `until` (a 429's Retry-After), here and in the shared file. */
  async hold(budgets: Budget[], until: number): Promise<void> {
    this.ownHold = Math.max(this.ownHold, until)
    if (budgets.length > 0) await this.update((state) => hold(state, budgets, until))
  }

  /** Applies `change` to the log: in memory, or in the shared file under its lock (saved when `changed`). */
  private async update<T>(change: (state: PaceState) => T, changed: (result: T) => boolean = () => true): Promise<T> {
    const path = this.options.statePath
    if (!path) return change(this.memory)
    if (!this.folderMade) {
      mkdirSync(dirname(path), {recursive: true, mode: 0o700})
      this.folderMade = true
    }
    return withLock(`${path}.lock`, () => {
      const state = readState(path)
      const result = change(state)
      // Written in place: every reader takes the same lock, so none sees it half-written, and a process
      // killed while writing leaves a damaged file that the next reader takes for a fresh log.
      if (changed(result)) writeInPlace(path, JSON.stringify(state))
      this.memory = state
      return result
    })
  }
}

/**
 * Overwrites the file's bytes, then cuts it to their length. Not truncated to nothing first, nor replaced
 * by a renamed temporary file: ext4 flushes a file's data to disk on close after either, which makes
 * each of the two updates of a request cost far more (milliseconds on a busy disk) than this way.
 */
function writeInPlace(path: string, text: string): void {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600)
  try {
    const bytes = Buffer.from(text)
    writeSync(fd, bytes, 0, bytes.length, 0)
    ftruncateSync(fd, bytes.length)
  } finally {
    closeSync(fd)
  }
}

function readState(path: string): PaceState {
  try {
    const parsed = JSON.parse(readOwnText(path, MiB)) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PaceState) : {}
  } catch {
    // Missing or damaged: start a fresh log (the worst case is one 429 and a Retry-After wait).
    return {}
  }
}
