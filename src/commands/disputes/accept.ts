import {Args} from '@oclif/core'

import {acceptDispute, getDispute} from '../../client/resources/payments.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {yesFlag} from '../../areas/catalog/flags.js'
import {disputeSummary} from '../../areas/sales/disputes.js'

export default class DisputesAccept extends BaseCommand {
  static override summary = 'Accept a dispute: concede the chargeback, the money stays with the customer.'
  static override description =
    `The dispute is settled as lost and cannot be countered afterwards. Only a dispute awaiting a response (needs_response) can be accepted; the service refuses others (exit 1).

On a terminal, reads the dispute and asks, showing the amount conceded; without a terminal, --yes is required.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 8f7e6d5c-4b3a-4c2d-9e1f-0a9b8c7d6e5f',
    {description: 'Without a question, in a script', command: '<%= config.bin %> <%= command.id %> 8f7e6d5c-4b3a-4c2d-9e1f-0a9b8c7d6e5f --yes --json'},
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Dispute id.', required: true})}
  static override flags = {...outputFlags, ...yesFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(DisputesAccept)
    const client = await this.ctx.client()
    // the dispute is read only when someone will see the question; without one nothing is sent
    const ask = this.prompter.interactive && !flags.yes
    await this.confirmAction(ask ? disputeSummary(await getDispute(client, args.id)) : `accept dispute ${args.id}`, flags.yes)
    await this.writeOne('disputes', await acceptDispute(client, args.id), flags)
  }
}
