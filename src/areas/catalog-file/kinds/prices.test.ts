import {describe, expect, it} from 'vitest'

import {checkPrices, entryOf, priceCreate, priceEntry, priceText, pulledPrice, toPrice} from './prices.js'
import {products} from './products.js'
import {decimalShift} from './values.js'

describe('prices in the catalog file', () => {
  it('turns major units into minor units by the currency, and back', () => {
    expect(toPrice({type: 'fixed', amount: '29.5', currency: 'usd'})).toEqual({type: 'fixed', amount: 2950, currency: 'usd'})
    expect(toPrice({type: 'fixed', amount: '1200', currency: 'jpy'})).toEqual({type: 'fixed', amount: 1200, currency: 'jpy'})
    const custom = toPrice({type: 'custom', minimum: '1', preset: '5.00', currency: 'eur'})
    expect(custom).toEqual({type: 'custom', minimum: 100, maximum: null, preset: 500, currency: 'eur'})
    expect(entryOf(custom)).toEqual({type: 'custom', minimum: '1.00', preset: '5.00', currency: 'eur'})
    expect(toPrice({type: 'custom', currency: 'usd'})).toMatchObject({minimum: 50}) // the service's default
  })

  it('reads the service’s prices, a legacy free price as fixed 0, and sends them back as created', () => {
    expect(priceEntry({amount_type: 'fixed', price_amount: 0, price_currency: 'usd'})).toEqual({type: 'fixed', amount: '0.00', currency: 'usd'})
    const raw = {amount_type: 'custom', minimum_amount: 100, maximum_amount: 100000, preset_amount: null, price_currency: 'usd'}
    expect(priceCreate(toPrice(priceEntry(raw)))).toEqual({amount_type: 'custom', minimum_amount: 100, maximum_amount: 100000, price_currency: 'usd'})
  })

  it('shows money with its currency', () => {
    expect(priceText({type: 'fixed', amount: 2900, currency: 'usd'})).toBe('29.00 USD')
    expect(priceText({type: 'fixed', amount: 0, currency: 'eur'})).toBe('free (0 EUR)')
    expect(priceText({type: 'custom', minimum: 100, maximum: 100000, preset: 500, currency: 'usd'})).toBe(
      'pay what you want from 1.00 USD (preset 5.00 USD, up to 1000.00 USD)',
    )
  })

  it('names each problem: decimals, amounts, currency, bounds and mixes', () => {
    expect(checkPrices([{type: 'fixed', amount: '1.234', currency: 'usd'}])).toEqual([
      {path: ['prices', 0, 'amount'], message: 'amount 1.234 has more decimals than USD allows (2)'},
    ])
    expect(checkPrices([{type: 'fixed', amount: 'ten', currency: 'usd'}])[0]!.message).toBe('amount must be a positive amount like 12.00, not "ten"')
    expect(checkPrices([{type: 'custom', minimum: '5', maximum: '1', currency: 'usd'}])).toEqual([
      {path: ['prices', 0, 'maximum'], message: 'the maximum is below the minimum'},
    ])
    expect(
      checkPrices([
        {type: 'fixed', amount: '1', currency: 'usd'},
        {type: 'fixed', amount: '2', currency: 'eur'},
      ]).map((i) => i.message),
    ).toEqual(['a product has one fixed price, or one custom (pay what you want) price alone', 'all prices of a product use the same currency'])
  })
})

