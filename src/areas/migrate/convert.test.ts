// Each conversion rule of the precheck report, on the normalized model (what every source reads into).
import {describe, expect, it} from 'vitest'

import {readCatalog} from '../catalog-file/document.js'
import {writeCatalog} from '../catalog-file/writer.js'
import {convertCatalog} from './convert.js'
import {CustomerConverter} from './convert-others.js'
import {Findings, keyFromId} from './findings.js'
import type {SourceCustomer, SourceDiscount, SourcePrice, SourceProduct} from './model.js'
import {isoDigits, type SourceDigits, stripeDigits} from './units.js'
import {CURRENCIES, serviceDigits} from '../../client/currencies.js'
import {majorText} from '../catalog-file/kinds/values.js'

const fixed = (id: string, amount: number, currency = 'usd', interval: 'month' | 'year' | null = 'month', intervalCount = 1): SourcePrice => ({
  kind: 'fixed',
  id,
  money: {amount, currency},
  interval,
  intervalCount,
  raw: 'test',
})
const product = (id: string, prices: SourcePrice[], extra: Partial<SourceProduct> = {}): SourceProduct => ({
  id,
  name: `Product ${id}`,
  description: null,
  archived: false,
  prices,
  licenseKeys: null,
  metadata: {},
  ...extra,
})
const discount = (id: string, extra: Partial<SourceDiscount> = {}): SourceDiscount => ({
  id,
  name: `Discount ${id}`,
  code: null,
  value: {type: 'percentage', basisPoints: 1000},
  duration: {type: 'once'},
  maxRedemptions: null,
  startsAt: null,
  endsAt: null,
  productIds: [],
  archived: false,
  ...extra,
})

const NOW = Date.parse('2026-11-28T00:00:00Z')

function convert(products: SourceProduct[], discounts: SourceDiscount[] = [], orgCurrency: string | null = 'usd', digits: SourceDigits = stripeDigits) {
  const findings = new Findings()
  const converted = convertCatalog('stripe', {products, discounts}, {}, {orgCurrency, maps: new Map(), digits, now: NOW}, findings)
  // whatever the rules did, the file passes the catalog's own check
  expect(readCatalog(writeCatalog(converted.catalog)).issues).toEqual([])
  return {catalog: converted.catalog as Record<string, Record<string, Record<string, unknown>>>, findings}
}
const rules = (f: Findings) => [...f.changes.map((c) => `change ${c.rule}`), ...f.notMoved.map((c) => `skip ${c.rule}`)]

