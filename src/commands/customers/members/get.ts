import {getMember} from '../../../client/resources/members.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {memberArgs, memberOf, teamExternalIdFlag} from '../../../areas/customers/members.js'

export default class CustomersMembersGet extends BaseCommand {
  static override summary = "Show one of a customer's members."
  static override description = "By the customer's id and the member's id, or by --external-id (the customer's) and the member's external id."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e',
    {description: 'By your external ids', command: '<%= config.bin %> <%= command.id %> --external-id team_00001 initech_bill --json'},
  ]

  static override args = memberArgs
  static override flags = {...outputFlags, 'external-id': teamExternalIdFlag}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersMembersGet)
    const ref = memberOf(args, flags['external-id'])
    const client = await this.ctx.client()
    await this.writeOne('members', await getMember(client, ref), flags)
  }
}
