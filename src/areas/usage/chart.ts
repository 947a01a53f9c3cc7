// The chart of a meter's quantities on a terminal: a line (asciichart) fitted to the terminal's width,
// the quantity axis labelled on the left and the periods under it.
import {createRequire} from 'node:module'

interface AsciiChart {
  plot(series: number[], config?: {height?: number; format?: (x: number) => string}): string
}

const require = createRequire(import.meta.url)

export interface Period {
  timestamp: string
  quantity: number
}

/**
 * `2026-01-05`, `2026-01-05 13:00`, `2026-01`, `2026` as fits the interval, in the time zone the
 * timestamp is written in (the periods of `--timezone` start at local midnight).
 */
export function periodLabel(timestamp: string, interval: string): string {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(timestamp) ? timestamp : new Date(timestamp).toISOString()
  if (interval === 'hour') return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
  if (interval === 'month') return iso.slice(0, 7)
  if (interval === 'year') return iso.slice(0, 4)
  return iso.slice(0, 10)
}

/** Averages neighbouring points so that at most `width` remain (sums would change the scale). Pure. */
export function shrink(values: number[], width: number): number[] {
  if (values.length <= width) return values
  const out: number[] = []
  const step = values.length / width
  for (let i = 0; i < width; i++) {
    const from = Math.floor(i * step)
    const to = Math.max(from + 1, Math.floor((i + 1) * step))
    const part = values.slice(from, to)
    out.push(part.reduce((a, b) => a + b, 0) / part.length)
  }
  return out
}

/** Repeats each point so that a few periods still use the width (each period a step). Pure. */
export function stretch(values: number[], width: number): number[] {
  const times = Math.floor(width / Math.max(1, values.length))
  return times <= 1 ? values : values.flatMap((v) => Array<number>(times).fill(v))
}

const compact = (x: number) => {
  const abs = Math.abs(x)
  if (abs >= 1e9) return `${(x / 1e9).toFixed(1)}G`
  if (abs >= 1e6) return `${(x / 1e6).toFixed(1)}M`
  if (abs >= 1e4) return `${(x / 1e3).toFixed(1)}k`
  return Number.isInteger(x) ? String(x) : x.toFixed(2)
}

/** The chart as text lines, `columns` wide at most; empty when there is nothing to draw. */
export function chart(periods: Period[], interval: string, columns: number, title: string): string {
  if (periods.length === 0) return ''
  const asciichart = require('asciichart') as AsciiChart
  const labelWidth = 10
  const width = Math.max(10, columns - labelWidth - 3)
  const series = stretch(
    shrink(
      periods.map((p) => p.quantity),
      width,
    ),
    width,
  )
  // a single point draws nothing: repeat it
  const drawn = series.length === 1 ? [series[0]!, series[0]!] : series
  const plot = asciichart.plot(drawn, {height: 10, format: (x) => compact(x).padStart(labelWidth)})
  const first = periodLabel(periods[0]!.timestamp, interval)
  const last = periodLabel(periods.at(-1)!.timestamp, interval)
  const axisStart = labelWidth + 2
  const span = drawn.length
  const gap = Math.max(1, span - first.length - last.length)
  const axis = `${' '.repeat(axisStart)}${first}${' '.repeat(gap)}${span > first.length + last.length ? last : ''}`
  return [`${title}`, plot, axis].join('\n')
}
