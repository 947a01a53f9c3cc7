import {listPortalMembers} from '../../../client/resources/members.js'
import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {PORTAL_MEMBERS_HINT} from '../../../areas/portal/members.js'
import {withMemberHint} from '../../../areas/customers/members.js'

export default class PortalMembersList extends PortalCommand {
  static override summary = "List the signed-in team's members, oldest first."
  static override description =
    'For an owner or a billing manager of a team customer: a member session (--as-customer with --as-member, or TILL_CUSTOMER_TOKEN from till sessions create --member).'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --as-customer team_00001 --as-member-external-id initech_bill',
    '<%= config.bin %> <%= command.id %> --all -o jsonl',
  ]

  static override flags = {...outputFlags, ...pageFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalMembersList)
    const client = await this.portalClient(flags)
    // the first page is read here, so that a refusal gets its hint
    const pages = listPortalMembers(client, this.pageOptions(flags))
    const first = await withMemberHint(pages.next(), PORTAL_MEMBERS_HINT)
    async function* members() {
      if (first.done) return
      yield first.value
      yield* pages
    }
    await this.writeList('portal-members', members(), flags)
  }
}
