import {Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {exportFlags, runExport} from '../../areas/sales/export.js'

export default class OrdersExport extends BaseCommand {
  static override summary = 'Export every order as CSV, made by the service.'
  static override description =
    'One line per order, newest first: email, creation time, product, net amount, currency, status and invoice number, as the service writes them. Without --file the CSV goes to stdout; with it, the file is written whole or not at all (an interrupted export leaves no partial file).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --file orders.csv',
    {description: 'Into another tool', command: '<%= config.bin %> <%= command.id %> | head -5'},
  ]

  static override flags = {
    ...exportFlags,
    product: Flags.string({description: 'Only orders of this product id (repeatable).', multiple: true}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(OrdersExport)
    await runExport(this.ctx, await this.ctx.client(), 'orders', flags.file, flags.product)
  }
}
