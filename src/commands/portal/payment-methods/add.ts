import {Flags} from '@oclif/core'

import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {addPortalPaymentMethod} from '../../../client/resources/portal-account.js'
import {pendingSetup} from '../../../areas/portal/payment-methods.js'

export default class PortalPaymentMethodsAdd extends PortalCommand {
  static override summary = "Save a card for the signed-in customer from the payment processor's confirmation token."
  static override description =
    "The token comes from the processor's payment form (Stripe's confirmation token, ctoken_...). When the card needs the customer's action (3-D Secure), nothing is saved yet: the command prints the client secret and the setup intent id, and after the customer has completed the action, till portal payment-methods confirm SETUP_INTENT_ID saves it. Piped, a saved card prints its id alone. A declined card exits 1 with the processor's reason."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> --confirmation-token ctoken_1Q2w3E4r5T6y --default',
    '<%= config.bin %> <%= command.id %> --confirmation-token ctoken_1Q2w3E4r5T6y --return-url https://example.com/account --as-customer usr_00003',
  ]

  static override flags = {
    ...outputFlags,
    'confirmation-token': Flags.string({description: "The processor's confirmation token id of the card.", required: true}),
    default: Flags.boolean({description: "Make it the customer's default payment method (a past-due order is then retried with it)."}),
    'return-url': Flags.string({description: 'Where the processor sends the customer back after an action (3-D Secure).', default: 'https://polar.sh/'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalPaymentMethodsAdd)
    const client = await this.portalClient(flags)
    const answer = await addPortalPaymentMethod(client, {
      confirmation_token_id: flags['confirmation-token'],
      set_default: flags.default ?? false,
      return_url: flags['return-url'],
    })
    if (answer.status === 'succeeded') return this.writeCreated('portal-payment-methods', answer.payment_method, flags)
    await pendingSetup(this.ctx, answer.client_secret, flags.json || this.jsonEnabled())
  }
}