describe('converting a source catalog', () => {
  it('converts a plain product as is, keyed by its id, with migrated_from', () => {
    const {catalog, findings} = convert([product('prod_A1', [fixed('price_1', 2900)], {metadata: {tier: 'pro'}})])
    expect(catalog.products).toEqual({
      'prod_a1-8f2f': {
        name: 'Product prod_A1',
        description: null,
        visibility: 'public',
        recurring_interval: 'month',
        prices: [{type: 'fixed', amount: '29.00', currency: 'usd'}],
        metadata: {tier: 'pro', migrated_from: 'stripe:prod_A1'},
      },
    })
    expect(rules(findings)).toEqual([])
    // ids that differ only in case get different keys
    expect(keyFromId('prod_a1')).toBe('prod_a1')
    expect(keyFromId('prod_A1')).not.toBe(keyFromId('prod_a1'))
  })

  it('price-shape: a tiered price is left out; no-price: a product with nothing else does not move', () => {
    const tiered: SourcePrice = {kind: 'unsupported', id: 'price_t', reason: 'tiered pricing', raw: 'tiered'}
    const {catalog, findings} = convert([product('p1', [tiered, fixed('price_f', 100)]), product('p2', [tiered])])
    expect(Object.keys(catalog.products!)).toEqual(['p1'])
    expect(rules(findings)).toEqual(['change price-shape', 'change price-shape', 'skip no-price'])
  })

  it("currency-unsupported and currency-not-sold: one currency per product, the organization's first", () => {
    const {catalog, findings} = convert([
      product('p1', [fixed('price_eur', 900, 'eur'), fixed('price_usd', 1000, 'usd')]),
      product('p2', [fixed('price_xxx', 900, 'xts')]),
      product('p3', [fixed('price_eur2', 900, 'eur')]),
    ])
    expect((catalog.products!.p1!.prices as unknown[]).length).toBe(1)
    expect(catalog.products!.p1!.prices).toEqual([{type: 'fixed', amount: '10.00', currency: 'usd'}])
    expect(catalog.products!.p2).toBeUndefined()
    // p3 moves as it is, in EUR: a note, not a change
    expect(findings.changes.find((c) => c.id === 'p3')).toBeUndefined()
    expect(findings.notes.find((c) => c.id === 'p3')).toMatchObject({
      rule: 'currency-other',
      detail: "created in EUR, as in the source: not the organization's default currency USD",
    })
    expect(rules(findings)).toEqual(['change currency-not-sold', 'change currency-unsupported', 'skip no-price'])
  })

  it('several-prices: one fixed price per product, the default kept; several-intervals: one product per interval', () => {
    const {catalog, findings} = convert([
      product('p1', [fixed('price_a', 1000), fixed('price_b', 2000)]),
      product('p2', [fixed('price_m', 1000, 'usd', 'month'), fixed('price_y', 10000, 'usd', 'year')]),
    ])
    expect(catalog.products!.p1!.prices).toEqual([{type: 'fixed', amount: '10.00', currency: 'usd'}])
    expect(catalog.products!.p2).toMatchObject({name: 'Product p2', recurring_interval: 'month', metadata: {migrated_from: 'stripe:p2'}})
    expect(catalog.products!['p2-year']).toMatchObject({name: 'Product p2 (yearly)', recurring_interval: 'year', metadata: {migrated_from: 'stripe:p2@year'}})
    expect(rules(findings)).toEqual(['change several-prices', 'change several-intervals'])
  })

  it('interval-count: more than 999 days becomes weeks; name-length: names fit 3 to 64 characters; metadata Polar cannot keep is left out', () => {
    const {catalog, findings} = convert([
      product('p1', [{kind: 'fixed', id: 'price_d', money: {amount: 100, currency: 'usd'}, interval: 'day', intervalCount: 1092, raw: 'x'}], {name: 'AI'}),
      product('p2', [fixed('price_2', 100)], {name: 'N'.repeat(80), metadata: {key: 'mine', ok: 'yes'}}),
    ])
    expect(catalog.products!.p1).toMatchObject({name: 'AI plan', recurring_interval: 'week', recurring_interval_count: 156})
    expect(String(catalog.products!.p2!.name)).toHaveLength(64)
    expect(catalog.products!.p2!.metadata).toEqual({ok: 'yes', migrated_from: 'stripe:p2'})
    expect(rules(findings)).toEqual(['change interval-count', 'change name-length', 'change name-length', 'change metadata'])
  })

  it("amount-below-minimum: a fixed price under Polar's least price is left out, a pay-what-you-want minimum raised; 0 is free", () => {
    const {catalog, findings} = convert([
      product('p1', [fixed('cheap', 10), fixed('ok', 900, 'usd', 'year')]),
      product('p2', [{kind: 'custom', id: 'c', currency: 'usd', minimum: 10, maximum: null, preset: 20, interval: null, intervalCount: 1, raw: 'x'}]),
      product('p3', [fixed('zero', 0)]),
    ])
    expect(catalog.products!.p1).toMatchObject({recurring_interval: 'year', prices: [{type: 'fixed', amount: '9.00', currency: 'usd'}]})
    expect(catalog.products!.p2!.prices).toEqual([{type: 'custom', minimum: '0.50', preset: '0.50', currency: 'usd'}])
    expect(catalog.products!.p3!.prices).toEqual([{type: 'fixed', amount: '0.00', currency: 'usd'}])
    expect(rules(findings)).toEqual(['change amount-below-minimum', 'change amount-below-minimum'])
  })

  it('archived products and discounts do not move', () => {
    const {catalog, findings} = convert([product('p1', [fixed('x', 100)], {archived: true})], [discount('c1', {archived: true})])
    expect(catalog.products).toEqual({})
    expect(catalog.discounts).toEqual({})
    expect(rules(findings)).toEqual(['skip archived', 'skip archived'])
  })

  it('custom, free and metered prices; a meter per metered price; license keys become a benefit', () => {
    const {catalog, findings} = convert([
      product('p1', [{kind: 'custom', id: 'c', currency: 'usd', minimum: 500, maximum: null, preset: 1000, interval: null, intervalCount: 1, raw: 'x'}]),
      product('p2', [{kind: 'free', id: 'f', currency: 'usd', interval: null, intervalCount: 1, raw: 'x'}], {
        licenseKeys: {activationLimit: 3, expiresInDays: 365},
      }),
      product('p3', [
        fixed('base', 1000),
        {kind: 'metered', id: 'm', currency: 'usd', unitAmount: '0.5', meterName: 'api.call', interval: 'month', intervalCount: 1, raw: 'x'},
      ]),
    ])
    expect(catalog.products!.p1!.prices).toEqual([{type: 'custom', minimum: '5.00', preset: '10.00', currency: 'usd'}])
    expect(catalog.products!.p2).toMatchObject({prices: [{type: 'fixed', amount: '0.00', currency: 'usd'}], benefits: ['p2-license']})
    expect(catalog.benefits!['p2-license']).toMatchObject({
      type: 'license_keys',
      properties: {expires: {ttl: 365, timeframe: 'day'}, activations: {limit: 3, enable_customer_admin: true}},
    })
    expect(catalog.products!.p3!.prices).toEqual([
      {type: 'fixed', amount: '10.00', currency: 'usd'},
      {type: 'metered', meter: 'meter-api-call', unit_amount: '0.005', currency: 'usd'},
    ])
    expect(catalog.meters!['meter-api-call']).toMatchObject({name: 'api.call', filter: {clauses: [{property: 'name', operator: 'eq', value: 'api.call'}]}})
    expect(rules(findings)).toEqual(['change meter-created'])
  })

  it('discount codes: characters, length, duplicates; durations over 999 months; products that do not move', () => {
    const {catalog, findings} = convert(
      [product('p1', [fixed('x', 100)])],
      [
        discount('c1', {code: 'SPRING-2026', duration: {type: 'repeating', months: 1200}}),
        discount('c2', {code: 'spring2026'}),
        discount('c3', {code: 'A!'}),
        discount('c4', {productIds: ['gone']}),
        discount('c5', {productIds: ['p1', 'gone'], value: {type: 'fixed', money: {amount: 500, currency: 'usd'}}}),
        discount('c6', {value: {type: 'fixed', money: {amount: 500, currency: 'xts'}}}),
      ],
    )
    expect(catalog.discounts!.c1).toMatchObject({code: 'SPRING2026', duration: 'repeating', duration_in_months: 999, percent: 10})
    expect(catalog.discounts!.c5).toMatchObject({type: 'fixed', amounts: {usd: '5.00'}, products: ['p1']})
    expect(Object.keys(catalog.discounts!).sort()).toEqual(['c1', 'c5'])
    expect(rules(findings)).toEqual([
      'change code-characters',
      'change coupon-duration',
      'change code-characters',
      'change products-not-moved',
      'skip code-duplicate',
      'skip code-length',
      'skip products-not-moved',
      'skip currency-unsupported',
    ])
  })
})

