import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../../lib/base-command.js'
import {coreInvoices, invoiceUrl, saveFile} from '../../../lib/invoices.js'

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
    const client = await this.ctx.client()
    const url = await invoiceUrl(client, coreInvoices, args.id)
    if (flags.download) {
      const data = await client.download(url)
      await saveFile(flags.download, data)
      this.ctx.note(`Saved the invoice of order ${args.id} to ${flags.download} (${data.length} bytes).`)
    }
    if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify({order_id: args.id, url, ...(flags.download ? {file: flags.download} : {})})}\n`)
    else if (!flags.download) this.ctx.io.stdout.write(`${url}\n`)
  }
}
