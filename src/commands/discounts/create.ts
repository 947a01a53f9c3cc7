import {Flags} from '@oclif/core'

import {createDiscount} from '../../client/resources/discounts.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {DISCOUNT_DURATIONS, discountCreateBody, discountFlags, discountValueFlags} from '../../areas/sales/input.js'
import {nowFor} from '../../cli/input/when.js'

export default class DiscountsCreate extends BaseCommand {
  static override summary = 'Create a discount: a percentage or a fixed amount off, once, forever or for some months.'
  static override description =
    `Give the value with --percent, or with --amount and --currency. A discount with --code can be typed by customers at checkout; without one it is applied by id (till checkouts create --discount ID).

--duration says how long a subscription keeps it: once (the first payment), forever, or repeating for --months months. For yearly prices, count months (24 for two years).`
  static override enableJsonFlag = true
  static override examples = [
    {description: '25% off the first payment, with a code', command: '<%= config.bin %> <%= command.id %> --name "Launch week" --percent 25 --code LAUNCH25'},
    {
      description: '$5 off every month for 3 months, 100 redemptions at most',
      command: '<%= config.bin %> <%= command.id %> --name "Spring" --amount 5.00 --currency usd --duration repeating --months 3 --max-redemptions 100',
    },
    {
      description: 'Only on one product, until the end of the year',
      command:
        '<%= config.bin %> <%= command.id %> --name "Pro promo" --percent 10 --product 2f6c1a7e-4b9d-4a57-9d3e-1c0f5b8e7a21 --ends-at 2026-12-31T23:59:59Z',
    },
  ]

  static override flags = {
    ...outputFlags,
    ...discountValueFlags,
    ...discountFlags,
    duration: Flags.option({options: DISCOUNT_DURATIONS, description: 'How long it applies to a subscription.', default: 'once'})(),
    months: Flags.integer({description: 'Months it applies, with --duration repeating.', min: 1, max: 999}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(DiscountsCreate)
    const body = discountCreateBody(flags, await nowFor(this.ctx.clock.now, {'--starts-at': flags['starts-at'], '--ends-at': flags['ends-at']}))
    const client = await this.ctx.client()
    await this.writeCreated('discounts', await createDiscount(client, body), flags)
  }
}
