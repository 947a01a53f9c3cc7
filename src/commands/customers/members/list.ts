import {Args, Flags} from '@oclif/core'

import {listAllMembers, listMembers} from '../../../client/resources/members.js'
import {BaseCommand, outputFlags, pageFlags} from '../../../areas/command.js'
import {customerOf, MEMBER_ROLES, teamExternalIdFlag} from '../../../areas/customers/members.js'

export default class CustomersMembersList extends BaseCommand {
  static override summary = "List a customer's members, oldest first as the portal lists them (the owner first); or every customer's, newest first."
  static override description =
    'A team customer has an owner, billing managers and members; an individual customer has its owner alone. Without a customer, the members of every customer are listed. Deleted members are not listed.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f',
    {description: "Every customer's owners, as JSON lines", command: '<%= config.bin %> <%= command.id %> --role owner --all -o jsonl'},
    {
      description: 'By your external id for the customer, billing managers only',
      command: '<%= config.bin %> <%= command.id %> --external-id team_00001 --role billing_manager',
    },
  ]

  static override args = {customer: Args.string({description: "The customer id (left out with --external-id; without either, every customer's members)."})}
  static override flags = {
    ...outputFlags,
    ...pageFlags,
    'external-id': teamExternalIdFlag,
    role: Flags.string({description: 'Only the members of this role.', options: MEMBER_ROLES}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersMembersList)
    const every = args.customer === undefined && flags['external-id'] === undefined
    const client = await this.ctx.client()
    const role = flags.role as (typeof MEMBER_ROLES)[number] | undefined
    const members = every
      ? listAllMembers(client, {role}, this.pageOptions(flags))
      : // one team in the order its portal lists it (portal members list takes no sorting): oldest first
        listMembers(client, customerOf(args.customer, flags['external-id']), {role, sorting: ['created_at']}, this.pageOptions(flags))
    await this.writeList('members', members, flags)
  }
}
