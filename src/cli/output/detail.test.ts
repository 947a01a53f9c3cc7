import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {column, moneyColumn, type DetailView} from './columns.js'
import {labelOf, renderDetail} from './detail.js'

const style = {now: Date.parse('2025-03-01T12:00:00Z'), chalk: new Chalk({level: 0})}

describe('renderDetail', () => {
  it('plain fields aligned first with words for labels, money with its currency, dates in full and relative; empty fields left out', () => {
    const text = renderDetail(
      {
        id: 'o_1',
        status: 'paid',
        net_amount: 149_900,
        currency: 'usd',
        created_at: '2025-03-01T09:00:00Z',
        paid: true,
        is_archived: false,
        note: null,
        tags: [],
      },
      style,
    )
    expect(text).toBe(
      [
        'ID          o_1',
        'Status      paid',
        'Net amount  $1,499.00',
        'Currency    usd',
        'Created at  2025-03-01T09:00:00Z (3 hours ago)',
        'Paid        yes',
        'Archived    no',
        '',
      ].join('\n'),
    )
  })

  it('nested objects are indented sections; lists of objects numbered blocks with the outer currency', () => {
    const text = renderDetail(
      {
        id: 'p_1',
        metadata: {},
        customer: {email: 'a@example.com', billing_address: {country: 'US', city: 'Austin'}, metadata: {user_id: 'u1'}},
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
        'ID    p_1',
        'Tags  a, b',
        '',
        'Customer',
        '  Email  a@example.com',
        '',
        '  Billing address',
        '    Country  US',
        '    City     Austin',
        '',
        '  Metadata',
        '    user_id  u1',
        '',
        'Prices (2)',
        '  1. ID              pr_1',
        '     Price amount    €149.00',
        '     Price currency  eur',
        '  2. ID           pr_2',
        '     Amount type  free',
        '',
      ].join('\n'),
    )
    expect(text).not.toContain('{')
  })

  it('a curated summary first (labels, empty values left out, live prices before archived), then the rest under a heading', () => {
    const view: DetailView = {
      summary: [column('status', 'Status', 'status'), moneyColumn('total_amount', 'Total'), column('trial_end', 'Trial ends', 'date')],
      lists: [{title: 'Prices', key: 'prices', line: (p) => `${String(p.id)}${p.is_archived ? ' (archived)' : ''}`}],
      covers: ['status', 'total_amount', 'trial_end', 'prices', 'currency'],
    }
    const row = {
      status: 'active',
      total_amount: 2900,
      currency: 'usd',
      trial_end: null,
      prices: [
        {id: 'old', is_archived: true},
        {id: 'new', is_archived: false},
      ],
      tax_amount: 500,
      billing_reason: 'subscription_cycle',
      seats: null,
    }
    const full = renderDetail(row, style, {view})
    expect(full).toBe(
      [
        'Status  active',
        'Total   $29.00',
        '',
        'Prices (2)',
        '  new',
        '  old (archived)',
        '',
        'Other fields',
        '  Tax amount      $5.00',
        '  Billing reason  subscription_cycle',
        '',
      ].join('\n'),
    )
    expect(renderDetail(row, style, {view, summaryOnly: true})).toBe(full.slice(0, full.indexOf('\nOther fields')))
  })

  it("a file's size in binary units with its bytes, without the service's size_readable; a refund's till_request marker left out", () => {
    const file = renderDetail({id: 'f_1', size: 62_914_560, size_readable: '60.0 MB'}, style)
    expect(file).toBe(['ID    f_1', 'Size  60.0 MiB (62914560 bytes)', ''].join('\n'))
    const refund = renderDetail({id: 'r_1', metadata: {till_request: 'a1b2', reason_code: 'x'}}, style)
    expect(refund).not.toContain('till_request')
    expect(refund).toContain('reason_code  x')
  })

  it('labels are words', () => {
    expect(['billing_reason', 'customer_id', 'is_invoice_generated', 'avatar_url', 'id'].map(labelOf)).toEqual([
      'Billing reason',
      'Customer ID',
      'Invoice generated',
      'Avatar URL',
      'ID',
    ])
  })
})
