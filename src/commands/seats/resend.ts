import {Args} from '@oclif/core'

import {resendSeatInvitation} from '../../client/resources/seats.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'

export default class SeatsResend extends BaseCommand {
  static override summary = "Send a pending seat's invitation e-mail again."
  static override description = 'Only a pending seat has an invitation: the service refuses a claimed or revoked one.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> 6a1f2e3d-4c5b-4a69-8e7d-0f1a2b3c4d5e']

  static override args = {id: Args.string({description: 'Seat id.', required: true, ignoreStdin: true})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(SeatsResend)
    const seat = await resendSeatInvitation(await this.ctx.client(), args.id)
    this.ctx.note(`Invitation sent again to ${seat.email ?? seat.customer_email ?? 'the seat holder'}.`)
    await this.writeChanged('customer-seats', seat, flags)
  }
}
