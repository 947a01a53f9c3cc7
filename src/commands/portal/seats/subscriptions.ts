import {listClaimedSubscriptions} from '../../../client/resources/seats.js'
import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalSeatsSubscriptions extends PortalCommand {
  static override summary = "List the subscriptions in which the signed-in customer holds a claimed seat (a team member's view)."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --as-customer-id 4d2e6f80-1a3b-4c5d-8e9f-0a1b2c3d4e5f --all -o jsonl',
  ]

  static override flags = {...outputFlags, ...pageFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalSeatsSubscriptions)
    await this.writeList('subscriptions', listClaimedSubscriptions(await this.portalClient(flags), this.pageOptions(flags)), flags)
  }
}
