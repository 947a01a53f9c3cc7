import {Flags} from '@oclif/core'

import {deleteMember, describeMember} from '../../../client/resources/members.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {memberArgs, memberOf, teamExternalIdFlag} from '../../../areas/customers/members.js'

export default class CustomersMembersRemove extends BaseCommand {
  static override summary = 'Remove a member from a customer.'
  static override description =
    'The member loses access to the customer portal of the customer. The owner cannot be removed: make another member the owner first (till customers members update --role owner). Asks for confirmation on a terminal; without one, --yes is required.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e',
    {description: 'By your external ids, without a prompt', command: '<%= config.bin %> <%= command.id %> --external-id team_00001 initech_samir --yes'},
  ]

  static override args = memberArgs
  static override flags = {
    ...outputFlags,
    'external-id': teamExternalIdFlag,
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersMembersRemove)
    const ref = memberOf(args, flags['external-id'])
    await this.confirmAction(`remove member ${describeMember(ref)}`, flags.yes)
    const client = await this.ctx.client()
    await deleteMember(client, ref)
    if (flags.json || flags.output) await this.writeOne('deleted', {...ref, deleted: true}, flags)
    else this.ctx.note(`Removed member ${describeMember(ref)}.`)
  }
}