describe('metered prices', () => {
  it('keeps the unit amount exact between major units in the file and minor units in the service', () => {
    const price = toPrice({type: 'metered', meter: 'api-calls', unit_amount: '0.005', cap: '1000', currency: 'usd'})
    expect(price).toEqual({type: 'metered', meter: 'api-calls', unit: '0.5', cap: 100_000, currency: 'usd'})
    expect(priceCreate(price, (key) => `id-of-${key}`)).toEqual({
      amount_type: 'metered_unit',
      meter_id: 'id-of-api-calls',
      unit_amount: '0.5',
      cap_amount: 100_000,
      price_currency: 'usd',
    })
    const raw = {amount_type: 'metered_unit', meter_id: 'm1', unit_amount: '0.500000000000', cap_amount: null, price_currency: 'usd'}
    expect(priceEntry(raw, (id) => (id === 'm1' ? 'api-calls' : id))).toEqual({type: 'metered', meter: 'api-calls', unit_amount: '0.005', currency: 'usd'})
    expect(priceText(price)).toBe('0.005 USD per unit of meter api-calls (up to 1000.00 USD a period)')
    expect(entryOf(toPrice({type: 'metered', meter: 'm', unit_amount: '3', currency: 'jpy'}))).toEqual({
      type: 'metered',
      meter: 'm',
      unit_amount: '3',
      currency: 'jpy',
    })
  })

  it('refuses a unit amount that is not positive or finer than the service keeps', () => {
    expect(checkPrices([{type: 'metered', meter: 'm', unit_amount: '0', currency: 'usd'}])).toEqual([
      {path: ['prices', 0, 'unit_amount'], message: 'unit_amount must be a positive amount like 0.01, not "0"'},
    ])
    expect(checkPrices([{type: 'metered', meter: 'm', unit_amount: '0.00000000000001', currency: 'usd'}])).toEqual([])
    expect(checkPrices([{type: 'metered', meter: 'm', unit_amount: '0.000000000000001', currency: 'usd'}])[0]!.message).toMatch(
      /more decimals than the service keeps/,
    )
  })

  it('shifts decimals exactly', () => {
    expect([
      decimalShift('0.5', -2),
      decimalShift('0.005', 2),
      decimalShift('12', 2),
      decimalShift('1200', -2),
      decimalShift('007.10', 0),
      decimalShift('x', 1),
    ]).toEqual(['0.005', '0.5', '1200', '12', '7.1', undefined])
  })

  it('pulls a negative amount and a signed unit amount as the service has them, and the check names the value', () => {
    expect(decimalShift('-1.5', 2)).toBe('-150')
    expect(decimalShift('+0.5', -2)).toBe('0.005')
    expect(decimalShift('-0', 2)).toBe('0')
    expect(decimalShift('-', 2)).toBeUndefined()
    expect(pulledPrice({amount_type: 'fixed', price_amount: -500, price_currency: 'usd'})).toEqual({type: 'fixed', amount: '-5.00', currency: 'usd'})
    const metered = pulledPrice({amount_type: 'metered_unit', meter_id: 'm', unit_amount: '-0.5', price_currency: 'usd'})
    expect(metered).toEqual({type: 'metered', meter: 'm', unit_amount: '-0.005', currency: 'usd'})
    expect(checkPrices([metered])[0]!.message).toBe('unit_amount must be a positive amount like 0.01, not "-0.005"')
    expect(checkPrices([{type: 'fixed', amount: '-5.00', currency: 'usd'}])[0]!.message).toBe('amount must be a positive amount like 12.00, not "-5.00"')
    // a product holding such prices is pulled whole, the readable price normalized beside them
    const keys = {keyOf: () => undefined, idOf: () => undefined} as never
    const item = {
      id: 'p',
      name: 'P',
      recurring_interval: 'month',
      prices: [
        {amount_type: 'metered_unit', meter_id: 'm', unit_amount: '-0.5', price_currency: 'usd'},
        {amount_type: 'fixed', price_amount: 2900, price_currency: 'usd'},
        {amount_type: 'fixed', price_amount: -100, price_currency: 'usd'},
      ],
    }
    expect(products.toEntry(item as never, keys).prices).toEqual([
      {type: 'fixed', amount: '29.00', currency: 'usd'},
      {type: 'fixed', amount: '-1.00', currency: 'usd'},
      {type: 'metered', meter: 'm', unit_amount: '-0.005', currency: 'usd'},
    ])
  })
})
