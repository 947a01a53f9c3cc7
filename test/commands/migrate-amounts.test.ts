// Amounts from each source as Polar takes them, end to end (a fake source, `till migrate`, `till catalog
// apply` on the emulator): Stripe counts ISK, HUF and COP in hundredths, Paddle and Lemon Squeezy in ISO
// 4217 units (ISK whole), Polar in hundredths for all three (CLP whole for all); an amount out of range, a percentage over
// 100 or a duration under a month leaves that price or discount out with the reason, and the rest moves;
// a discount that expired is not moved, whatever the source.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runTty, type Sandbox, sh, TILL} from '../helpers/cli.js'
import {type Emulator, type Json, listAll} from '../helpers/emulator.js'
import {fakeLemonSqueezy, type LsFixtures, lsDiscount, lsPrice, lsProduct, lsStore, lsVariant} from '../helpers/fake-lemonsqueezy.js'
import {fakePaddle, paddleFixtures, paddlePriceFixture, paddleProductFixture} from '../helpers/fake-paddle.js'
import {emptyData, type FakeStripe, monthly, startFakeStripe, stripeCoupon, stripePrice, stripeProduct, stripePromotionCode} from '../helpers/fake-stripe.js'
import {runInProcess} from '../helpers/in-process.js'
import {emptyTarget} from '../helpers/migration.js'
import {scaled} from '../helpers/machine.js'

const STRIPE_KEY = `rk_test_${'Am0'.repeat(12)}`
const PADDLE_KEY = `pdl_sdbx_apikey_${'Am1'.repeat(14)}`
const LS_KEY = `lsq_${'Am2'.repeat(14)}`

