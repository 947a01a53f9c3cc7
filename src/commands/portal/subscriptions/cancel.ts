import {Args, Flags} from '@oclif/core'

import {cancelPortalSubscription, cancelPortalSubscriptionPlain, getPortalSubscription} from '../../../client/resources/portal.js'
import {CANCELLATION_REASONS} from '../../../client/resources/subscriptions.js'
import {outputFlags, dryRunFlag} from '../../../areas/command.js'
import {cancelWords, unlessAlready} from '../../../areas/billing/subscriptions.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSubscriptionsCancel extends PortalCommand {
  static override summary = "Cancel one of the signed-in customer's subscriptions at the end of its current period."
  static override description =
    'As the portal does: the subscription stays active, with its benefits, until the period ends. With --reason or --comment they are recorded with the cancellation. Confirmed on a terminal; --yes is needed otherwise.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --as-customer usr_00003 --reason too_expensive --yes',
  ]

  static override args = {id: Args.string({description: 'Subscription id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    reason: Flags.option({options: CANCELLATION_REASONS, description: 'Why the customer cancels.'})(),
    comment: Flags.string({description: "The customer's comment on the cancellation."}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalSubscriptionsCancel)
    // Read the subscription for the question only when a person will see it.
    const client = this.prompter.interactive && !flags.yes ? await this.portalClient(flags) : undefined
    const summary = client ? await cancelWords.detailed(await getPortalSubscription(client, args.id)) : cancelWords.plain(args.id)
    await this.confirmAction(summary, flags.yes)
    const portal = client ?? (await this.portalClient(flags))
    // With a reason or a comment, the update that records them; else the portal's own cancellation (DELETE).
    const cancel = () =>
      flags.reason || flags.comment
        ? cancelPortalSubscription(portal, args.id, {reason: flags.reason, comment: flags.comment})
        : cancelPortalSubscriptionPlain(portal, args.id)
    const result = await unlessAlready(
      () => getPortalSubscription(portal, args.id),
      'cancel',
      cancel,
      (l) => this.ctx.note(l),
    )
    await this.writeChanged('subscriptions', result, flags)
  }
}
