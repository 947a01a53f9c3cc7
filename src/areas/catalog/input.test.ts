import {describe, expect, it} from 'vitest'

import {benefitIds, benefitProperties, expiresFrom, priceFrom, productUpdateBody} from './input.js'
import {mergeMetadata, metadataFrom} from '../../cli/input/fields.js'

describe('metadata flags', () => {
  it('turns key=value pairs into an object, splitting at the first =', () => {
    expect(metadataFrom(['tier=pro', 'url=https://x.test/?a=b'])).toEqual({tier: 'pro', url: 'https://x.test/?a=b'})
    expect(metadataFrom(undefined)).toBeUndefined()
  })

  it('refuses pairs without a key, and empty values on create', () => {
    expect(() => metadataFrom(['novalue'])).toThrow(/key=value/)
    expect(() => metadataFrom(['=x'])).toThrow(/key=value/)
    expect(() => metadataFrom(['k='])).toThrow(/empty value/)
  })

  it('merges into current metadata; key= removes', () => {
    expect(mergeMetadata({a: 1, b: 'x'}, ['b=', 'c=3'])).toEqual({a: 1, c: '3'})
  })
})

describe('price flags', () => {
  it('a fixed price from major or minor units', () => {
    expect(priceFrom({price: '12.5'}, 'usd')).toEqual({amount_type: 'fixed', price_amount: 1250, price_currency: 'usd'})
    expect(priceFrom({'amount-minor': 900}, 'jpy')).toEqual({amount_type: 'fixed', price_amount: 900, price_currency: 'jpy'})
  })

  it('free is a fixed price of 0; pay what you want has optional bounds', () => {
    expect(priceFrom({free: true}, 'eur')).toEqual({amount_type: 'fixed', price_amount: 0, price_currency: 'eur'})
    expect(priceFrom({'pay-what-you-want': true}, 'usd')).toEqual({amount_type: 'custom', price_currency: 'usd'})
    expect(priceFrom({'pay-what-you-want': true, minimum: '0', preset: '5'}, 'usd')).toMatchObject({minimum_amount: 0, preset_amount: 500})
  })

  it('refuses two kinds at once and bounds without pay what you want; gives nothing without flags', () => {
    expect(() => priceFrom({price: '1', free: true}, 'usd')).toThrow(/one kind of price/)
    expect(() => priceFrom({price: '1', 'amount-minor': 100}, 'usd')).toThrow(/not both/)
    expect(() => priceFrom({maximum: '9'}, 'usd')).toThrow(/--maximum applies/)
    expect(priceFrom({}, 'usd')).toBeUndefined()
  })

  it('a new price on update keeps the current currency unless --currency is given', () => {
    const current = {
      id: 'p',
      prices: [
        {id: 'old', is_archived: true, price_currency: 'usd'},
        {id: 'x', is_archived: false, price_currency: 'eur'},
      ],
    }
    expect(productUpdateBody({price: {price: '3'}}, current).prices).toEqual([{amount_type: 'fixed', price_amount: 300, price_currency: 'eur'}])
    expect(productUpdateBody({price: {price: '3'}, currency: 'GBP'}, current).prices?.[0]).toMatchObject({price_currency: 'gbp'})
    expect(productUpdateBody({description: ''}, undefined)).toEqual({description: null})
  })

  it('benefit ids: attach without duplicates, detach', () => {
    expect(benefitIds({id: 'p', benefits: [{id: 'a'}, {id: 'b'}]}, ['b', 'c'], ['a'])).toEqual(['b', 'c'])
  })
})

describe('benefit properties', () => {
  it('custom and license_keys flags, merged over the current properties', () => {
    expect(benefitProperties('custom', {note: 'hi'})).toEqual({note: 'hi'})
    expect(benefitProperties('license_keys', {'activation-limit': 5}, {prefix: 'A', activations: {limit: 2, enable_customer_admin: true}})).toEqual({
      prefix: 'A',
      activations: {limit: 5, enable_customer_admin: true},
    })
    expect(benefitProperties('license_keys', {'usage-limit': 0, 'activation-limit': 0, expires: 'never'})).toEqual({
      limit_usage: null,
      activations: null,
      expires: null,
    })
    expect(benefitProperties('discord', {properties: '{"guild_id":"1"}'})).toEqual({guild_id: '1'})
    expect(benefitProperties('custom', {})).toBeUndefined()
  })

  it('refuses flags of another type and --customer-admin without activations', () => {
    expect(() => benefitProperties('custom', {prefix: 'X'})).toThrow(/--prefix applies to license_keys/)
    expect(() => benefitProperties('license_keys', {note: 'x'})).toThrow(/--note applies to custom/)
    expect(() => benefitProperties('license_keys', {'customer-admin': true})).toThrow(/needs --activation-limit/)
  })

  it('--expires durations', () => {
    expect(expiresFrom('30d')).toEqual({ttl: 30, timeframe: 'day'})
    expect(expiresFrom('6 months')).toEqual({ttl: 6, timeframe: 'month'})
    expect(() => expiresFrom('soon')).toThrow(/--expires/)
  })
})
