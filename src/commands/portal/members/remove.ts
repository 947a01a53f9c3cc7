import {Args, Flags} from '@oclif/core'

import {removePortalMember} from '../../../client/resources/members.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {PORTAL_MEMBERS_HINT} from '../../../areas/portal/members.js'
import {withMemberHint} from '../../../areas/customers/members.js'

export default class PortalMembersRemove extends PortalCommand {
  static override summary = 'Remove a member from the signed-in team.'
  static override description =
    'Nobody removes themselves, and the owner cannot be removed. Asks for confirmation on a terminal; without one, --yes is required.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e',
    '<%= config.bin %> <%= command.id %> 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e --as-customer team_00001 --as-member-external-id initech_bill --yes',
  ]

  static override args = {id: Args.string({description: "The member's id.", required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalMembersRemove)
    await this.confirmAction(`remove member ${args.id} from the team`, flags.yes)
    const client = await this.portalClient(flags)
    await withMemberHint(removePortalMember(client, args.id), PORTAL_MEMBERS_HINT)
    if (flags.json || flags.output) await this.writeOne('deleted', {id: args.id, deleted: true}, flags)
    else this.ctx.note(`Removed member ${args.id}.`)
  }
}
