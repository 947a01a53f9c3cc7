import {describe, expect, it} from 'vitest'

import {discountAmount, isRepetitionExpired} from './apply.js'
import type {DiscountRecord} from './model.js'

const at = (text: string) => Date.parse(text)
const APPLIED = at('2026-01-31T10:00:00.000Z')

describe('isRepetitionExpired: whether a discount still applies to a renewal', () => {
  it('once: only the period it was first applied to', () => {
    const once = {duration: 'once', duration_in_months: null} as const
    expect(isRepetitionExpired(once, APPLIED, APPLIED)).toBe(false)
    expect(isRepetitionExpired(once, APPLIED, at('2026-02-28T10:00:00.000Z'))).toBe(true)
  })

  it('forever: every period', () => {
    expect(isRepetitionExpired({duration: 'forever', duration_in_months: null}, APPLIED, at('2036-01-31T10:00:00.000Z'))).toBe(false)
  })

  it('repeating 3 months: the periods starting within the first three months, the first month counting as one', () => {
    const three = {duration: 'repeating', duration_in_months: 3} as const
    expect(isRepetitionExpired(three, APPLIED, APPLIED)).toBe(false)
    // month ends clamp, as the service's relativedelta does: Jan 31 + 1 month = Feb 28
    expect(isRepetitionExpired(three, APPLIED, at('2026-02-28T10:00:00.000Z'))).toBe(false)
    expect(isRepetitionExpired(three, APPLIED, at('2026-03-31T10:00:00.000Z'))).toBe(false)
    expect(isRepetitionExpired(three, APPLIED, at('2026-03-31T10:00:00.001Z'))).toBe(true)
    expect(isRepetitionExpired(three, APPLIED, at('2026-04-30T10:00:00.000Z'))).toBe(true)
  })

  it('repeating 1 month is the same as once for monthly periods', () => {
    const one = {duration: 'repeating', duration_in_months: 1} as const
    expect(isRepetitionExpired(one, APPLIED, APPLIED)).toBe(false)
    expect(isRepetitionExpired(one, APPLIED, at('2026-02-28T10:00:00.000Z'))).toBe(true)
  })
})

describe('discountAmount', () => {
  const base = {duration: 'forever', duration_in_months: null} as unknown as DiscountRecord
  it('percentage: rounded basis points of the amount', () => {
    expect(discountAmount({...base, type: 'percentage', basis_points: 2550, amounts: null}, 999, 'usd')).toBe(255)
  })
  it('fixed: the amount in the currency, never more than the amount itself', () => {
    const fixed = {...base, type: 'fixed', basis_points: null, amounts: {usd: 500}} as DiscountRecord
    expect(discountAmount(fixed, 2000, 'usd')).toBe(500)
    expect(discountAmount(fixed, 300, 'usd')).toBe(300)
  })
})
