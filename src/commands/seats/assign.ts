import {assignSeat} from '../../client/resources/seats.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {assignBody, containerFlags, containerFrom, recipientFlags} from '../../areas/seats/input.js'

export default class SeatsAssign extends BaseCommand {
  static override summary = "Give one of a seat-based subscription's (or order's) seats to a person, by e-mail or customer."
  static override description =
    'The seat is pending until its holder claims it with the invitation the service e-mails them (see till seats claim-info and claim); --immediate-claim skips the invitation and gives the benefits now. An e-mail no customer has becomes a new customer. The service refuses when every seat is taken (add seats with till subscriptions update ID --seats N) or the person already holds one. Piped without a format, prints the seat id alone.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --email ada@example.com',
    {
      description: 'An existing customer, claimed at once, with metadata',
      command:
        '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --customer 4d2e6f80-1a3b-4c5d-8e9f-0a1b2c3d4e5f --immediate-claim --metadata team=design',
    },
  ]

  static override flags = {...outputFlags, ...containerFlags, ...recipientFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(SeatsAssign)
    const body = assignBody(containerFrom(flags, 'till seats assign --subscription ID --email ada@example.com'), flags)
    const seat = await assignSeat(await this.ctx.client(), body)
    if (seat.status === 'pending')
      this.ctx.note(
        `Invitation sent to ${seat.email ?? seat.customer_email ?? 'the seat holder'}; it expires ${seat.invitation_token_expires_at ?? 'in a day'}.`,
      )
    await this.writeCreated('customer-seats', seat, flags)
  }
}
