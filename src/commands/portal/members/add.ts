import {Flags} from '@oclif/core'

import {addPortalMember} from '../../../client/resources/members.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {PORTAL_MEMBERS_HINT} from '../../../areas/portal/members.js'
import {withMemberHint} from '../../../areas/customers/members.js'

export default class PortalMembersAdd extends PortalCommand {
  static override summary = 'Add a member to the signed-in team, as its owner or a billing manager.'
  static override description = 'The role is member or billing_manager (a team has one owner). An email the team already has gives that member back, unchanged.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --email milton@initech.example --name "Milton Waddams"',
    '<%= config.bin %> <%= command.id %> --as-customer team_00001 --as-member-external-id initech_bill --email samir@initech.example --role billing_manager',
  ]

  static override flags = {
    ...outputFlags,
    email: Flags.string({description: "The new member's email address.", required: true}),
    name: Flags.string({description: "The new member's name."}),
    role: Flags.string({description: 'The role.', options: ['member', 'billing_manager'], default: 'member'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalMembersAdd)
    const client = await this.portalClient(flags)
    const body = {email: flags.email, name: flags.name, role: flags.role as 'member' | 'billing_manager'}
    const member = await withMemberHint(addPortalMember(client, body), PORTAL_MEMBERS_HINT)
    await this.writeCreated('portal-members', member, flags)
  }
}
