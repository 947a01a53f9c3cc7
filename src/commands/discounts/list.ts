import {Flags} from '@oclif/core'

import {listDiscounts} from '../../client/resources/discounts.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class DiscountsList extends BaseCommand {
  static override summary = 'List discounts, newest first.'
  static override description = 'Deleted discounts are not listed. --query matches the name or the code.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Discounts whose name or code contains "summer"', command: '<%= config.bin %> <%= command.id %> --query summer'},
    {description: 'The most redeemed first, as CSV', command: '<%= config.bin %> <%= command.id %> --all --sort -redemptions_count -o csv > discounts.csv'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    query: Flags.string({char: 'q', description: 'Only discounts whose name or code contains this text.'}),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, name, code, redemptions_count, ends_at).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(DiscountsList)
    const client = await this.ctx.client()
    await this.writeList('discounts', listDiscounts(client, {query: flags.query, sorting: flags.sort?.split(',')}, this.pageOptions(flags)), flags)
  }
}
