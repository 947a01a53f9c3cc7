import {Args, Flags} from '@oclif/core'

import {generateOnce} from '../../../areas/billing/invoice-generation.js'
import {generateInvoice, getOrder} from '../../../client/resources/orders.js'
import {BaseCommand, bulkWriteFlags, outputFlags} from '../../../areas/command.js'
import {coreInvoices, waitForInvoice} from '../../../client/resources/invoices.js'

export default class OrdersInvoiceGenerate extends BaseCommand {
  static override summary = "Generate an order's invoice (billing name and address are frozen from then on)."
  static override description =
    'The service generates the document shortly after; --wait polls, within the rate budget, until it exists and prints its URL. Give - as ID to read order ids from stdin (one per line or JSON lines with an id).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --wait',
    {
      description: 'Every paid order',
      command: '<%= config.bin %> orders list --status paid --all -o jsonl | jq -r .id | <%= config.bin %> <%= command.id %> -',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Order id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    wait: Flags.boolean({description: 'Wait until the invoice exists and print its URL.'}),
    timeout: Flags.integer({description: 'With --wait: seconds to wait at most.', default: 60, min: 1}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(OrdersInvoiceGenerate)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      async (id) => {
        const status = await generateOnce(
          id,
          () => generateInvoice(client, id),
          () => getOrder(client, id),
        )
        if (!flags.wait) return {order_id: id, status}
        return {order_id: id, status: 'ready', url: await waitForInvoice(client, coreInvoices, id, {timeoutMs: flags.timeout * 1000})}
      },
      async (result) => {
        if (result.status === 'ready' && !flags.json && !flags.output) this.ctx.io.stdout.write(`${result.url}\n`)
        else if (flags.json || flags.output) await this.writeOne('invoice', result, flags)
        else if (result.status === 'generated')
          this.ctx.note(`Order ${result.order_id} already has its invoice; get it with: till orders invoice get ${result.order_id}`)
        else this.ctx.note(`Generating the invoice of order ${result.order_id}; get it with: till orders invoice get ${result.order_id}`)
      },
    )
  }
}
