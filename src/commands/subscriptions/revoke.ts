import {Args, Flags} from '@oclif/core'

import {CANCELLATION_REASONS, revokeSubscription, getSubscription} from '../../client/resources/subscriptions.js'
import {BaseCommand, bulkWriteFlags, outputFlags, dryRunFlag} from '../../areas/command.js'
import {actionSummary, checkIdsFromStdin, revokeWords, unlessAlready} from '../../areas/billing/subscriptions.js'

export default class SubscriptionsRevoke extends BaseCommand {
  static override summary = 'End a subscription now and revoke its benefits.'
  static override description =
    `Unlike cancel, which waits for the period end, revoke ends the subscription immediately (status canceled) and cannot be undone. A subscription that has already ended, or that is unpaid (the service revoked it when its payments failed), is left as it is: a note says so and the exit is 0.

Confirmed on a terminal; --yes is needed otherwise. Give - as ID to read subscription ids from stdin (one per line or JSON lines with an id): one confirmation, one result per id.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    {
      description: 'Revoke, recording why, without a question',
      command: '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --reason unused --yes',
    },
    {
      description: 'Revoke every past-due or unpaid subscription (the unpaid ones are already revoked: noted, exit 0)',
      command: '<%= config.bin %> subscriptions list --status past_due --status unpaid --all -o jsonl | <%= config.bin %> <%= command.id %> - --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Subscription id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    reason: Flags.option({options: CANCELLATION_REASONS, description: "The customer's reason for ending it."})(),
    comment: Flags.string({description: "The customer's comment on ending it."}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SubscriptionsRevoke)
    checkIdsFromStdin(args.id, this.ctx.io)
    const client = await this.ctx.client()
    await this.confirmAction(await actionSummary(client, args.id, revokeWords, this.prompter.interactive && !flags.yes), flags.yes)
    const revoke = (id: string) =>
      unlessAlready(
        () => getSubscription(client, id),
        'revoke',
        () => revokeSubscription(client, id, {reason: flags.reason, comment: flags.comment}),
        (l) => this.ctx.note(l),
      )
    await this.eachId(args.id, flags, revoke, (s) => this.writeChanged('subscriptions', s, flags))
  }
}
