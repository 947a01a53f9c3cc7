import {Args} from '@oclif/core'

import {getDispute} from '../../client/resources/payments.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class DisputesGet extends BaseCommand {
  static override summary = 'Show one dispute: status, amount, reason, evidence deadline, customer, order and payment.'
  static override description = 'Give - as ID to show every dispute id read from stdin.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8f7e6d5c-4b3a-4c2d-9e1f-0a9b8c7d6e5f',
    '<%= config.bin %> <%= command.id %> 8f7e6d5c-4b3a-4c2d-9e1f-0a9b8c7d6e5f --json',
  ]
  static override args = {id: Args.string({ignoreStdin: true, description: 'Dispute id, or - to read ids from stdin.', required: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(DisputesGet)
    const client = await this.ctx.client()
    await this.eachId(
      args.id,
      flags,
      (id) => getDispute(client, id),
      (item) => this.writeOne('disputes', item, flags),
    )
  }
}
