import {BaseCommand} from '../../areas/command.js'
import {exportFlags, runExport} from '../../areas/sales/export.js'

export default class CustomersExport extends BaseCommand {
  static override summary = 'Export every customer as CSV, made by the service.'
  static override description =
    'One line per customer, newest first, as the service writes them. Without --file the CSV goes to stdout; with it, the file is written whole or not at all (an interrupted export leaves no partial file).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --file customers.csv',
    {description: 'Into another tool', command: '<%= config.bin %> <%= command.id %> | head -5'},
  ]

  static override flags = {
    ...exportFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(CustomersExport)
    await runExport(this.ctx, await this.ctx.client(), 'customers', flags.file)
  }
}
