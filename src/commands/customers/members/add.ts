import {Flags} from '@oclif/core'

import {createMember} from '../../../client/resources/members.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {customerArgs, customerOf, teamExternalIdFlag, withMemberHint} from '../../../areas/customers/members.js'

export default class CustomersMembersAdd extends BaseCommand {
  static override summary = 'Add a member to a team customer.'
  static override description =
    "The role is member or billing_manager: a customer has one owner, made with the customer (move ownership with till customers members update --role owner). An email the customer's members already have gives that member back, unchanged. An individual customer has its owner alone: make it a team first (till customers update ID --type team)."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f --email milton@initech.example --name "Milton Waddams"',
    {
      description: 'By your external ids, as a billing manager',
      command:
        '<%= config.bin %> <%= command.id %> --external-id team_00001 --email samir@initech.example --member-external-id initech_samir --role billing_manager',
    },
  ]

  static override args = customerArgs
  static override flags = {
    ...outputFlags,
    'external-id': teamExternalIdFlag,
    email: Flags.string({description: "The member's email address (unique within the customer).", required: true}),
    name: Flags.string({description: "The member's name."}),
    'member-external-id': Flags.string({description: 'Your own id for the member (unique within the customer).'}),
    role: Flags.string({description: 'The role.', options: ['member', 'billing_manager'], default: 'member'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersMembersAdd)
    const customer = customerOf(args.customer, flags['external-id'])
    const client = await this.ctx.client()
    const body = {email: flags.email, name: flags.name, external_id: flags['member-external-id'], role: flags.role as 'member' | 'billing_manager'}
    const customerArg = 'id' in customer ? customer.id : `--external-id ${customer.externalId}`
    const member = await withMemberHint(createMember(client, customer, body), `make it a team customer first: till customers update ${customerArg} --type team`)
    await this.writeCreated('members', member, flags)
  }
}
