import {Args, Flags} from '@oclif/core'

import {updateDiscount} from '../../client/resources/discounts.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../areas/command.js'
import {discountFlags, discountUpdateBody, discountValueFlags} from '../../areas/sales/input.js'
import {nowFor} from '../../cli/input/when.js'

export default class DiscountsUpdate extends BaseCommand {
  static override summary = "Change a discount's name, code, value, window, redemption limit, products or metadata."
  static override description =
    'Its type (percentage or fixed) and duration cannot change. Once redeemed, its value cannot change either (the service refuses). --code "" removes the code; --product replaces the products it is restricted to; --metadata replaces the metadata. Give - as ID to apply the same change to every discount id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d --ends-at 2026-12-31T23:59:59Z',
    '<%= config.bin %> <%= command.id %> 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d --code SUMMER30 --percent 30',
    {description: 'No redemption limit any more', command: '<%= config.bin %> <%= command.id %> 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d --no-max-redemptions'},
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Discount id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    ...discountValueFlags,
    ...discountFlags,
    months: Flags.integer({description: 'Months it applies (repeating discounts only).', min: 1, max: 999}),
    'no-max-redemptions': Flags.boolean({description: 'Remove the redemption limit.', exclusive: ['max-redemptions']}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(DiscountsUpdate)
    const body = discountUpdateBody(flags, await nowFor(this.ctx.clock.now, {'--starts-at': flags['starts-at'], '--ends-at': flags['ends-at']}))
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => updateDiscount(client, id, body),
      (item) => this.writeChanged('discounts', item, flags),
    )
  }
}
