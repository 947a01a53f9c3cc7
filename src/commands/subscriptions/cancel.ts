import {Args, Flags} from '@oclif/core'

import {cancelSubscription, CANCELLATION_REASONS, getSubscription} from '../../client/resources/subscriptions.js'
import {BaseCommand, bulkWriteFlags, outputFlags, dryRunFlag} from '../../areas/command.js'
import {actionSummary, cancelWords, checkIdsFromStdin, unlessAlready} from '../../areas/billing/subscriptions.js'

export default class SubscriptionsCancel extends BaseCommand {
  static override summary = 'Cancel a subscription at the end of its current period.'
  static override description =
    `The subscription stays active, with its benefits, until the period ends; undo with: till subscriptions uncancel ID. To end it now, use: till subscriptions revoke ID.

Confirmed on a terminal; --yes is needed otherwise. Give - as ID to read subscription ids from stdin (one per line or JSON lines with an id): one confirmation, one result per id.`
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --reason too_expensive --comment "Moving to the yearly plan of a competitor"',
    {
      description: 'Cancel every past-due subscription at its period end',
      command: '<%= config.bin %> subscriptions list --status past_due --all -o jsonl | <%= config.bin %> <%= command.id %> - --reason other --yes',
    },
  ]

  static override args = {id: Args.string({ignoreStdin: true, description: 'Subscription id, or - to read ids from stdin.', required: true})}
  static override flags = {
    ...outputFlags,
    ...bulkWriteFlags,
    reason: Flags.option({options: CANCELLATION_REASONS, description: "The customer's reason for cancelling."})(),
    comment: Flags.string({description: "The customer's comment on the cancellation."}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SubscriptionsCancel)
    checkIdsFromStdin(args.id, this.ctx.io)
    const client = await this.ctx.client()
    await this.confirmAction(await actionSummary(client, args.id, cancelWords, this.prompter.interactive && !flags.yes), flags.yes)
    const cancel = (id: string) =>
      unlessAlready(
        () => getSubscription(client, id),
        'cancel',
        () => cancelSubscription(client, id, {reason: flags.reason, comment: flags.comment}),
        (l) => this.ctx.note(l),
      )
    await this.eachId(args.id, flags, cancel, (s) => this.writeChanged('subscriptions', s, flags))
  }
}
