import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {describe, expect, it} from 'vitest'

import {MINIMUMS, minimumMinor} from './minimums.js'

describe('the least amount of a price, by currency', () => {
  it('is the published document’s list', () => {
    const doc = JSON.parse(
      readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'reference', 'openapi', '2026-10.openapi.json'), 'utf8'),
    )
    const text: string = doc.components.schemas.ProductPriceFixedCreate.properties.price_amount.description
    const published = [...text.matchAll(/- ([A-Z]{3}): ([\d,.]+)/g)].map(([, c, v]) => `${c!.toLowerCase()}:${v!.replaceAll(',', '')}`)
    expect(published.length).toBeGreaterThan(100)
    expect(MINIMUMS.trim().split(/\s+/)).toEqual(published)
    expect(text).toContain('Other currencies: 50 minor units')
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
