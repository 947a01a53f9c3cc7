import {outputFlags, pageFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {listPortalPaymentMethods} from '../../../client/resources/portal-account.js'

export default class PortalPaymentMethodsList extends PortalCommand {
  static override summary = "The signed-in customer's saved payment methods, newest first."
  static override description =
    "The default one is the customer's default_payment_method_id (till portal customer show); change it with till portal customer update --default-payment-method ID."
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --json']

  static override flags = {...outputFlags, ...pageFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalPaymentMethodsList)
    await this.writeList('portal-payment-methods', listPortalPaymentMethods(await this.portalClient(flags), this.pageOptions(flags)), flags)
  }
}
