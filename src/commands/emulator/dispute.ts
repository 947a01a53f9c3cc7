import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {controlPost, requireEmulator} from '../../areas/emulator/control.js'
import {disputeLine} from '../../areas/emulator/summaries.js'

export default class EmulatorDispute extends BaseCommand {
  static override summary = "Open a dispute on a paid order's payment on the emulator."
  static override description =
    "Uses the emulator's control surface (outside /v1), since disputes are opened by customers at their bank, never by an API call: the whole paid amount is disputed and awaits your response for 7 days (see till disputes list|accept). Prints one line; --json prints the dispute."
  static override examples = [
    '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    {
      description: 'With the reason the bank gives',
      command: '<%= config.bin %> <%= command.id %> 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d --reason product_not_received',
    },
  ]

  static override enableJsonFlag = true
  static override args = {order: Args.string({description: 'Paid order id.', required: true})}
  static override flags = {reason: Flags.string({description: 'The reason of the dispute.', default: 'fraudulent'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EmulatorDispute)
    requireEmulator(this.ctx.profile)
    const dispute = await controlPost<Record<string, unknown>>(await this.ctx.client(), `/orders/${encodeURIComponent(args.order)}/dispute`, {
      reason: flags.reason,
    })
    this.ctx.io.stdout.write(this.jsonEnabled() ? `${JSON.stringify(dispute, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${disputeLine(dispute)}\n`)
  }
}
