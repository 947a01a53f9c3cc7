import {Args, Flags} from '@oclif/core'

import {PortalCommand} from '../../../areas/portal/command.js'
import {checkWritableTarget} from '../../../client/fs-problem.js'
import {saveFile} from '../../../client/resources/invoices.js'
import {portalReceiptUrl} from '../../../client/resources/portal.js'

export default class PortalOrdersReceipt extends PortalCommand {
  static override summary = "Print the URL of one of the signed-in customer's paid orders' receipt, or download it."
  static override description =
    "The URL is temporary and needs no token. --download saves the PDF atomically. Exits 1 while the order is not paid (the service has no receipt yet), 3 for an order that is not the customer's."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --download receipt.pdf --as-customer usr_00003',
  ]

  static override args = {id: Args.string({description: 'Order id.', required: true, ignoreStdin: true})}
  static override flags = {download: Flags.string({char: 'd', description: 'Save the PDF to this file.'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalOrdersReceipt)
    if (flags.download !== undefined) checkWritableTarget(flags.download, '--download')
    const client = await this.portalClient(flags)
    const url = await portalReceiptUrl(client, args.id)
    let file: string | undefined
    if (flags.download) {
      // the link is presigned: fetched without credentials
      const data = await client.download(url)
      await saveFile(flags.download, data)
      file = flags.download
      this.ctx.note(`Saved the receipt of order ${args.id} to ${file} (${data.length} bytes).`)
    }
    if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify({order_id: args.id, url, ...(file ? {file} : {})})}\n`)
    else if (!file) this.ctx.io.stdout.write(`${url}\n`)
  }
}
