// Durations on the command line: `250ms`, `2s`, `1.5s`, `5m`, `1h`; a bare number is seconds.
import {MAX_TIMER_MS} from './timer.js'

const UNITS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** Milliseconds of `text`, or an Error naming the accepted forms. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text)
  if (!match) throw new Error(`"${text}" is not a duration; use e.g. 500ms, 2s, 5m or 1h`)
  const ms = Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!)
  // each is a timer's delay, or a time a timer waits for: one past what a timer holds would fire at once
  if (ms > MAX_TIMER_MS) throw new Error(`"${text}" is longer than a timer can wait; give at most ${Math.floor(MAX_TIMER_MS / 3_600_000)}h (about 24 days)`)
  return ms
}