describe("amounts: read with the source's exponent, written with Polar's", () => {
  const amountOf = (catalog: Record<string, Record<string, Record<string, unknown>>>, key: string) =>
    (catalog.products![key]!.prices as Array<{amount: string; currency: string}>).map((x) => `${x.amount} ${x.currency}`)

  it('Stripe counts ISK, HUF, COP and UGX in hundredths, as Polar does: 1000000 cop is 10,000.00 COP, prices and coupons', () => {
    const {catalog, findings} = convert(
      [
        product('cop', [fixed('p_cop', 1_000_000, 'cop')]),
        product('isk', [fixed('p_isk', 500_000, 'isk')]),
        product('huf', [fixed('p_huf', 250_000, 'huf')]),
        product('ugx', [fixed('p_ugx', 500_000, 'ugx')]),
        product('jpy', [fixed('p_jpy', 5000, 'jpy')]),
      ],
      [discount('c_cop', {value: {type: 'fixed', money: {amount: 500_000, currency: 'cop'}}})],
      null,
    )
    expect(['cop', 'isk', 'huf', 'ugx', 'jpy'].flatMap((k) => amountOf(catalog, k))).toEqual([
      '10000.00 cop',
      '5000.00 isk',
      '2500.00 huf',
      '5000.00 ugx',
      '5000 jpy',
    ])
    expect(catalog.discounts!.c_cop).toMatchObject({type: 'fixed', amounts: {cop: '5000.00'}})
    expect(rules(findings)).toEqual([])
  })

  it('Paddle and Lemon Squeezy count in ISO 4217 minor units: ISK and UGX in whole units, written in hundredths for Polar', () => {
    const {catalog} = convert(
      [product('isk', [fixed('p_isk', 5000, 'isk')]), product('ugx', [fixed('p_ugx', 5000, 'ugx')]), product('huf', [fixed('p_huf', 250_000, 'huf')])],
      [discount('c_isk', {value: {type: 'fixed', money: {amount: 500, currency: 'isk'}}})],
      null,
      isoDigits,
    )
    expect(['isk', 'ugx', 'huf'].flatMap((k) => amountOf(catalog, k))).toEqual(['5000.00 isk', '5000.00 ugx', '2500.00 huf'])
    expect(catalog.discounts!.c_isk).toMatchObject({amounts: {isk: '500.00'}})
  })

  it('MGA: ISO 4217 counts hundredths, Polar whole ariary; a fraction of an ariary cannot be kept', () => {
    const {catalog, findings} = convert(
      [product('mga', [fixed('p_mga', 500_000, 'mga')]), product('mga2', [fixed('p_mga2', 500_050, 'mga')])],
      [],
      null,
      isoDigits,
    )
    expect(amountOf(catalog, 'mga')).toEqual(['5000 mga'])
    expect(catalog.products!.mga2).toBeUndefined()
    expect(findings.changes.find((c) => c.id === 'mga2')?.detail).toBe('price p_mga2 left out: 5000.5 MGA has more decimals than Polar keeps in MGA (0)')
  })

  it("every currency Polar takes: Stripe's exponent is Polar's; ISO 4217's differs for ISK, MGA and UGX only", () => {
    expect([...CURRENCIES].filter((c) => stripeDigits(c) !== serviceDigits(c))).toEqual([])
    expect([...CURRENCIES].filter((c) => isoDigits(c) !== serviceDigits(c))).toEqual(['isk', 'mga', 'ugx'])
  })

  it('an amount out of range leaves that price or discount out, with the reason, and converts the rest', () => {
    const {catalog, findings} = convert(
      [
        product('neg', [fixed('p_neg', -100), fixed('p_ok', 900, 'usd', 'year')]),
        product('big', [fixed('p_big', JSON.parse('9007199254740993'))]),
        product('e21', [fixed('p_e21', 1e21)]),
        product('half', [fixed('p_half', 12.5)]),
        product('max', [fixed('p_max', 100_000_000)]),
      ],
      [discount('c_neg', {value: {type: 'fixed', money: {amount: -500, currency: 'usd'}}}), discount('c_ok')],
    )
    expect(Object.keys(catalog.products!)).toEqual(['neg'])
    expect(amountOf(catalog, 'neg')).toEqual(['9.00 usd'])
    expect(Object.keys(catalog.discounts!)).toEqual(['c_ok'])
    expect(findings.changes.filter((c) => c.rule === 'amount-invalid').map((c) => c.detail)).toEqual([
      'price p_neg left out: a negative amount (-100 minor units)',
      'price p_big left out: an amount of 9007199254740992 minor units, past the largest Polar takes',
      'price p_e21 left out: an amount of 1e+21 minor units, past the largest Polar takes',
      'price p_half left out: an amount of 12.5 minor units, not a whole number of them',
      "price p_max left out: 1000000.00 USD is more than Polar's largest amount, 999999.99 USD",
    ])
    expect(findings.notMoved.map((f) => `${f.id} ${f.rule} ${f.detail}`)).toEqual([
      'big no-price none of its prices has an equal in Polar',
      'e21 no-price none of its prices has an equal in Polar',
      'half no-price none of its prices has an equal in Polar',
      'max no-price none of its prices has an equal in Polar',
      'c_neg amount-invalid a negative amount (-500 minor units)',
    ])
    // a fraction of a minor unit is shown as one, never "12..5"
    expect(majorText(12.5, 'usd')).toBe('0.125')
  })

  it("what the catalog's own check refuses is left out with the reason, never stopping the run", () => {
    const custom = (id: string, minimum: number | null, maximum: number | null, preset: number | null): SourcePrice => ({
      kind: 'custom',
      id,
      currency: 'usd',
      minimum,
      maximum,
      preset,
      interval: null,
      intervalCount: 1,
      raw: 'x',
    })
    const {catalog, findings} = convert([
      product('minmax', [custom('c1', 500, 100, null), fixed('ok1', 900)]),
      product('preset', [custom('c2', 500, null, 100)]),
      product('tiny', [custom('c3', 10, 20, null)]),
      product('zero', [fixed('z', 900, 'usd', 'month', 0)]),
      product('meta', [fixed('ok2', 900)], {metadata: {'': 'x', fine: 'y'}}),
    ])
    expect(Object.keys(catalog.products!)).toEqual(['minmax', 'meta'])
    expect(catalog.products!.meta!.metadata).toEqual({fine: 'y', migrated_from: 'stripe:meta'})
    expect(findings.changes.filter((c) => c.rule === 'amount-invalid').map((c) => c.detail)).toEqual([
      'price c1 left out: its minimum 5.00 USD is above its maximum 1.00 USD',
      'price c2 left out: its preset 1.00 USD is outside its minimum and maximum',
    ])
    expect(findings.changes.find((c) => c.id === 'tiny')).toMatchObject({
      rule: 'amount-below-minimum',
      detail: "price c3 left out: its maximum 0.20 USD is under Polar's least price, 0.50",
    })
    expect(findings.changes.find((c) => c.id === 'zero')).toMatchObject({rule: 'interval-count', detail: 'price z left out: billed every 0 months'})
  })

  it("a discount's value or duration Polar does not take is refused, never changed: 150%, -10%, -3 months", () => {
    const {catalog, findings} = convert(
      [],
      [
        discount('c150', {value: {type: 'percentage', basisPoints: 15_000}}),
        discount('cneg', {value: {type: 'percentage', basisPoints: -1000}}),
        discount('cmonths', {duration: {type: 'repeating', months: -3}}),
        discount('cdate', {endsAt: 'next spring'}),
        discount('cbackwards', {startsAt: '2027-02-01T00:00:00Z', endsAt: '2027-01-01T00:00:00Z'}),
        discount('c100', {value: {type: 'percentage', basisPoints: 10_000}, duration: {type: 'repeating', months: 3}}),
      ],
    )
    expect(Object.keys(catalog.discounts!)).toEqual(['c100'])
    expect(catalog.discounts!.c100).toMatchObject({percent: 100, duration_in_months: 3})
    expect(findings.notMoved.map((f) => `${f.id} ${f.rule}: ${f.detail}`)).toEqual([
      'c150 discount-value: a percentage of 150%: Polar takes 0.01% to 100%',
      'cneg discount-value: a percentage of -10%: Polar takes 0.01% to 100%',
      'cmonths coupon-duration: repeats for -3 months: Polar takes 1 to 999',
      'cdate discount-dates: "next spring" is not a date and time Polar takes',
      'cbackwards discount-dates: it ends (2027-01-01T00:00:00Z) before it starts (2027-02-01T00:00:00Z)',
    ])
  })
})

