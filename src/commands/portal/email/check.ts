import {PortalCommand} from '../../../areas/portal/command.js'
import {tokenArg, tokenFrom} from '../../../areas/portal/email.js'
import {checkEmailUpdate} from '../../../client/resources/portal-account.js'
import {ExitCode, TillError} from '../../../client/till-error.js'

export default class PortalEmailCheck extends PortalCommand {
  static override summary = "Check that an e-mail change's verification token is still valid (no customer token needed)."
  static override description = 'Exits 0 when the token is valid, 1 when it is invalid or expired (request the change again then).'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %> polar_cev_6Jd2...', 'pbpaste | <%= config.bin %> <%= command.id %> -']

  static override args = {token: tokenArg}

  async run(): Promise<{valid: boolean}> {
    const {args} = await this.parseWithGlobals(PortalEmailCheck)
    const token = await tokenFrom(args.token, () => this.stdinIds())
    if (!(await checkEmailUpdate(await this.ctx.anonymousClient(), token))) {
      throw new TillError('the e-mail change token is invalid or has expired', ExitCode.error, 'request the change again: till portal email request NEW_EMAIL')
    }
    if (!this.jsonEnabled()) this.ctx.io.stdout.write('valid\n')
    return {valid: true}
  }
}
