// Client-side pacing: keeps requests inside the service's rate budgets (spec §8) so that 429s are rare.
// Each budget is a sliding log of send times: at most `limit` requests in any `windowMs` (plus a margin).
// Staying inside every sliding window also stays inside the server's fixed windows, whatever their phase.
// The log is kept in a small lock-protected file, so concurrent till processes of one profile share it.
import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname} from 'node:path'

import {withLock} from './lockfile.js'

export interface Budget {
  /** Name of the log in the shared state (`minute`, `ip`, `license-keys`). */
  name: string
  limit: number
  windowMs: number
  /** Extra spacing beyond the window; by default 2% of it, at least 25 ms. */
  marginMs?: number
}

export type PaceState = Record<string, number[]>

/** Extra spacing beyond the window, for clock and network jitter between us and the server. */
export const marginMs = (b: Budget) => b.marginMs ?? Math.max(25, Math.round(b.windowMs * 0.02))

/** Milliseconds to wait before one more request fits every budget (0: send now). Pure. */
export function delayFor(state: PaceState, budgets: Budget[], now: number): number {
  let wait = 0
  for (const b of budgets) {
    const span = b.windowMs + marginMs(b)
    const log = (state[b.name] ?? []).filter((t) => t > now - span)
    state[b.name] = log
    if (log.length >= b.limit) wait = Math.max(wait, log[log.length - b.limit]! + span - now)
  }
  return wait
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

export interface PacerOptions {
  /** Shared state file; without one the log lives in this process only. */
  statePath?: string
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Told about each wait (for --debug). */
  onWait?: (ms: number, budget: string) => void
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

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

export class Pacer {
  private memory: PaceState = {}
  private folderMade = false
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly options: PacerOptions = {}) {
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? realSleep
  }

  /** Waits until one more request fits every budget, and counts it. */
  async acquire(budgets: Budget[]): Promise<Ticket> {
    if (budgets.length === 0) return {budgets, at: this.now()}
    for (;;) {
      const {wait, at} = await this.update(
        (state) => {
          const now = this.now()
          const wait = delayFor(state, budgets, now)
          if (wait === 0) record(state, budgets, now)
          return {wait, at: now}
        },
        // a request that must wait counted nothing: the shared file stays as it is
        ({wait}) => wait === 0,
      )
      if (wait === 0) return {budgets, at}
      const tightest = budgets.find((b) => (this.memory[b.name] ?? []).length >= b.limit)?.name ?? budgets[0]!.name
      this.options.onWait?.(wait, tightest)
      await this.sleep(wait)
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
      if (changed(result)) {
        const tmp = `${path}.${process.pid}.tmp`
        writeFileSync(tmp, JSON.stringify(state), {mode: 0o600})
        renameSync(tmp, path)
      }
      this.memory = state
      return result
    })
  }
}

function readState(path: string): PaceState {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PaceState) : {}
  } catch {
    // Missing or damaged: start a fresh log (the worst case is one 429 and a Retry-After wait).
    return {}
  }
}