describe('discounts no longer redeemable, and limited to prices', () => {
  it('a discount that expired is not moved (archived), whatever the source; one that ends later moves', () => {
    const {catalog, findings} = convert(
      [],
      [discount('old', {code: 'OLD2020', endsAt: '2020-06-30T00:00:00.000Z'}), discount('later', {endsAt: '2027-01-01T00:00:00.000Z'})],
    )
    expect(Object.keys(catalog.discounts!)).toEqual(['later'])
    expect(findings.notMoved).toEqual([
      expect.objectContaining({id: 'old', rule: 'archived', detail: 'no longer redeemable at the source: it expired on 2020-06-30T00:00:00.000Z'}),
    ])
  })

  it('a discount limited to the yearly price of a product split by interval is limited to the yearly product only', () => {
    const {catalog, findings} = convert(
      [product('p2', [fixed('price_m', 1000, 'usd', 'month'), fixed('price_y', 10000, 'usd', 'year')])],
      [discount('yearly', {priceIds: ['price_y']}), discount('gone', {priceIds: ['price_gone']}), discount('both', {productIds: ['p2']})],
    )
    expect(catalog.discounts!.yearly).toMatchObject({products: ['p2-year']})
    expect(catalog.discounts!.both).toMatchObject({products: ['p2', 'p2-year']})
    expect(catalog.discounts!.gone).toBeUndefined()
    expect(rules(findings)).toEqual(['change several-intervals', 'skip products-not-moved'])
  })
})

