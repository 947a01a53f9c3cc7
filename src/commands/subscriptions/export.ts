import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {exportFlags, runExport} from '../../areas/sales/export.js'

export default class SubscriptionsExport extends BaseCommand {
  static override summary = 'Export every subscription as CSV, made by the service.'
  static override description =
    'One line per subscription, newest first: email, start, product, amount, currency, status and interval, as the service writes them. Without --file the CSV goes to stdout; with it, the file is written whole or not at all (an interrupted export leaves no partial file).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --file subscriptions.csv',
    {description: 'Into another tool', command: '<%= config.bin %> <%= command.id %> | head -5'},
  ]

  static override flags = {
    ...exportFlags,
    product: Flags.string({description: 'Only subscriptions of this product id (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(SubscriptionsExport)
    await runExport(this.ctx, await this.ctx.client(), 'subscriptions', flags.file, flags.product)
  }
}
