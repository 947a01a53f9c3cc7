import {outputFlags} from '../../../areas/command.js'
import {PortalCommand} from '../../../areas/portal/command.js'
import {getPortalUser, introspectPortalSession} from '../../../client/resources/portal-account.js'

export default class PortalSessionShow extends PortalCommand {
  static override summary = 'Show who the customer session belongs to (customer or team member, e-mail, role) and when it expires.'
  static override description =
    'Reads the authenticated user and the session itself (its expiry and return URL). Acts as TILL_CUSTOMER_TOKEN, or as --as-customer / --as-customer-id with a session made for this command only.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --as-customer usr_00003 --json']

  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(PortalSessionShow)
    const client = await this.portalClient(flags)
    const [user, session] = await Promise.all([getPortalUser(client), introspectPortalSession(client)])
    await this.writeOne('portal-session', {...user, ...session}, flags)
  }
}
