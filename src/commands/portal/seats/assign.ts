import {Flags} from '@oclif/core'

import {assignPortalSeat} from '../../../client/resources/seats.js'
import {checkUuid} from '../../../client/ids.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {assignBody, containerFrom, recipientFlags} from '../../../areas/seats/input.js'

export default class PortalSeatsAssign extends PortalCommand {
  static override summary = "Give one of the signed-in customer's seats to a teammate, by e-mail or customer."
  static override description =
    "As the portal does for a team's billing manager: the seat is pending until the teammate claims the invitation the service e-mails them (--immediate-claim: claimed now). --checkout names the subscription or order a checkout made instead of --subscription or --order. Piped without a format, prints the seat id alone."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --email grace@example.com',
    '<%= config.bin %> <%= command.id %> --checkout 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f --email grace@example.com --as-customer team_00001',
  ]

  static override flags = {
    ...outputFlags,
    subscription: Flags.string({description: 'The seat-based subscription (id) whose seat this is.', exclusive: ['order', 'checkout']}),
    order: Flags.string({description: 'The one-time order (id) of seats whose seat this is.', exclusive: ['subscription', 'checkout']}),
    checkout: Flags.string({description: 'The checkout (id) whose subscription or order has the seats.', exclusive: ['subscription', 'order']}),
    ...recipientFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalSeatsAssign)
    const example = 'till portal seats assign --subscription ID --email grace@example.com'
    const body = flags.checkout
      ? {...assignBody({}, flags), checkout_id: checkUuid(flags.checkout, 'checkout id')}
      : assignBody(containerFrom({subscription: flags.subscription, order: flags.order}, example), flags)
    const seat = await assignPortalSeat(await this.portalClient(flags), body)
    if (seat.status === 'pending') this.ctx.note(`Invitation sent to ${seat.email ?? seat.customer_email ?? 'the seat holder'}.`)
    await this.writeCreated('customer-seats', seat, flags)
  }
}
