import {Args} from '@oclif/core'

import {PortalCommand} from '../../../areas/portal/command.js'
import {requestEmailUpdate} from '../../../client/resources/portal-account.js'

export default class PortalEmailRequest extends PortalCommand {
  static override summary = "Ask to change the signed-in customer's e-mail address: a verification link is sent to the new one."
  static override description =
    "The change happens when the link's token is verified (till portal email verify TOKEN), within 30 minutes; a new request replaces a pending one. Only individual customers can change their address, and only when the organization's portal allows it. On the local emulator, GET /_emulator/email-verifications shows the token the e-mail would carry."
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> ada@new.example.com',
    '<%= config.bin %> <%= command.id %> ada@new.example.com --as-customer usr_00003',
  ]

  static override args = {email: Args.string({description: 'The new e-mail address.', required: true, ignoreStdin: true})}

  async run(): Promise<{email: string; status: string}> {
    const {args, flags} = await this.parseWithGlobals(PortalEmailRequest)
    await requestEmailUpdate(await this.portalClient(flags), args.email)
    this.ctx.note(`A verification link was sent to ${args.email}; the address changes once its token is verified: till portal email verify TOKEN`)
    return {email: args.email, status: 'verification_sent'}
  }
}
