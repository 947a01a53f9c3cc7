import {Args} from '@oclif/core'

import {resendPortalSeatInvitation} from '../../../client/resources/seats.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSeatsResend extends PortalCommand {
  static override summary = "Send the invitation of one of the signed-in customer's pending seats again."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e --as-customer team_00001']

  static override args = {id: Args.string({description: 'Seat id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalSeatsResend)
    const seat = await resendPortalSeatInvitation(await this.portalClient(flags), args.id)
    this.ctx.note(`Invitation sent again to ${seat.email ?? seat.customer_email ?? 'the seat holder'}.`)
    await this.writeChanged('customer-seats', seat, flags)
  }
}
