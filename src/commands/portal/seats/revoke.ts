import {Args, Flags} from '@oclif/core'

import {revokePortalSeat} from '../../../client/resources/seats.js'
import {dryRunFlag, outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSeatsRevoke extends PortalCommand {
  static override summary = "Revoke one of the signed-in customer's seats: its holder loses the benefits now, and the seat is free again."
  static override description =
    "Only the seats of the customer's own subscriptions and orders. It moves access, so it is confirmed on a terminal and needs --yes otherwise."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e',
    '<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e --as-customer team_00001 --yes',
  ]

  static override args = {id: Args.string({description: 'Seat id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalSeatsRevoke)
    await this.confirmAction(`revoke seat ${args.id} (its holder loses the product's benefits now)`, flags.yes)
    await this.writeChanged('customer-seats', await revokePortalSeat(await this.portalClient(flags), args.id), flags)
  }
}
