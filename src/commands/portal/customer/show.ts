import {getPortalCustomer} from '../../../client/resources/portal.js'
import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'

export default class PortalCustomerShow extends PortalCommand {
  static override summary = 'Show the signed-in customer: email, name, billing name and address, tax id.'
  static override description =
    'Acts as the customer of TILL_CUSTOMER_TOKEN, or of --as-customer / --as-customer-id (a session made with the organization token for this command only).'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --json']

  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalCustomerShow)
    await this.writeOne('portal-customer', await getPortalCustomer(await this.portalClient(flags)), flags)
  }
}
