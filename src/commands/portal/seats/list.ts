import {listPortalSeats} from '../../../client/resources/seats.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {containerFlags, containerFrom, seatsLine} from '../../../areas/seats/input.js'
import {jsonFor} from '../../../cli/output/format.js'

export default class PortalSeatsList extends PortalCommand {
  static override summary = "List the seats of one of the signed-in customer's seat-based subscriptions (or orders)."
  static override description =
    "As the team's billing manager sees them in the portal: every seat, revoked ones too; stderr says how many are assigned and available. --json prints the whole answer (seats, available_seats, total_seats)."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09',
    '<%= config.bin %> <%= command.id %> --subscription 0b6f3c52-8a1d-4e7f-9b20-5c4d3e2f1a09 --as-customer team_00001 --json',
  ]

  static override flags = {...outputFlags, ...containerFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalSeatsList)
    const list = await listPortalSeats(await this.portalClient(flags), containerFrom(flags, 'till portal seats list --subscription ID'))
    if (this.jsonEnabled()) {
      this.ctx.io.stdout.write(`${jsonFor(JSON.stringify(list, null, 2), this.ctx.io.stdoutIsTTY)}\n`)
      return
    }
    await this.writeList('customer-seats', list.seats, flags)
    this.ctx.note(seatsLine(list))
  }
}
