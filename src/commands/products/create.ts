import {Flags} from '@oclif/core'

import {createProduct, setProductBenefits, type ProductCreate} from '../../client/resources/products.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {metadataFlag, priceFlags, seatTierFlags, VISIBILITIES} from '../../areas/catalog/flags.js'
import {currencyCode, fixedPrice, meteredPrice, priceFrom, priceRule, seatPrice} from '../../areas/catalog/input.js'
import {metadataFrom} from '../../cli/input/fields.js'
import {getBenefit} from '../../client/resources/benefits.js'
import {toTillError} from '../../client/errors.js'
import {ExitCode, TillError, usageError} from '../../client/till-error.js'
import {toMinor} from '../../cli/input/money.js'

const nameRule = (v: string) => (v.trim().length >= 3 && v.trim().length <= 64) || 'a name of 3-64 characters'

export default class ProductsCreate extends BaseCommand {
  static override summary = 'Create a one-time or recurring product with a fixed, pay-what-you-want, free or seat-based price.'
  static override description =
    'Without --interval the product is sold once; with it, it is a subscription billed every --interval-count intervals. Amounts are in major units of --currency (default usd), or in minor units with --amount-minor. --benefit attaches benefits once the product exists (each is checked first, so an unknown one creates nothing). --price 0 is a free price, as --free. --seat-tiers prices per seat by tiers of seat counts (alone, or on top of a fixed --price); its subscriptions have seats to assign (till seats). --currency takes the currencies the service takes. On a terminal a missing name or price is asked for, and then how often it is billed (without --interval).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --name "Icon Pack" --price 19.00',
    {
      description: 'A monthly plan billed for usage: 0.5 cents per unit of a meter on top of $10',
      command: '<%= config.bin %> <%= command.id %> --name "API Plan" --interval month --price 10.00 --metered 5c8e1a2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d:0.005',
    },
    {
      description: 'A monthly subscription with two benefits',
      command:
        '<%= config.bin %> <%= command.id %> --name "Pro Plan" --interval month --price 29.00 --benefit 0b6d9f2e-8c1a-4d3b-9e7f-5a2c4b6d8e01 --benefit 3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
    },
    {
      description: 'Pay what you want, from 1 EUR, suggesting 5',
      command: '<%= config.bin %> <%= command.id %> --name "Tip jar" --pay-what-you-want --minimum 1 --preset 5 --currency eur',
    },
    {
      description: 'A team plan priced per seat: $10.00 a seat up to 5 seats, $8.00 a seat from the sixth',
      command: '<%= config.bin %> <%= command.id %> --name "Team Plan" --interval month --seat-tiers 1-5:10.00,6+:8.00',
    },
    {
      description: 'A free quarterly plan with metadata',
      command: '<%= config.bin %> <%= command.id %> --name "Community" --free --interval month --interval-count 3 --metadata tier=free',
    },
  ]

  static override flags = {
    ...outputFlags,
    name: Flags.string({char: 'n', description: 'Product name, 3-64 characters.'}),
    description: Flags.string({char: 'd', description: 'Description shown on the checkout (Markdown).'}),
    interval: Flags.option({
      options: ['day', 'week', 'month', 'year'] as const,
      description: 'Bill every interval (a subscription); omit for a one-time product.',
    })(),
    'interval-count': Flags.integer({description: 'With --interval: bill every N intervals, 1-999 (default 1).', min: 1, max: 999}),
    ...priceFlags,
    currency: Flags.string({description: 'Currency of the price, ISO 4217 (default usd).', helpGroup: 'PRICE'}),
    visibility: Flags.option({options: VISIBILITIES, description: 'Who can see it (default public).'})(),
    ...metadataFlag(),
    benefit: Flags.string({description: 'Benefit id to grant with the product (repeatable).', multiple: true}),
    ...seatTierFlags('A seat-based price'),
    metered: Flags.string({
      description:
        'A metered price METER_ID:UNIT_PRICE[:CAP] in the currency, as --price (repeatable; recurring products only), e.g. METER:0.005 for half a cent a unit, METER:0.02:100.00 capped at 100.00 a period.',
      multiple: true,
      helpGroup: 'PRICE',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(ProductsCreate)
    if (flags['interval-count'] !== undefined && !flags.interval)
      throw usageError('--interval-count needs --interval', 'e.g. --interval month --interval-count 3')
    // A name given but not one the service takes is the problem to name, before any missing price.
    if (flags.name !== undefined && nameRule(flags.name) !== true)
      throw usageError(`--name ${JSON.stringify(flags.name)} is not a product name: the service takes ${nameRule(flags.name)}`, 'e.g. --name "Icon Pack"')
    const currency = currencyCode(flags.currency ?? 'usd')
    const metadata = metadataFrom(flags.metadata)
    let price = priceFrom(flags, currency)
    const metered = (flags.metered ?? []).map((m) => meteredPrice(m, currency))
    const seats = flags['seat-tiers'] === undefined ? undefined : seatPrice(flags['seat-tiers'], currency, flags['seat-tier-type'])
    if (seats && price && price.amount_type !== 'fixed')
      throw usageError('--seat-tiers goes alone or with a fixed --price', 'drop --free or --pay-what-you-want, e.g. --seat-tiers 1-5:10.00,6+:8.00')
    if (metered.length > 0 && !flags.interval)
      throw usageError('--metered needs --interval: usage is billed on subscriptions', 'e.g. --interval month --metered METER_ID:0.005')
    // asked on a terminal when the product is being described there (its name or price asked): once, or how often
    const asking = this.prompter.interactive && (flags.name === undefined || (!price && metered.length === 0 && !seats))
    const name = flags.name ?? (await this.prompter.text('--name', 'Product name', {validate: nameRule})).trim()
    let interval = flags.interval
    if (asking && !interval) {
      const every = await this.prompter.select('--interval', 'Billed', async () => [
        {name: 'once (a one-time purchase)', value: 'once'},
        ...(['month', 'year', 'week', 'day'] as const).map((i) => ({name: `every ${i} (a subscription)`, value: i})),
      ])
      if (every !== 'once') interval = every as NonNullable<typeof interval>
    }
    if (!price && metered.length === 0 && !seats)
      price = fixedPrice(
        toMinor(
          await this.prompter.text('--price', `Price in ${currency.toUpperCase()} (e.g. 12.00; 0 for free), or pass --free or --pay-what-you-want`, {
            validate: priceRule(currency),
          }),
          currency,
          '--price',
        ),
        currency,
      )
    if (price?.amount_type === 'fixed' && price.price_amount === 0 && !flags.free) {
      this.ctx.note('A price of 0 makes the product free (as --free does).')
    }
    const client = await this.ctx.client()
    // Every benefit must exist before the product is made, so a typo creates nothing.
    const benefits = [...new Set(flags.benefit ?? [])]
    for (const id of benefits) {
      try {
        await getBenefit(client, id)
      } catch (error) {
        const e = toTillError(error, this.errorContext())
        if (e.exitCode !== ExitCode.notFound) throw error
        throw new TillError(`benefit ${id} not found; nothing was created`, ExitCode.notFound, 'list the benefits with: till benefits list')
      }
    }
    const common = {
      name,
      description: flags.description,
      visibility: flags.visibility,
      prices: [...(price ? [price] : []), ...(seats ? [seats] : []), ...metered],
      metadata,
    }
    // One-time (no interval) or recurring: the document's two forms of ProductCreate.
    const body: ProductCreate = interval ? {...common, recurring_interval: interval, recurring_interval_count: flags['interval-count']} : common
    let product = await createProduct(client, body)
    if (benefits.length > 0) {
      this.ctx.note(`Created product ${product.id}.`)
      try {
        product = await setProductBenefits(client, product.id, benefits)
      } catch (error) {
        const e = toTillError(error, this.errorContext())
        throw new TillError(
          `product ${product.id} was created, but attaching its benefits failed: ${e.message}`,
          e.exitCode,
          `finish with: till products update ${product.id} ${benefits.map((b) => `--benefit ${b}`).join(' ')}, or undo with: till products archive ${product.id}`,
        )
      }
    }
    await this.writeCreated('products', product, flags)
  }
}
