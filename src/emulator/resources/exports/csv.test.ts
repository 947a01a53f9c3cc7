import {describe, expect, it} from 'vitest'

import {cell, csvRow, pyIso} from './csv.js'

describe('CSV as the service writes it', () => {
  it('renders numbers as Python floats and empty values as nothing', () => {
    expect(cell(12)).toBe('12.0')
    expect(cell(12.5)).toBe('12.5')
    expect(cell(0)).toBe('0.0')
    expect(cell(null)).toBe('')
    expect(cell(undefined)).toBe('')
  })

  it('quotes only values with a comma, a quote or a line break, doubling quotes', () => {
    expect(cell('plain text')).toBe('plain text')
    expect(cell('a,b')).toBe('"a,b"')
    expect(cell('say "hi"')).toBe('"say ""hi"""')
    expect(cell('two\nlines')).toBe('"two\nlines"')
    expect(csvRow(['x', 1, null, '{"k": "v"}'])).toBe('x,1.0,,"{""k"": ""v""}"\r\n')
  })

  it('renders times as isoformat: +00:00, microseconds only when there are some', () => {
    expect(pyIso('2026-03-01T10:20:30.000Z')).toBe('2026-03-01T10:20:30+00:00')
    expect(pyIso('2026-03-01T10:20:30.045Z')).toBe('2026-03-01T10:20:30.045000+00:00')
    expect(pyIso(null)).toBeNull()
  })
})
