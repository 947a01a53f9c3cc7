import cliProgress from 'cli-progress'
import {describe, expect, it} from 'vitest'

import {fittedFormat} from './progress-fit.js'

const {Format} = cliProgress
const counters = (c: string) => `{bar} {percentage}% | ${c} | {eta_formatted} left`
const templates = [
  counters('{read} read | {inserted} inserted | {duplicates} duplicates | {rejected} rejected | {rate} events/s'),
  counters('{read} read, {inserted} new, {duplicates} dup, {rejected} rejected'),
]
const payload = {read: 120000, inserted: 119000, duplicates: 900, rejected: 100, rate: 4100}

/** One line of the ingest bar as cli-progress renders it on a terminal `maxWidth` wide. */
function line(maxWidth: number): string {
  const bar = new cliProgress.SingleBar({format: 'x', barsize: 30}, cliProgress.Presets.legacy)
  // the options cli-progress computes (the bar's characters rendered for barsize 30)
  const options = {...(bar as unknown as {options: cliProgress.Options}).options, barsize: 30}
  const params = {progress: 0.5, eta: 12, startTime: Date.now(), stopTime: null, total: 100, value: 50, maxWidth}
  return fittedFormat(Format.Formatter, templates)(options, params, payload)
}

describe('fittedFormat (progress bars fit the terminal)', () => {
  it('the ingest bar fits 80 and 120 columns: whole counters when they fit, the bar taking the room left', () => {
    const wide = line(200)
    expect(wide).toContain('119000 inserted')
    expect(wide).toMatch(/^={15}-{15} 50%/) // the whole bar (30) when there is room
    const at120 = line(120)
    expect(at120.length).toBeLessThanOrEqual(119)
    expect(at120).toContain('119000 inserted')
    const at80 = line(80)
    expect(at80.length).toBeLessThanOrEqual(79)
    expect(at80).toContain('119000 new, 900 dup, 100 rejected')
    expect(at80).toMatch(/^=+-+ 50%/)
  })

  it('a terminal too narrow for any text with a bar gets the shortest text cut to the line (a longer one wraps, and is redrawn over)', () => {
    const at50 = line(50)
    expect(at50.length).toBeLessThanOrEqual(49)
    expect(at50).toMatch(/…$/)
  })
})
