import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {receiptUrl} from '../../client/resources/exports.js'
import {saveFile} from '../../client/resources/invoices.js'
import {checkWritableTarget} from '../../client/fs-problem.js'

export default class OrdersReceipt extends BaseCommand {
  static override summary = "Print the URL of a paid order's receipt, or download it."
  static override description =
    'The URL is temporary and needs no token. --download saves the PDF atomically: an interrupted download leaves no partial file. Exits 1 while the order is not paid (the service has no receipt yet).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --download receipt.pdf',
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Order id.', required: true})}
  static override flags = {download: Flags.string({char: 'd', description: 'Save the PDF to this file.'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersReceipt)
    if (flags.download !== undefined) checkWritableTarget(flags.download, '--download')
    const client = await this.ctx.client()
    const url = await receiptUrl(client, args.id)
    let file: string | undefined
    if (flags.download) {
      // a plain request without credentials: the link is presigned
      const data = await client.download(url)
      await saveFile(flags.download, data)
      file = flags.download
      this.ctx.note(`Saved the receipt of order ${args.id} to ${file} (${data.length} bytes).`)
    }
    if (this.jsonEnabled()) this.ctx.io.stdout.write(`${JSON.stringify({order_id: args.id, url, ...(file ? {file} : {})})}\n`)
    else if (!file) this.ctx.io.stdout.write(`${url}\n`)
  }
}
