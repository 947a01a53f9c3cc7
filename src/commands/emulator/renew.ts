import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {controlPost, requireEmulator} from '../../areas/emulator/control.js'
import {renewalLine} from '../../areas/emulator/summaries.js'

export default class EmulatorRenew extends BaseCommand {
  static override summary = 'Renew a subscription now on the emulator, with a payment that succeeds or fails.'
  static override description =
    `Uses the emulator's control surface (outside /v1), since no API call makes a subscription renew: a new period starts now and its order is created (subscription.updated, subscription.cycled, order.created). The order is paid after the emulator's payment delay; with --fail-payment it stays pending and the subscription goes past_due (subscription.past_due). A subscription set to cancel at its period's end does not renew: the service ends it then (move the clock past it: till emulator clock advance). Prints one line; --json prints the subscription and the order.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3f0c1a2b-4d5e-4f60-8a9b-0c1d2e3f4a5b',
    {description: 'A renewal whose payment fails', command: '<%= config.bin %> <%= command.id %> 3f0c1a2b-4d5e-4f60-8a9b-0c1d2e3f4a5b --fail-payment'},
  ]

  static override enableJsonFlag = true
  static override args = {subscription: Args.string({description: 'Subscription id.', required: true})}
  static override flags = {
    'fail-payment': Flags.boolean({description: "The renewal's payment fails: the order stays pending, the subscription goes past_due."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(EmulatorRenew)
    requireEmulator(this.ctx.profile)
    const action = flags['fail-payment'] ? 'fail-payment' : 'renew'
    const result = await controlPost<{subscription: Record<string, unknown>; order: Record<string, unknown>}>(
      await this.ctx.client(),
      `/subscriptions/${encodeURIComponent(args.subscription)}/${action}`,
    )
    this.ctx.io.stdout.write(this.jsonEnabled() ? `${JSON.stringify(result, null, this.ctx.io.stdoutIsTTY ? 2 : undefined)}\n` : `${renewalLine(result)}\n`)
  }
}