describe('till migrate: amounts, limits and expiries as the source had them', () => {
  let emulator: Emulator
  let box: Sandbox

  const till = (args: string[]) =>
    runInProcess(args, {env: box.env({STRIPE_API_KEY: STRIPE_KEY, PADDLE_API_KEY: PADDLE_KEY, LEMONSQUEEZY_API_KEY: LS_KEY, TILL_RATE_LIMIT: '100000/60s'})})
  /** Migrates into `out`, applies its catalog, and gives the report and Polar's products and discounts. */
  async function migrateAndApply(source: string, base: string, out: string) {
    const r = await till(['migrate', source, '--out', join(box.root, out), '--api-base', base, '-p', 'prod', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const apply = await till(['catalog', 'apply', join(box.root, out, 'catalog.yaml'), '-p', 'prod', '--yes'])
    expect(apply.code, apply.stderr).toBe(0)
    const products = await listAll(emulator.production, '/products/')
    const discounts = await listAll(emulator.production, '/discounts/')
    const from = (id: string) => products.find((p: Json) => p.metadata.migrated_from === `${source}:${id}`)
    const price = (id: string) => `${from(id)?.prices[0].price_amount} ${from(id)?.prices[0].price_currency}`
    return {report: JSON.parse(r.stdout), price, discounts, text: readFileSync(join(box.root, out, 'catalog.yaml'), 'utf8')}
  }
  const reasons = (report: Json) => report.not_moved.map((f: Json) => `${f.id} [${f.rule}] ${f.detail}`)

  beforeAll(async () => {
    ;({emulator, box} = await emptyTarget())
  })
  afterAll(async () => {
    await emulator?.stop()
    box?.cleanup()
  })

  describe('Stripe', () => {
    let stripe: FakeStripe
    beforeAll(async () => {
      const data = emptyData()
      for (const [currency, amount] of [
        ['cop', 1_000_000],
        ['isk', 500_000],
        ['huf', 250_000],
      ] as const) {
        data.products.push(stripeProduct(`prod_${currency}`, `Stripe ${currency.toUpperCase()} plan`))
        data.prices.push(stripePrice(`price_${currency}`, `prod_${currency}`, {currency, unit_amount: amount, type: 'recurring', recurring: monthly()}))
      }
      // out of range: each price left out, the product with nothing left not moved, the rest converted
      data.products.push(stripeProduct('prod_odd', 'Stripe odd amounts'))
      data.prices.push(
        stripePrice('price_neg', 'prod_odd', {unit_amount: -100}),
        stripePrice('price_big', 'prod_odd', {unit_amount: 1e21}),
        stripePrice('price_half', 'prod_odd', {unit_amount: 12.5}),
        stripePrice('price_fine', 'prod_odd', {unit_amount: 2900}),
      )
      data.coupons.push(
        stripeCoupon('co_cop', {name: 'Five thousand pesos', percent_off: null, amount_off: 500_000, currency: 'cop'}),
        stripeCoupon('co_neg', {percent_off: null, amount_off: -500, currency: 'usd'}),
        stripeCoupon('co_150', {percent_off: 150}),
        stripeCoupon('co_minus', {percent_off: -10}),
        stripeCoupon('co_months', {duration: 'repeating', duration_in_months: -3}),
        stripeCoupon('co_spring', {name: 'Spring'}),
      )
      data.promotionCodes.push(stripePromotionCode('promo_old', 'OLD2020', 'co_spring', {expires_at: Date.parse('2020-06-30T00:00:00Z') / 1000}))
      stripe = await startFakeStripe(data, STRIPE_KEY)
    })
    afterAll(async () => {
      await stripe?.stop()
    })

    it(
      '1000000 cop is 10,000.00 COP in the file and in Polar; ISK and HUF likewise; a coupon in COP too',
      async () => {
        const {report, price, discounts, text} = await migrateAndApply('stripe', stripe.url, 'stripe')
        expect(text).toContain('10000.00')
        expect(text).not.toContain('1000000')
        expect([price('prod_cop'), price('prod_isk'), price('prod_huf'), price('prod_odd')]).toEqual(['1000000 cop', '500000 isk', '250000 huf', '2900 usd'])
        const pesos = discounts.find((d: Json) => d.name === 'Five thousand pesos')
        expect([pesos.amount, pesos.currency]).toEqual([500_000, 'cop'])
        // one truth: a product in another currency than the organization's is converted as is, and created so
        expect(report.changes.filter((f: Json) => f.id === 'prod_isk')).toEqual([])
        expect(report.notes.find((f: Json) => f.id === 'prod_isk')).toMatchObject({
          rule: 'currency-other',
          detail: "created in ISK, as in the source: not the organization's default currency USD",
        })
        expect(report.counts.products.changed).toBe(1)
        expect(report.changes.filter((f: Json) => f.rule === 'amount-invalid').map((f: Json) => f.detail)).toEqual([
          'price price_neg left out: a negative amount (-100 minor units)',
          'price price_big left out: an amount of 1e+21 minor units, past the largest Polar takes',
          'price price_half left out: an amount of 12.5 minor units, not a whole number of them',
        ])
        expect(reasons(report)).toEqual([
          'promo_old [archived] no longer redeemable at the source: it expired on 2020-06-30T00:00:00.000Z',
          'co_neg [amount-invalid] a negative amount (-500 minor units)',
          'co_150 [discount-value] a percentage of 150%: Polar takes 0.01% to 100%',
          'co_minus [discount-value] a percentage of -10%: Polar takes 0.01% to 100%',
          'co_months [coupon-duration] repeats for -3 months: Polar takes 1 to 999',
        ])
        expect(JSON.stringify(report)).not.toContain('..')
        // the coupon whose only code expired does not move either: a coupon with codes moves as its codes
        expect(discounts.map((d: Json) => d.name)).toEqual(['Five thousand pesos'])
      },
      scaled(60_000),
    )
  })

  it(
    'on a terminal, the precheck escapes what the source named (OSC 52, OSC 8, clear-screen, U+202E, NUL, CR); piped, the bytes stay',
    async () => {
      const hostile = 'Evil \x1b]52;c;aGk=\x07 \x1b]8;;https://x.test\x07link\x1b]8;;\x07 \x1b[2J \u202egnp.exe \u0000 \rOK'
      const data = emptyData()
      data.products.push(stripeProduct('prod_evil', hostile, {active: false}))
      data.coupons.push(stripeCoupon('co_evil', {name: hostile}))
      data.promotionCodes.push(stripePromotionCode('promo_evil', `EVIL-\x1b[2J-CODE`, 'co_evil'))
      const stripe = await startFakeStripe(data, STRIPE_KEY)
      try {
        const args = ['migrate', 'stripe', '--out', join(box.root, 'hostile'), '--api-base', stripe.url, '--no-target']
        const tty = await runTty(`${TILL} ${args.map(sh).join(' ')}`, {env: box.env({STRIPE_API_KEY: STRIPE_KEY})})
        expect(tty.code, tty.stdout).toBe(0)
        for (const raw of ['\x1b]52;', '\x1b]8;', '\x1b[2J', '\u202e', '\u0000']) expect(tty.stdout).not.toContain(raw)
        const line = tty.stdout.split('\n').find((l) => l.includes('prod_evil'))
        expect(line).toContain('"Evil \\x1b]52;c;aGk=\\x07 \\x1b]8;;https://x.test\\x07link\\x1b]8;;\\x07 \\x1b[2J \\u202egnp.exe \\x00  OK"')
        expect(tty.stdout).toContain('code "EVIL-\\x1b[2J-CODE" becomes "EVIL2JCODE"')
        const piped = await till(args)
        expect(piped.code, piped.stderr).toBe(0)
        expect(piped.stdout).toContain(`"${hostile}"`)
      } finally {
        await stripe.stop()
      }
    },
    scaled(60_000),
  )

  it(
    'Paddle: HUF and COP in hundredths, CLP in whole units, each as much in Polar',
    async () => {
      const fixtures = paddleFixtures({products: 0, customers: 0})
      fixtures.discounts = []
      for (const [n, currency, amount] of [
        [900, 'CLP', '5000'],
        [901, 'HUF', '250000'],
        [902, 'COP', '1000000'],
      ] as const) {
        const product = paddleProductFixture(n, {name: `Paddle ${currency} plan`})
        fixtures.products.push(product)
        fixtures.prices.push(paddlePriceFixture(n, product.id, {unit_price: {amount, currency_code: currency}}))
      }
      const paddle = fakePaddle(fixtures, PADDLE_KEY)
      await paddle.start()
      try {
        const {price, text} = await migrateAndApply('paddle', paddle.url, 'paddle')
        expect(fixtures.products.map((p) => price(p.id))).toEqual(['5000 clp', '250000 huf', '1000000 cop'])
        // the file reads as the source meant it: 2,500.00 HUF, not 250,000
        for (const amount of ['amount: "5000"', 'amount: "2500.00"', 'amount: "10000.00"']) expect(text).toContain(amount)
      } finally {
        await paddle.close()
      }
    },
    scaled(60_000),
  )

  it(
    'Lemon Squeezy: an ISK store counts in whole krónur; a discount that expired in 2020 is not moved',
    async () => {
      const iceland = lsStore('7', 'EUR')
      iceland.attributes.currency = 'ISK' as typeof iceland.attributes.currency
      const fixtures: LsFixtures = {
        stores: [iceland],
        products: [lsProduct(700, 7, 'Lemon ISK plan')],
        variants: [lsVariant(7001, 700, 70001, {status: 'published'})],
        prices: [lsPrice(70001, 7001, {unit_price: 5000})],
        discounts: [
          lsDiscount(71, {store_id: 7, name: 'Old', code: 'OLD2020', expires_at: '2020-06-30T00:00:00.000000Z'}),
          lsDiscount(72, {store_id: 7, name: 'Five hundred', code: 'ISK500', amount: 500, amount_type: 'fixed'}),
        ],
        customers: [],
        subscriptions: [],
      }
      const lemon = fakeLemonSqueezy(fixtures, LS_KEY)
      await lemon.start()
      try {
        const {report, price, discounts} = await migrateAndApply('lemonsqueezy', `${lemon.url}/v1`, 'lemon')
        expect(price('7001')).toBe('500000 isk')
        expect(reasons(report)).toEqual(['71 [archived] no longer redeemable at the source: it expired on 2020-06-30T00:00:00.000000Z'])
        expect(discounts.find((d: Json) => d.code === 'OLD2020')).toBeUndefined()
        const isk = discounts.find((d: Json) => d.code === 'ISK500')
        expect([isk.amount, isk.currency]).toEqual([50_000, 'isk'])
      } finally {
        await lemon.close()
      }
    },
    scaled(60_000),
  )
})
