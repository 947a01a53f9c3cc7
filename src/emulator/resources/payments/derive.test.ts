import {describe, expect, it} from 'vitest'

import type {OrderRecord} from '../orders/model.js'
import {hasPayment, paymentIdOf, paymentMethodIdOf} from './derive.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ORDER = '0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09'
const NOW = Date.parse('2026-05-01T12:00:00.000Z')

const order = (o: Partial<OrderRecord>): OrderRecord =>
  ({
    status: 'paid',
    paid_at: '2026-05-01T11:00:00.000Z',
    subtotal_amount: 1000,
    discount_amount: 0,
    tax_amount: 0,
    applied_balance_amount: 0,
    refunded_amount: 0,
    refunded_tax_amount: 0,
    ...o,
  }) as OrderRecord

describe('payments derived from orders', () => {
  it('ids are UUIDs, the same on every read, different for payments and payment methods', () => {
    expect(paymentIdOf(ORDER)).toMatch(UUID_V4)
    expect(paymentIdOf(ORDER)).toBe(paymentIdOf(ORDER))
    expect(paymentMethodIdOf(ORDER)).toMatch(UUID_V4)
    expect(paymentMethodIdOf(ORDER)).not.toBe(paymentIdOf(ORDER))
    expect(paymentIdOf('1b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09')).not.toBe(paymentIdOf(ORDER))
  })

  it('a paid (or since refunded) order with something to pay has a payment; a free or unpaid one has none', () => {
    const v = {now: NOW}
    expect(hasPayment(v, order({}))).toBe(true)
    expect(hasPayment(v, order({status: 'refunded'}))).toBe(true)
    expect(hasPayment(v, order({discount_amount: 1000}))).toBe(false)
    expect(hasPayment(v, order({status: 'pending', paid_at: '2026-05-01T13:00:00.000Z'}))).toBe(false)
    // a pending order whose payment time has come is paid
    expect(hasPayment(v, order({status: 'pending', paid_at: '2026-05-01T11:59:00.000Z'}))).toBe(true)
    expect(hasPayment(v, order({status: 'void', paid_at: null}))).toBe(false)
  })
})
