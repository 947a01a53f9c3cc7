import {describe, expect, it} from 'vitest'

import {stripeBudget} from './stripe.js'

describe('the pace of the Stripe source', () => {
  it("stays under Stripe's read limit of its mode: 25 a second in test mode, 100 in live mode", () => {
    expect(stripeBudget('rk_test_abc')).toEqual({name: 'stripe', limit: 20, windowMs: 1000})
    expect(stripeBudget('sk_test_abc')).toEqual({name: 'stripe', limit: 20, windowMs: 1000})
    expect(stripeBudget('rk_live_abc')).toEqual({name: 'stripe', limit: 80, windowMs: 1000})
    expect(stripeBudget('sk_live_abc')).toEqual({name: 'stripe', limit: 80, windowMs: 1000})
  })
})
