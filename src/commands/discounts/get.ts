import {Args} from '@oclif/core'

import {getDiscount} from '../../client/resources/discounts.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class DiscountsGet extends BaseCommand {
  static override summary = 'Show one discount: its value, duration, code, window, redemptions and products.'
  static override description = 'Deleted discounts are not found (exit 3). Give - as ID to show every discount id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d',
    '<%= config.bin %> <%= command.id %> 5b0e6d2c-7a1f-4c3e-9d8b-2f4a6c8e0b1d --json',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Discount id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(DiscountsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getDiscount(client, id),
      (item) => this.writeOne('discounts', item, flags),
    )
  }
}
