import {Args, Flags} from '@oclif/core'

import {portalInvoices} from '../../../../client/resources/portal.js'
import {fetchInvoice, invoiceOutput} from '../../../../client/resources/invoices.js'
import {PortalCommand} from '../../../../areas/portal/command.js'

export default class PortalOrdersInvoiceGet extends PortalCommand {
  static override summary = "Print the URL of the invoice of one of the signed-in customer's orders, or download it."
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

  static override args = {id: Args.string({description: 'Order id.', required: true, ignoreStdin: true})}
  static override flags = {
    download: Flags.string({char: 'd', description: "Save the document to this file, into this folder (under the service's file name), or to stdout with -."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrdersInvoiceGet)
    const result = await fetchInvoice(await this.portalClient(flags), portalInvoices, args.id, flags.download, (line) => this.ctx.note(line))
    this.ctx.io.stdout.write(invoiceOutput(result, this.jsonEnabled()))
  }
}
