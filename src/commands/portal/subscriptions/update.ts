import {Args, Flags} from '@oclif/core'

import {getPortalSubscription, updatePortalSubscriptionSeats} from '../../../client/resources/portal.js'
import {dryRunFlag, outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSubscriptionsUpdate extends PortalCommand {
  static override summary = "Change the number of seats of one of the signed-in customer's seat-based subscriptions."
  static override description =
    "As the portal does: within the tiers of the subscription's seat-based price, and never below the seats assigned (till portal seats list). The organization's proration applies: more seats are billed for the rest of the period. Confirmed on a terminal; --yes is needed otherwise."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --seats 8',
    '<%= config.bin %> <%= command.id %> 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --seats 8 --as-customer team_00001 --as-member-external-id initech_joanna --yes',
  ]

  static override args = {id: Args.string({description: 'Subscription id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    seats: Flags.integer({description: 'The number of seats the subscription should have.', required: true, min: 1}),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalSubscriptionsUpdate)
    const client = await this.portalClient(flags)
    // the question names the change: from how many seats to how many
    const current = this.prompter.interactive && !flags.yes ? await getPortalSubscription(client, args.id) : undefined
    const from = current ? ` from ${String(current.seats ?? 1)}` : ''
    await this.confirmAction(
      `Change the seats of subscription ${args.id}${from} to ${flags.seats}? More seats are billed for the rest of the period`,
      flags.yes,
    )
    await this.writeChanged('subscriptions', await updatePortalSubscriptionSeats(client, args.id, flags.seats), flags)
  }
}
