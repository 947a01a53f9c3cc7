// Durations on the command line: `250ms`, `2s`, `1.5s`, `5m`, `1h`; a bare number is seconds.
const UNITS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** Milliseconds of `text`, or an Error naming the accepted forms. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text)
  if (!match) throw new Error(`"${text}" is not a duration; use e.g. 500ms, 2s, 5m or 1h`)
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!)
}
