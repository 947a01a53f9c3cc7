import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {describe, expect, it} from 'vitest'

import {MINIMUMS, minimumMinor} from './minimums.js'

describe('the least amount of a price, by currency', () => {
  it('is the published document’s list', () => {
    const doc = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'contract', '2026-10.openapi.json'), 'utf8'))
    // the list the document states in prose, kept as data by scripts/contract.js
    const facts: {amounts: Record<string, string>; otherMinor: number} =
      doc.components.schemas.ProductPriceFixedCreate.properties.price_amount['x-minimum-amounts']
    const published = Object.entries(facts.amounts).map(([c, v]) => `${c}:${v}`)
    expect(published.length).toBeGreaterThan(100)
    expect(MINIMUMS.trim().split(/\s+/)).toEqual(published)
    expect(facts.otherMinor).toBe(50)
  })

  it('in minor units, by the currency’s decimals', () => {
    expect(minimumMinor('usd')).toBe(50)
    expect(minimumMinor('JPY')).toBe(80)
    expect(minimumMinor('dkk')).toBe(320)
    expect(minimumMinor('xts')).toBe(50)
    // Polar counts HUF, ISK and COP in hundredths: 175 HUF is 17500
    expect([minimumMinor('huf'), minimumMinor('isk'), minimumMinor('cop')]).toEqual([17_500, 7000, 200_000])
  })
})
