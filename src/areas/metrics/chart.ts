// Terminal charts of metrics (asciichart): one line chart per metric, as wide as the terminal, its
// y axis labelled in the metric's unit (money in the organization's currency), an x axis with the first,
// middle and last period (a `*` on one the range cuts short), and a heading with the figure over the range
// (the total, the latest value of a gauge, or the average) and its change against the previous range.
import asciichart from 'asciichart'
import type {ChalkInstance} from 'chalk'

import {formatMoney} from '../../cli/output/format.js'
import type {MetricDefinition, MetricInterval, MetricsResponse} from '../../client/resources/metrics.js'
import {metricDefinition, totalKind} from './definitions.js'

/** A metric's value in its unit: money (cents in), percent, or a count. */
export function formatValue(value: number, type: MetricDefinition['type'], currency: string): string {
  if (type === 'currency' || type === 'currency_sub_cent') return formatMoney(Math.round(value), currency, {grouping: true})
  if (type === 'percentage') return `${(value * 100).toFixed(1)}%`
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2)
}

/** Change from `before` to `now`, e.g. `+12.5%`; null when there is nothing to compare with. */
export function change(now: number, before: number): string | null {
  if (before === 0) return now === 0 ? '0.0%' : null
  const pct = ((now - before) / Math.abs(before)) * 100
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`
}

/** A period's start as a short label for the interval. */
export function periodLabel(timestamp: string, interval: MetricInterval): string {
  const date = timestamp.slice(0, 10)
  if (interval === 'year') return date.slice(0, 4)
  if (interval === 'month') return date.slice(0, 7)
  if (interval === 'hour') return timestamp.slice(0, 16).replace('T', ' ')
  return date
}

/** `values` stretched or squeezed to `width` columns (each column takes the value of the period under it). */
export function resample(values: number[], width: number): number[] {
  if (values.length === 0) return []
  return Array.from({length: Math.max(2, width)}, (_, x) => values[Math.min(values.length - 1, Math.floor((x * values.length) / Math.max(2, width)))]!)
}

/** Parts joined with " · ", starting a new line where the next part would pass `width`. */
export function wrapParts(parts: string[], width: number): string {
  const lines: string[] = []
  for (const part of parts) {
    const last = lines.at(-1)
    if (last !== undefined && last.length + 3 + part.length <= width) lines[lines.length - 1] = `${last} · ${part}`
    else lines.push(part)
  }
  return lines.join('\n')
}

export interface Scale {
  min: number
  max: number
  /** Rows between min and max. */
  height: number
}

/**
 * The y range and rows of a chart. For counts, every labelled row is a whole number: the range is widened
 * to whole numbers and the rows divide it evenly (a range of 4 on 8 rows labels every other row).
 */
export function yScale(values: number[], count: boolean, height = 8): Scale {
  let lo = Math.min(...values)
  let hi = Math.max(...values)
  if (lo === hi) {
    lo = Math.min(0, lo)
    hi = Math.max(1, hi)
  }
  if (!count) return niceScale(lo, hi, height)
  lo = Math.floor(lo)
  hi = Math.ceil(hi)
  const range = hi - lo
  if (range <= height) return {min: lo, max: hi, height: range * Math.floor(height / range)}
  // the smallest whole step whose multiples around the values fit in `height` rows
  for (let step = Math.ceil(range / height); ; step++) {
    const min = Math.floor(lo / step) * step
    const max = Math.ceil(hi / step) * step
    if ((max - min) / step <= height) return {min, max, height: (max - min) / step}
  }
}

/**
 * A scale whose labelled rows are round values ($250.00, not $243.41): the step is 1, 2, 2.5 or 5 times a
 * power of ten, the range widened to its multiples around the values, and the rows a multiple of the
 * steps (at most `height`), so that each row falls on a step or evenly between two.
 */
function niceScale(lo: number, hi: number, height: number): Scale {
  const magnitude = 10 ** Math.floor(Math.log10((hi - lo) / height))
  for (const m of [1, 2, 2.5, 5, 10, 20]) {
    const step = m * magnitude
    const min = Math.floor(lo / step) * step
    const max = Math.ceil(hi / step) * step
    const steps = Math.round((max - min) / step)
    if (steps <= height) return {min, max, height: steps * Math.max(1, Math.floor(height / steps))}
  }
  return {min: lo, max: hi, height}
}

/** The value of each labelled row of a scale, top first. */
export const ticks = (scale: Scale): number[] => Array.from({length: scale.height + 1}, (_, j) => scale.max - (j * (scale.max - scale.min)) / scale.height)

/**
 * The parts of the line under the charts' title naming the periods the range cuts short (marked `*` on the
 * axis), e.g. `* partial periods: 2025-11 from 2025-11-27` and `2026-11 up to 2026-11-26`; none when none is.
 */
export function partialNote(
  periods: Array<{timestamp: unknown}>,
  range: {startDate: string; endDate: string; interval: MetricInterval},
  partial: {first: boolean; last: boolean},
): string[] {
  const label = (p: {timestamp: unknown} | undefined) => (p ? periodLabel(String(p.timestamp), range.interval) : '')
  const parts: string[] = []
  if (partial.first && periods.length > 0) parts.push(`${label(periods[0])} from ${range.startDate}`)
  if (partial.last && periods.length > 1) parts.push(`${label(periods.at(-1))} up to ${range.endDate}`)
  if (partial.last && periods.length === 1) parts[0] = `${label(periods[0])} only ${range.startDate} to ${range.endDate}`
  if (parts.length === 0) return []
  parts[0] = `* partial period${parts.length > 1 ? 's' : ''}: ${parts[0]}`
  return parts
}

export interface ChartOptions {
  /** Terminal columns. */
  width: number
  height?: number
  currency: string
  interval: MetricInterval
  chalk: ChalkInstance
  color: boolean
  /** What the previous range was, for the change (e.g. "previous 12 months"). */
  previousLabel: string
  /** Whether the first and last periods are cut short by the range: their axis labels get a `*`. */
  partial?: {first: boolean; last: boolean}
}

/** One metric's chart as lines of text, no wider than `width`. */
export function metricChart(slug: string, current: MetricsResponse, previous: MetricsResponse | undefined, o: ChartOptions): string {
  // every metric of an answer may be null: its definition, its total, each period's value
  const def = metricDefinition(current, slug).definition
  const values = current.periods.map((p) => Number(p[slug] ?? 0))
  const total = (current.totals[slug] as number | null | undefined) ?? 0
  const before = (previous?.totals[slug] as number | null | undefined) ?? undefined
  const delta = before === undefined ? null : change(total, before)
  const unit = def.type === 'currency' || def.type === 'currency_sub_cent' ? ` (${o.currency.toUpperCase()})` : def.type === 'percentage' ? ' (%)' : ''
  const parts = [
    `${def.display_name}${unit}`,
    `${totalKind(slug)} ${formatValue(total, def.type, o.currency)}`,
    delta === null || before === undefined ? null : `${delta} vs ${o.previousLabel} (${formatValue(before, def.type, o.currency)})`,
  ].filter((p): p is string => p !== null)
  const heading = wrapParts(parts, o.width).replace(parts[0]!, o.chalk.bold(parts[0]!))

  // counts are labelled on whole numbers only; every label has the width of the widest, so the axis is straight
  const count = def.type === 'scalar'
  const scale = yScale(values.length > 0 ? values : [0], count, o.height ?? 8)
  const tick = (x: number): string => {
    if (!count) return formatValue(x, def.type, o.currency)
    const whole = Math.round(x)
    return Math.abs(x - whole) < 1e-9 ? formatValue(whole, def.type, o.currency) : ''
  }
  const labelWidth = Math.max(...ticks(scale).map((x) => tick(x).length)) + 1
  const plotWidth = Math.max(10, o.width - labelWidth - 3)
  const series = resample(values.length > 0 ? values : [0], plotWidth)
  const plot = asciichart.plot(series, {
    ...scale,
    padding: ' '.repeat(labelWidth),
    format: (x) => tick(x).padStart(labelWidth),
    ...(o.color ? {colors: [asciichart.cyan]} : {}),
  })
  const label = (p: {timestamp: string} | undefined) => (p ? periodLabel(String(p.timestamp), o.interval) : '')
  const first = label(current.periods[0]) + (o.partial?.first ? '*' : '')
  const last = label(current.periods.at(-1)) + (o.partial?.last && current.periods.length > 1 ? '*' : '')
  const middle = label(current.periods[Math.floor(current.periods.length / 2)])
  const axisStart = labelWidth + 2
  const room = plotWidth - first.length - last.length
  let axis = ' '.repeat(axisStart) + first
  if (room > middle.length + 4 && current.periods.length > 2) {
    const gap = Math.floor((room - middle.length) / 2)
    axis += ' '.repeat(gap) + middle + ' '.repeat(room - gap - middle.length) + last
  } else if (room > 1 && current.periods.length > 1) axis += ' '.repeat(room) + last
  return [heading, plot, o.chalk.dim(axis)]
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.trimEnd())
        .join('\n'),
    )
    .join('\n')
}
