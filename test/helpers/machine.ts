// How slow the machine is right now, for the suite's time limits: vitest.config.ts measures it once before
// the workers start (TILL_TEST_FACTOR, 1 on a quiet machine) and every limit a test or a helper sets is
// scaled by it. Tests wait for conditions, never for a time: a limit only says when to give up on one.
export const FACTOR = Math.max(1, Number(process.env.TILL_TEST_FACTOR) || 1)

/** A time limit in milliseconds, as long as the machine needs today. */
export const scaled = (ms: number): number => Math.round(ms * FACTOR)

/**
 * Polls `check` until it gives a value (not undefined or false), every 50 ms, and gives up after `ms`
 * (scaled), naming `what` it waited for.
 */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + scaled(ms)
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${scaled(ms)} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Polls `check` every `every` ms until it holds, for at most `ms` (scaled); whether it held. For a wait
 * whose caller then asserts what it finds, so that a failure names the thing itself.
 */
export async function waitUntil(check: () => boolean | Promise<boolean>, ms = 10_000, every = 50): Promise<boolean> {
  const deadline = Date.now() + scaled(ms)
  for (;;) {
    if (await check()) return true
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, every))
  }
}
