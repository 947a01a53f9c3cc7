import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../../areas/command.js'
import {coreInvoices, fetchInvoice, invoiceOutput} from '../../../client/resources/invoices.js'

export default class OrdersInvoiceGet extends BaseCommand {
  static override summary = "Print the URL of an order's invoice, or download it."
  static override description =
    "Exits 3 with the command to run when the invoice has not been generated yet. --download FILE saves the document atomically (an interrupted download leaves no partial file); --download DIR saves it into that folder under the service's file name; --download - writes it to stdout."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --download invoice.pdf',
    {
      description: 'Into a folder, under the file name the service gives it',
      command: '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --download ~/invoices',
    },
    {
      description: 'To stdout, for another program',
      command: '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --download - | pdftotext - -',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Order id.', required: true})}
  static override flags = {
    download: Flags.string({char: 'd', description: "Save the document to this file, into this folder (under the service's file name), or to stdout with -."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersInvoiceGet)
    const result = await fetchInvoice(await this.ctx.client(), coreInvoices, args.id, flags.download, (line) => this.ctx.note(line))
    this.ctx.io.stdout.write(invoiceOutput(result, this.jsonEnabled()))
  }
}
