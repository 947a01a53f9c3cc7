import {Args, Flags} from '@oclif/core'

import {updatePortalMember} from '../../../client/resources/members.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {PORTAL_MEMBERS_HINT} from '../../../areas/portal/members.js'
import {withMemberHint} from '../../../areas/customers/members.js'
import {MEMBER_ROLES} from '../../../areas/customers/members.js'
import {usageError} from '../../../client/till-error.js'

export default class PortalMembersUpdate extends PortalCommand {
  static override summary = "Change a team member's name or role."
  static override description =
    'Nobody changes their own role. Only the owner makes another member the owner (the owner then becomes a billing manager); the team always has exactly one owner.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e --role billing_manager',
    '<%= config.bin %> <%= command.id %> 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e --as-customer team_00001 --as-member-external-id initech_bill --role owner',
  ]

  static override args = {id: Args.string({description: "The member's id.", required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    name: Flags.string({description: 'New name.'}),
    role: Flags.string({description: 'New role (owner: the signed-in owner hands ownership over).', options: MEMBER_ROLES}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalMembersUpdate)
    if (flags.name === undefined && flags.role === undefined) throw usageError('nothing to update', 'pass --name or --role')
    const client = await this.portalClient(flags)
    const role = flags.role as (typeof MEMBER_ROLES)[number] | undefined
    const member = await withMemberHint(updatePortalMember(client, args.id, {name: flags.name, role}), PORTAL_MEMBERS_HINT)
    if (role === 'owner') this.ctx.note('Ownership moved: you are now a billing manager.')
    await this.writeChanged('portal-members', member, flags)
  }
}
