import {Args} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {controlPost, requireEmulator} from '../../areas/emulator/control.js'
import {paidLine} from '../../areas/emulator/summaries.js'

export default class EmulatorPay extends BaseCommand {
  static override summary = "Complete a pending order's payment now on the emulator."
  static override description =
    "Uses the emulator's control surface (outside /v1): the order is paid at once instead of after the payment delay (order.updated, order.paid, benefit grants). Prints one line; --json prints the order."
  static override examples = ['<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d']
  static override enableJsonFlag = true
  static override args = {order: Args.string({description: 'Pending order id.', required: true})}

  async run(): Promise<void> {
    const {args} = await this.parseWithGlobals(EmulatorPay)
    requireEmulator(this.ctx.profile)
    const order = await controlPost<Record<string, unknown>>(await this.ctx.client(), `/orders/${encodeURIComponent(args.order)}/pay`)
    this.ctx.io.stdout.write(this.jsonEnabled() ? `${JSON.stringify(order, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${paidLine(order)}\n`)
  }
}
