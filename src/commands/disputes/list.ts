import {Flags} from '@oclif/core'

import {DISPUTE_STATUSES, listDisputes} from '../../client/resources/payments.js'
import {BaseCommand, outputFlags, pageFlags} from '../../areas/command.js'

export default class DisputesList extends BaseCommand {
  static override summary = 'List disputes (chargebacks), newest first.'
  static override description =
    'A dispute in needs_response waits for you until evidence_due_by: accept it (till disputes accept) or counter it from the dashboard.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Disputes waiting for a response', command: '<%= config.bin %> <%= command.id %> --status needs_response'},
    {description: 'The disputes of one order', command: '<%= config.bin %> <%= command.id %> --order 7d1c2b3a-5e6f-4a8b-9c0d-1e2f3a4b5c6d -o json'},
  ]

  static override flags = {
    ...outputFlags,
    ...pageFlags,
    order: Flags.string({description: 'Only disputes of this order id (repeatable).', multiple: true}),
    status: Flags.option({options: DISPUTE_STATUSES, description: 'Only disputes with this status (repeatable).', multiple: true})(),
    sort: Flags.string({description: 'Sort keys, comma-separated; a leading - sorts descending (created_at, amount).'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(DisputesList)
    const client = await this.ctx.client()
    await this.writeList(
      'disputes',
      listDisputes(client, {orderId: flags.order, status: flags.status, sorting: flags.sort?.split(',')}, this.pageOptions(flags)),
      flags,
    )
  }
}
