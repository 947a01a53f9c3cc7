import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import type {MetricsResponse} from '../../client/resources/metrics.js'
import {change, formatValue, metricChart, resample, ticks, wrapParts, yScale} from './chart.js'
import {metricDefinition, presentMetrics} from './definitions.js'

const response = (values: number[], total: number): MetricsResponse => ({
  periods: values.map((v, i) => ({timestamp: `2026-${String(i + 1).padStart(2, '0')}-01T00:00:00Z`, revenue: v})),
  totals: {revenue: total},
  metrics: {revenue: {slug: 'revenue', display_name: 'Revenue', type: 'currency'}},
})

describe('terminal charts', () => {
  it('formats values in their unit and the change against before', () => {
    expect(formatValue(123_456, 'currency', 'usd')).toBe('$1,234.56')
    expect(formatValue(0.256, 'percentage', 'usd')).toBe('25.6%')
    expect(formatValue(1234, 'scalar', 'usd')).toBe('1,234')
    expect(change(150, 100)).toBe('+50.0%')
    expect(change(50, 100)).toBe('-50.0%')
    expect(change(5, 0)).toBeNull()
  })

  it('stretches or squeezes a series to the width', () => {
    expect(resample([1, 2], 4)).toEqual([1, 1, 2, 2])
    expect(resample([1, 2, 3, 4, 5, 6], 3)).toEqual([1, 3, 5])
    expect(wrapParts(['aaaa', 'bbbb', 'cc'], 11)).toBe('aaaa · bbbb\ncc')
  })

  it('draws within the width with a labelled axis, total and change; colour only when asked', () => {
    const chalk = new Chalk({level: 0})
    const text = metricChart('revenue', response([100, 5000, 2500, 9000], 16_600), response([1000, 1000, 1000, 1000], 4000), {
      width: 50,
      currency: 'eur',
      interval: 'month',
      chalk,
      color: false,
      previousLabel: 'previous 4 months',
    })
    const lines = text.split('\n')
    expect(lines[0]).toBe('Revenue (EUR) · total €166.00')
    expect(lines[1]).toBe('+315.0% vs previous 4 months (€40.00)')
    expect(text).toContain('€100.00') // the top label, round (the largest value is €90.00)
    expect(lines.at(-1)).toMatch(/2026-01 .* 2026-04$/)
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(50)
    expect(text).not.toContain('\x1b[')
  })

  it('charts a metric the answer gives as null (definition, total and values), and lists only those present', () => {
    const nulls = {
      periods: [
        {timestamp: '2026-01-01T00:00:00Z', revenue: null},
        {timestamp: '2026-02-01T00:00:00Z', revenue: 5},
      ],
      totals: {revenue: null},
      metrics: {revenue: null, orders: {slug: 'orders', display_name: 'Orders', type: 'scalar'}},
    } as unknown as MetricsResponse
    const options = {width: 60, currency: 'usd', interval: 'month' as const, chalk: new Chalk({level: 0}), color: false, previousLabel: 'previous 2 months'}
    const chart = metricChart('revenue', nulls, nulls, options)
    expect(chart.split('\n')[0]).toBe('revenue · total 0')
    expect(metricDefinition(nulls, 'revenue')).toEqual({definition: {slug: 'revenue', display_name: 'revenue', type: 'scalar'}, missing: true})
    expect(presentMetrics(nulls).map((m) => m.slug)).toEqual(['orders'])
    expect(metricChart('revenue', {...nulls, periods: []}, undefined, options)).toContain('revenue')
  })
})

describe('chart scales', () => {
  it('counts are labelled on whole numbers only, none repeated, whatever the range', () => {
    for (const values of [
      [0, 1, 1, 0],
      [0, 4, 2],
      [3, 7],
      [5, 21],
      [0, 35],
      [12, 12],
      [0, 1000],
      [2, 3],
    ]) {
      const scale = yScale(values, true)
      expect(scale.height, `${values}`).toBeGreaterThan(0)
      expect(scale.height, `${values}`).toBeLessThanOrEqual(8)
      expect(scale.min).toBeLessThanOrEqual(Math.min(...values))
      expect(scale.max).toBeGreaterThanOrEqual(Math.max(...values))
      const whole = ticks(scale).filter((t) => Math.abs(t - Math.round(t)) < 1e-9)
      expect(whole.length, `${values}: some rows labelled`).toBeGreaterThanOrEqual(2)
      expect(new Set(whole).size).toBe(whole.length)
      // rows fall on whole numbers or evenly between them
      const rowsPerUnit = scale.height / (scale.max - scale.min)
      expect(rowsPerUnit >= 1 ? Number.isInteger(rowsPerUnit) : Number.isInteger(1 / rowsPerUnit)).toBe(true)
    }
  })

  it('an amount chart labels round values ($243.41)', () => {
    for (const values of [
      [24_341, 51_230],
      [0, 99],
      [1_000_000, 1_000_450],
      [0.12, 0.31],
    ]) {
      const scale = yScale(values, false)
      expect(scale.height, `${values}`).toBeLessThanOrEqual(8)
      expect(scale.height, `${values}`).toBeGreaterThan(1)
      expect(scale.min).toBeLessThanOrEqual(Math.min(...values))
      expect(scale.max).toBeGreaterThanOrEqual(Math.max(...values))
      const all = ticks(scale)
      const step = (scale.max - scale.min) / scale.height
      // a tick is a round number: its value with two significant digits of the step at most
      const unit = 10 ** Math.floor(Math.log10(step) - 1)
      for (const t of all) expect(Math.abs(t / unit - Math.round(t / unit)), `${values}: ${all}`).toBeLessThan(1e-6)
    }
    expect(ticks(yScale([24_341, 51_230], false)).every((t) => t % 100 === 0)).toBe(true)
  })

  it('an orders chart shows "total", and its axis labels are whole and aligned', () => {
    const orders: MetricsResponse = {
      periods: [0, 1, 1, 0, 4].map((v, i) => ({timestamp: `2026-${String(i + 1).padStart(2, '0')}-01T00:00:00Z`, orders: v})),
      totals: {orders: 6},
      metrics: {orders: {slug: 'orders', display_name: 'Orders', type: 'scalar'}},
    }
    const text = metricChart('orders', orders, undefined, {
      width: 60,
      currency: 'usd',
      interval: 'month',
      chalk: new Chalk({level: 0}),
      color: false,
      previousLabel: 'x',
      partial: {first: true, last: false},
    })
    const lines = text.split('\n')
    expect(lines[0]).toBe('Orders · total 6')
    const rows = lines.filter((l) => /[┤┼]/.test(l))
    expect(new Set(rows.map((l) => l.search(/[┤┼]/))).size).toBe(1)
    expect(rows.map((l) => l.slice(0, l.search(/[┤┼]/)).trim()).filter(Boolean)).toEqual(['4', '3', '2', '1', '0'])
    expect(lines.at(-1)!.trim().split(/\s+/)).toEqual(['2026-01*', '2026-03', '2026-05'])
  })
})
