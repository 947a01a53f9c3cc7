// Terminal charts of metrics (asciichart): one line chart per metric, as wide as the terminal, its
// y axis labelled in the metric's unit (money in the organization's currency), an x axis with the first,
// middle and last period, and a heading with the total and its change against the previous range.
import asciichart from 'asciichart'
import type {ChalkInstance} from 'chalk'

import {formatMoney} from '../../cli/output/format.js'
import type {MetricDefinition, MetricInterval, MetricsResponse} from '../../client/resources/metrics.js'
import {metricDefinition} from './definitions.js'

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
    `total ${formatValue(total, def.type, o.currency)}`,
    delta === null || before === undefined ? null : `${delta} vs ${o.previousLabel} (${formatValue(before, def.type, o.currency)})`,
  ].filter((p): p is string => p !== null)
  const heading = wrapParts(parts, o.width).replace(parts[0]!, o.chalk.bold(parts[0]!))

  const labels = values.map((v) => formatValue(v, def.type, o.currency))
  const labelWidth = Math.max(...labels.map((l) => l.length), formatValue(0, def.type, o.currency).length) + 1
  const plotWidth = Math.max(10, o.width - labelWidth - 3)
  const series = resample(values.length > 0 ? values : [0], plotWidth)
  const flat = Math.min(...series) === Math.max(...series)
  const plot = asciichart.plot(series, {
    height: o.height ?? 8,
    padding: ' '.repeat(labelWidth),
    format: (x) => formatValue(x, def.type, o.currency).padStart(labelWidth),
    ...(flat ? {min: Math.min(0, series[0]!), max: Math.max(1, series[0]!)} : {}),
    ...(o.color ? {colors: [asciichart.cyan]} : {}),
  })
  const label = (p: {timestamp: string} | undefined) => (p ? periodLabel(String(p.timestamp), o.interval) : '')
  const first = label(current.periods[0])
  const last = label(current.periods.at(-1))
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
