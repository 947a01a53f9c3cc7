import {PortalCommand} from '../../../areas/portal/command.js'
import {tokenArg, tokenFrom} from '../../../areas/portal/email.js'
import {verifyEmailUpdate} from '../../../client/resources/portal-account.js'

export default class PortalEmailVerify extends PortalCommand {
  static override summary = "Verify an e-mail change with its link's token: the customer's address changes, and a new session token is printed."
  static override description =
    'Needs no customer token: the verification token is the proof. Prints the new customer session token (use it as TILL_CUSTOMER_TOKEN). Exits 1 when the token is invalid or expired, or when another customer has the address by now.'
  static override enableJsonFlag = true
  static override examples = [
    '<%= config.bin %> <%= command.id %> polar_cev_6Jd2...',
    {description: 'Keep the token out of the process list', command: 'pbpaste | <%= config.bin %> <%= command.id %> -'},
  ]

  static override args = {token: tokenArg}

  async run(): Promise<{token: string}> {
    const {args} = await this.parseWithGlobals(PortalEmailVerify)
    const token = await tokenFrom(args.token, () => this.stdinIds())
    const answer = await verifyEmailUpdate(await this.ctx.anonymousClient(), token)
    this.ctx.note('The e-mail address was changed. The new customer session token follows (use it as TILL_CUSTOMER_TOKEN).')
    if (!this.jsonEnabled()) this.ctx.io.stdout.write(`${answer.token}\n`)
    return {token: answer.token}
  }
}
