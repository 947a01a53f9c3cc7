import {crc32 as zlibCrc32} from 'node:zlib'
import {describe, expect, it} from 'vitest'

import {crc32, hasValidChecksum, seededRandom, token} from './ids.js'

describe('ids', () => {
  it("computes zlib's CRC-32 without loading node:zlib", () => {
    const random = seededRandom(7)
    for (let i = 0; i < 500; i++) {
      const text = token('', random).slice(0, 37)
      expect(crc32(text)).toBe(zlibCrc32(text))
    }
    expect(crc32('')).toBe(0)
  })

  it('makes tokens whose last six characters check the rest, seeded or not', () => {
    expect(hasValidChecksum(token('polar_oat_'), 'polar_oat_')).toBe(true)
    expect(hasValidChecksum(token('polar_cl_', seededRandom(1)), 'polar_cl_')).toBe(true)
    expect(token('polar_oat_', seededRandom(3))).toBe(token('polar_oat_', seededRandom(3)))
  })
})
