import {Args} from '@oclif/core'

import {getPayment} from '../../client/resources/payments.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class PaymentsGet extends BaseCommand {
  static override summary = 'Show one payment: amount, status, method, and the order and checkout it paid.'
  static override description = 'Give - as ID to show every payment id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b',
    '<%= config.bin %> <%= command.id %> 3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b --json',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Payment id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PaymentsGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getPayment(client, id),
      (item) => this.writeOne('payments', item, flags),
    )
  }
}
