import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../../areas/command.js'
import {coreInvoices, fetchInvoice, invoiceOutput} from '../../../client/resources/invoices.js'

export default class OrdersInvoiceGet extends BaseCommand {
  static override summary = "Print the URL of an order's invoice, or download it."
  static override description = 'Exits 3 with the command to run when the invoice has not been generated yet. --download saves the document atomically: an interrupted download leaves no partial file.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --download invoice.pdf',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Order id.', required: true})}
  static override flags = {download: Flags.string({char: 'd', description: 'Save the document to this file.'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersInvoiceGet)
    const result = await fetchInvoice(await this.ctx.client(), coreInvoices, args.id, flags.download, (line) => this.ctx.note(line))
    this.ctx.io.stdout.write(invoiceOutput(result, this.jsonEnabled()))
  }
}
