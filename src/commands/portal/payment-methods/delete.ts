import {Args, Flags} from '@oclif/core'

import {dryRunFlag} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {deletePortalPaymentMethod} from '../../../client/resources/portal-account.js'

export default class PortalPaymentMethodsDelete extends PortalCommand {
  static override summary = "Delete one of the signed-in customer's saved payment methods."
  static override description =
    'The subscriptions it pays move to another saved method (the default first). The last method a live paid subscription needs cannot be deleted: add another one, or cancel the subscription, first. Confirmed on a terminal; --yes is needed otherwise.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> 3c2b1a09-8f7e-4d6c-b5a4-938271605f4e',
    '<%= config.bin %> <%= command.id %> 3c2b1a09-8f7e-4d6c-b5a4-938271605f4e --as-customer usr_00003 --yes',
  ]

  static override args = {id: Args.string({description: 'Payment method id.', required: true, ignoreStdin: true})}
  static override flags = {
    yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'}),
    'dry-run': dryRunFlag,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalPaymentMethodsDelete)
    await this.confirmAction(`delete the customer's payment method ${args.id}`, flags.yes)
    await deletePortalPaymentMethod(await this.portalClient(flags), args.id)
    this.ctx.note(`Deleted payment method ${args.id}.`)
  }
}
