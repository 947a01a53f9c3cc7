import {Args, Flags} from '@oclif/core'

import {dryRunFlag, outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {grantUpdateBody} from '../../../areas/portal/grants.js'
import {getPortalBenefitGrant, updatePortalBenefitGrant} from '../../../client/resources/portal.js'

export default class PortalBenefitGrantsUpdate extends PortalCommand {
  static override summary = "Connect or disconnect the account a Discord or GitHub benefit grant uses, or change a Slack grant's invited e-mail."
  static override description =
    "The grant's benefit type is read first and sent with the change, as the service requires. --account-id must be a Discord or GitHub account the customer connected in the portal; --disconnect removes the account (and the access it gives). A revoked grant cannot change. Confirmed on a terminal; --yes is needed otherwise."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> 5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170 --account-id 1234567',
    '<%= config.bin %> <%= command.id %> 5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170 --disconnect --as-customer usr_00003 --yes',
  ]

  static override args = {id: Args.string({description: 'Benefit grant id.', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    'account-id': Flags.string({
      description: "The customer's connected Discord or GitHub account to use.",
      exactlyOne: ['account-id', 'disconnect', 'invited-email'],
    }),
    disconnect: Flags.boolean({description: 'Remove the Discord or GitHub account from the grant.', exactlyOne: ['account-id', 'disconnect', 'invited-email']}),
    'invited-email': Flags.string({
      description: 'A Slack shared channel grant: the e-mail to invite.',
      exactlyOne: ['account-id', 'disconnect', 'invited-email'],
    }),
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalBenefitGrantsUpdate)
    const client = await this.portalClient(flags)
    const grant = await getPortalBenefitGrant(client, args.id)
    const change = {accountId: flags['account-id'], disconnect: flags.disconnect, invitedEmail: flags['invited-email']}
    const {body, summary} = grantUpdateBody(grant, change)
    await this.confirmAction(`${summary} on benefit grant ${args.id}`, flags.yes)
    await this.writeChanged('benefit-grants', await updatePortalBenefitGrant(client, args.id, body), flags)
  }
}
