import {describe, expect, it} from 'vitest'

import {amountFrom, toMinor} from './money.js'

describe('toMinor', () => {
  it('converts major units by the currency', () => {
    expect(toMinor('12.00', 'usd')).toBe(1200)
    expect(toMinor('12.5', 'usd')).toBe(1250)
    expect(toMinor('12', 'eur')).toBe(1200)
    expect(toMinor('0.01', 'usd')).toBe(1)
    expect(toMinor('1200', 'jpy')).toBe(1200)
    expect(toMinor('1.234', 'kwd')).toBe(1234)
  })

  it('refuses what it would have to round or guess', () => {
    expect(() => toMinor('12.345', 'usd')).toThrow(/more decimals than USD allows \(2\)/)
    expect(() => toMinor('12.5', 'jpy')).toThrow(/JPY has no minor unit|more decimals/)
    expect(() => toMinor('-5', 'usd')).toThrow(/positive amount/)
    expect(() => toMinor('12,00', 'usd', '--price')).toThrow(/--price must be/)
    expect(() => toMinor('abc', 'usd')).toThrow(/not "abc"/)
  })
})

describe('amountFrom', () => {
  it('takes one of the two flags', () => {
    expect(amountFrom({major: '3.50'}, 'usd')).toBe(350)
    expect(amountFrom({minor: 350}, 'usd')).toBe(350)
    expect(amountFrom({}, 'usd')).toBeUndefined()
    expect(() => amountFrom({major: '1', minor: 100}, 'usd')).toThrow(/not both/)
  })
})
