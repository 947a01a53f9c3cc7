import {Flags} from '@oclif/core'

import {updateMember} from '../../../client/resources/members.js'
import {BaseCommand, outputFlags} from '../../../areas/command.js'
import {MEMBER_ROLES, memberArgs, memberOf, teamExternalIdFlag} from '../../../areas/customers/members.js'
import {usageError} from '../../../client/till-error.js'

export default class CustomersMembersUpdate extends BaseCommand {
  static override summary = "Change a member's name, email or role."
  static override description =
    "--role owner moves ownership: the former owner becomes a billing manager. The owner keeps the role until another member is made owner. An individual customer's owner takes its email from the customer (till customers update ID --email)."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e9c0c57-3f4e-4a8a-9d61-2b0b1d2c3e4f 0b7d4a9e-1c2f-4e3a-8b5d-6f7a8b9c0d1e --role billing_manager',
    {
      description: 'Make a member the owner, by your external ids',
      command: '<%= config.bin %> <%= command.id %> --external-id team_00001 initech_joanna --role owner',
    },
  ]

  static override args = memberArgs
  static override flags = {
    ...outputFlags,
    'external-id': teamExternalIdFlag,
    name: Flags.string({description: 'New name.'}),
    email: Flags.string({description: 'New email address (unique within the customer).'}),
    role: Flags.string({description: 'New role (owner moves ownership to this member).', options: MEMBER_ROLES}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(CustomersMembersUpdate)
    const ref = memberOf(args, flags['external-id'])
    if (flags.name === undefined && flags.email === undefined && flags.role === undefined) {
      throw usageError('nothing to update', 'pass --name, --email or --role')
    }
    const client = await this.ctx.client()
    const role = flags.role as (typeof MEMBER_ROLES)[number] | undefined
    const member = await updateMember(client, ref, {name: flags.name, email: flags.email, role})
    if (role === 'owner') this.ctx.note('Ownership moved: the former owner is now a billing manager.')
    await this.writeChanged('members', member, flags)
  }
}
