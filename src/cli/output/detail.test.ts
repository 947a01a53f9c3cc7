import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {renderDetail} from './detail.js'

const style = {now: Date.parse('2025-03-01T12:00:00Z'), chalk: new Chalk({level: 0})}

describe('renderDetail', () => {
  it('plain fields aligned first, money with its currency, dates in full and relative', () => {
    const text = renderDetail(
      {id: 'o_1', status: 'paid', net_amount: 149_900, currency: 'usd', created_at: '2025-03-01T09:00:00Z', paid: true, note: null},
      style,
    )
    expect(text).toBe(
      [
        'id          o_1',
        'status      paid',
        'net_amount  $1,499.00',
        'currency    usd',
        'created_at  2025-03-01T09:00:00Z (3 hours ago)',
        'paid        yes',
        'note        -',
        '',
      ].join('\n'),
    )
  })

  it('nested objects are indented sections; lists of objects numbered blocks with the outer currency', () => {
    const text = renderDetail(
      {
        id: 'p_1',
        metadata: {},
        customer: {email: 'a@example.com', billing_address: {country: 'US', city: 'Austin'}},
        prices: [
          {id: 'pr_1', price_amount: 14_900, price_currency: 'eur'},
          {id: 'pr_2', amount_type: 'free'},
        ],
        tags: ['a', 'b'],
      },
      style,
    )
    expect(text).toBe(
      [
        'id        p_1',
        'metadata  none',
        'tags      a, b',
        '',
        'customer',
        '  email  a@example.com',
        '',
        '  billing_address',
        '    country  US',
        '    city     Austin',
        '',
        'prices (2)',
        '  1. id              pr_1',
        '     price_amount    €149.00',
        '     price_currency  eur',
        '  2. id           pr_2',
        '     amount_type  free',
        '',
      ].join('\n'),
    )
    expect(text).not.toContain('{')
  })
})
