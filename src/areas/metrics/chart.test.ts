import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import type {MetricsResponse} from '../../client/resources/metrics.js'
import {change, formatValue, metricChart, resample, wrapParts} from './chart.js'

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
      width: 50, currency: 'eur', interval: 'month', chalk, color: false, previousLabel: 'previous 4 months',
    })
    const lines = text.split('\n')
    expect(lines[0]).toBe('Revenue (EUR) · total €166.00')
    expect(lines[1]).toBe('+315.0% vs previous 4 months (€40.00)')
    expect(text).toContain('€90.00')
    expect(lines.at(-1)).toMatch(/2026-01 .* 2026-04$/)
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(50)
    expect(text).not.toContain('\x1b[')
  })
})
