import {describe, expect, it} from 'vitest'

import {usageAmount} from './billing.js'

const price = (unit: string, cap: number | null = null) =>
  ({
    id: 'p',
    created_at: '',
    modified_at: null,
    is_archived: false,
    product_id: 'x',
    type: 'recurring',
    recurring_interval: 'month',
    amount_type: 'metered_unit',
    price_currency: 'usd',
    unit_amount: unit,
    cap_amount: cap,
    meter_id: 'm',
  }) as unknown as Parameters<typeof usageAmount>[0]

describe('usageAmount', () => {
  it('bills units times the unit amount, rounded half up to a cent, with the service label', () => {
    expect(usageAmount(price('2.5'), 8)).toEqual({amount: 20, label: '(8 consumed units) × $0.025'})
    expect(usageAmount(price('0.5'), 3)).toEqual({amount: 2, label: '(3 consumed units) × $0.005'})
    expect(usageAmount(price('0.1'), 4)).toEqual({amount: 0, label: '(4 consumed units) × $0.001'})
    expect(usageAmount(price('150'), 1234.5).label).toBe('(1,234.5 consumed units) × $1.50')
  })

  it('bills nothing for a negative balance and caps the amount', () => {
    expect(usageAmount(price('100'), -3)).toEqual({amount: 0, label: '(0 consumed units) × $1.00'})
    expect(usageAmount(price('50', 300), 13)).toEqual({amount: 300, label: '(13 consumed units) × $0.50 — Capped at $3.00'})
    expect(usageAmount(price('50', 300), 6).amount).toBe(300)
    expect(usageAmount(price('50', 300), 5)).toEqual({amount: 250, label: '(5 consumed units) × $0.50'})
  })
})
