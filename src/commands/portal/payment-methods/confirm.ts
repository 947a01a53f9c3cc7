import {Args, Flags} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {pendingSetup} from '../../../areas/portal/payment-methods.js'
import {confirmPortalPaymentMethod} from '../../../client/resources/portal-account.js'

export default class PortalPaymentMethodsConfirm extends PortalCommand {
  static override summary = "Save the card of a setup that needed the customer's action (3-D Secure), once the customer has completed it."
  static override description =
    'SETUP_INTENT_ID is the one till portal payment-methods add printed (seti_...). Confirming it again answers the card it saved. Piped, prints the id of the saved card alone.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> seti_1Q2w3E4r5T6y7U8i9O0p --default']

  static override args = {'setup-intent-id': Args.string({description: 'The setup intent id (seti_...).', required: true, ignoreStdin: true})}
  static override flags = {
    ...outputFlags,
    default: Flags.boolean({description: "Make it the customer's default payment method."}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(PortalPaymentMethodsConfirm)
    const answer = await confirmPortalPaymentMethod(await this.portalClient(flags), {
      setup_intent_id: args['setup-intent-id'],
      set_default: flags.default ?? false,
    })
    if (answer.status === 'succeeded') return this.writeCreated('portal-payment-methods', answer.payment_method, flags)
    await pendingSetup(this.ctx, answer.client_secret, flags.json || this.jsonEnabled())
  }
}
