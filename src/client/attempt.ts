// One input of a bulk job, as the client sees it while acting on it. A job resumed after it was stopped
// (killed, a closed laptop) may have sent an input's write without recording the answer: that write is
// settled as one whose answer was lost (src/client/settlement.ts), before anything is sent again. And a
// write found already done (by the resumed job's settlement, or by a command that sees the state it asks
// for already holds) is reported as "already done", not as done now.
import {AsyncLocalStorage} from 'node:async_hooks'

export interface Attempt {
  /** An earlier run of the job may have sent this input's writes (its answer was never recorded). */
  earlier: boolean
  /** Why the input needed nothing done now, once something found that. */
  alreadyDone?: string
}

const attempts = new AsyncLocalStorage<Attempt>()

/** Runs `fn` (and everything it awaits) as the attempt `attempt`. */
export const runAttempt = <T>(attempt: Attempt, fn: () => Promise<T>): Promise<T> => attempts.run(attempt, fn)

/** The attempt being made, when acting on one input of a bulk job. */
export const currentAttempt = (): Attempt | undefined => attempts.getStore()

/** Says that the current input was already done (outside a bulk job, nothing happens). */
export function markAlreadyDone(reason: string): void {
  const attempt = attempts.getStore()
  if (attempt && attempt.alreadyDone === undefined) attempt.alreadyDone = reason
}
