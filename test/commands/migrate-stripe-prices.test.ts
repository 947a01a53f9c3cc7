// Stripe's price shapes in the normalized model, from fixtures typed with the `stripe` package's types.
import type Stripe from 'stripe'
import {describe, expect, it} from 'vitest'

import {monthly, stripePrice as fixture} from '../helpers/fake-stripe.js'
import {stripePrice} from '../../src/areas/migrate/stripe.js'

const read = (price: Stripe.Price, meters = new Map<string, string>()) => stripePrice(price as unknown as Parameters<typeof stripePrice>[0], 'Pro', meters)

describe("Stripe's prices", () => {
  it('fixed, free, pay-what-you-want, with their interval', () => {
    expect(read(fixture('p1', 'prod', {unit_amount: 2900, type: 'recurring', recurring: monthly('year', 2)}))).toMatchObject({
      kind: 'fixed',
      money: {amount: 2900, currency: 'usd'},
      interval: 'year',
      intervalCount: 2,
    })
    expect(read(fixture('p2', 'prod', {unit_amount: 0, currency: 'EUR'}))).toMatchObject({kind: 'free', currency: 'eur', interval: null})
    expect(read(fixture('p3', 'prod', {unit_amount: null, custom_unit_amount: {minimum: 100, maximum: 5000, preset: 500}}))).toMatchObject({
      kind: 'custom',
      minimum: 100,
      maximum: 5000,
      preset: 500,
    })
  })

  it('metered, its meter named by the meter’s event name (or the product when it has none)', () => {
    const metered = fixture('p4', 'prod', {
      unit_amount: null,
      unit_amount_decimal: '0.25' as unknown as Stripe.Price['unit_amount_decimal'],
      type: 'recurring',
      recurring: monthly('month', 1, {usage_type: 'metered', meter: 'mtr_1'}),
    })
    expect(read(metered, new Map([['mtr_1', 'api.call']]))).toMatchObject({kind: 'metered', unitAmount: '0.25', meterName: 'api.call', interval: 'month'})
    const legacy = fixture('p5', 'prod', {unit_amount: 3, type: 'recurring', recurring: monthly('month', 1, {usage_type: 'metered'})})
    expect(read(legacy)).toMatchObject({kind: 'metered', unitAmount: '3', meterName: 'Pro usage'})
  })

  it('tiered, package and sub-cent licensed prices have no equal in Polar', () => {
    expect(read(fixture('p6', 'prod', {billing_scheme: 'tiered', tiers_mode: 'graduated', unit_amount: null}))).toMatchObject({
      kind: 'unsupported',
      reason: 'tiered pricing (graduated or volume)',
    })
    expect(read(fixture('p7', 'prod', {transform_quantity: {divide_by: 10, round: 'up'}}))).toMatchObject({
      kind: 'unsupported',
      reason: 'package pricing (per 10 units)',
    })
    const fraction = fixture('p8', 'prod', {unit_amount: null, unit_amount_decimal: '0.5' as unknown as Stripe.Price['unit_amount_decimal']})
    expect(read(fraction)).toMatchObject({kind: 'unsupported', reason: 'a fraction of a minor unit (0.5)'})
  })
})
