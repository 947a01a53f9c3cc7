import {listSeats} from '../../client/resources/seats.js'
import {BaseCommand, outputFlags} from '../../areas/command.js'
import {containerFlags, containerFrom, seatsLine} from '../../areas/seats/input.js'
import {jsonFor} from '../../cli/output/format.js'

export default class SeatsList extends BaseCommand {
  static override summary = 'List the seats of a seat-based subscription (or order): who holds each, pending, claimed or revoked.'
  static override description =
    'Every seat is listed, revoked ones too (a revoked seat is free again); stderr says how many of the seats bought are assigned and how many are available. --json prints the whole answer: the seats, available_seats and total_seats.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    {
      description: 'The counts and the seats as JSON',
      command: '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --json',
    },
  ]

  static override flags = {...outputFlags, ...containerFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(SeatsList)
    const list = await listSeats(await this.ctx.client(), containerFrom(flags, 'till seats list --subscription ID'))
    if (this.jsonEnabled()) {
      this.ctx.io.stdout.write(`${jsonFor(JSON.stringify(list, null, 2), this.ctx.io.stdoutIsTTY)}\n`)
      return
    }
    await this.writeList('customer-seats', list.seats, flags)
    this.ctx.note(seatsLine(list))
  }
}