describe('converting customers', () => {
  const customer = (id: string, extra: Partial<SourceCustomer> = {}): SourceCustomer => ({
    id,
    email: `${id}@example.com`,
    name: null,
    billingAddress: null,
    taxId: null,
    ...extra,
  })
  const address = (country: string) => ({line1: '1 Main St', line2: null, postalCode: '10001', city: 'NYC', state: null, country})

  it('external_id by source id, e-mail or none; no e-mail or a repeated one does not move; address and tax id rules', () => {
    const findings = new Findings()
    const byId = new CustomerConverter('stripe', 'source-id', findings)
    expect(byId.line(customer('cus_1', {name: 'Ada', billingAddress: address('DE'), taxId: {value: 'de 123.456-789', type: 'eu_vat'}}))).toEqual({
      email: 'cus_1@example.com',
      name: 'Ada',
      external_id: 'cus_1',
      billing_address: {line1: '1 Main St', line2: null, postal_code: '10001', city: 'NYC', state: null, country: 'DE'},
      tax_id: 'DE123456789',
      metadata: {migrated_from: 'stripe:cus_1'},
    })
    expect(byId.line(customer('cus_2', {email: null}))).toBeUndefined()
    expect(byId.line(customer('cus_3', {email: 'CUS_1@example.com'}))).toBeUndefined()
    expect(byId.line(customer('cus_4', {billingAddress: address('XX')}))?.billing_address).toBeUndefined()
    expect(byId.line(customer('cus_5', {taxId: {value: 'GB123456789', type: 'gb_vat'}}))?.tax_id).toBeUndefined()
    expect(new CustomerConverter('stripe', 'email', findings).line(customer('cus_6', {email: 'Mixed@Example.com'}))?.external_id).toBe('mixed@example.com')
    expect(new CustomerConverter('stripe', 'none', findings).line(customer('cus_7'))).not.toHaveProperty('external_id')
    expect(String(byId.line(customer('cus_8', {name: 'n'.repeat(300)}))?.name)).toHaveLength(256)
    expect(rules(findings)).toEqual([
      'change country-unsupported',
      'change tax-id-needs-address',
      'change name-length',
      'skip no-email',
      'skip duplicate-email',
    ])
  })
})
