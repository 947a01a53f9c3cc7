import {describe, expect, it} from 'vitest'

import {withoutDeprecated} from './deprecated.js'

describe('withoutDeprecated', () => {
  it('drops the deprecated order fields and keeps their replacements untouched', () => {
    const order = {
      id: 'o',
      net_amount: 1200,
      amount: 1200,
      items: [{product_price_id: 'p'}],
      product_price_id: 'p',
      product_price: {id: 'p'},
      user_id: 'c',
      user: {},
      customer_id: 'c',
    }
    expect(withoutDeprecated('orders', order)).toEqual({id: 'o', net_amount: 1200, items: [{product_price_id: 'p'}], customer_id: 'c'})
    expect(order.amount).toBe(1200) // the input is not changed
  })

  it('drops subscription price_id and price but keeps prices', () => {
    const sub = {id: 's', prices: [{id: 'p', amount_type: 'fixed', type: 'recurring', recurring_interval: 'month'}], price_id: 'p', price: {id: 'p'}}
    expect(withoutDeprecated('subscriptions', sub)).toEqual({id: 's', prices: [{id: 'p', amount_type: 'fixed'}]})
  })

  it('keeps the type of legacy prices, which is not deprecated there', () => {
    const product = {id: 'x', prices: [{id: 'p', type: 'recurring', recurring_interval: 'month', legacy: true}]}
    expect(withoutDeprecated('products', product)).toEqual(product)
  })

  it('leaves resources without deprecated fields as they are', () => {
    const customer = {id: 'c', external_id: 'u1'}
    expect(withoutDeprecated('customers', customer)).toBe(customer)
  })
})
