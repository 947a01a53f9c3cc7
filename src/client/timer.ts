// The longest delay one Node timer holds: 2^31-1 ms, about 24.8 days. A longer one fires at once (Node takes
// it as 1 ms, with a TimeoutOverflowWarning), so a request deadline of 3,000,000 s ended every request after
// 1 ms. A setting or flag that becomes a timer is refused past it; a wait that can be longer (a rate budget's
// window, a Retry-After under a long --max-wait) is waited in parts.

/** The longest delay of one timer, in ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** The same in whole seconds (2147483), for the settings and flags given in seconds. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000)

/** Resolves after `ms`, however long: a wait past what one timer holds is waited in parts. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wait = (left: number): void => {
      if (left > MAX_TIMER_MS) setTimeout(() => wait(left - MAX_TIMER_MS), MAX_TIMER_MS)
      else setTimeout(resolve, left)
    }
    wait(ms)
  })
}
