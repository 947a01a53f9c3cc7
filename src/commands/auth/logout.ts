import {BaseCommand} from '../../areas/command.js'
import {revokeSignIn} from '../../areas/auth/revoke.js'
import {readConfig, updateConfig} from '../../cli/config/profiles.js'
import {usageError} from '../../client/till-error.js'

export default class AuthLogout extends BaseCommand {
  static override summary =
    "Sign a profile out: revoke a browser sign-in's tokens at the service, then forget the stored credential, in the OS keyring or the config file (the profile and its settings stay)."
  static override description =
    'A browser sign-in (till auth login --web) is revoked at the service first (/v1/oauth2/revoke), so its tokens stop working everywhere; when the service cannot be reached, they are forgotten anyway and the warning says until when they stay valid. An organization access token is only forgotten: revoke it in the organization settings.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile sandbox']

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(AuthLogout)
    const config = readConfig(this.ctx.configDir)
    const name = flags.profile ?? config.active
    const profile = config.profiles[name]
    if (!profile) throw usageError(`there is no profile named "${name}"`, 'see them with: till profiles list')
    const inKeyring = profile.token_store === 'keyring' && profile.keyring
    if (!profile.token && !profile.oauth && !inKeyring) {
      this.ctx.note(`Profile "${name}" has no stored token.`)
      return
    }
    const secrets = await import('../../cli/config/secrets.js')
    if (inKeyring && profile.keyring?.holds === 'oauth') {
      // the sign-in is read from the keyring to be revoked; a keyring that does not answer leaves it valid (said)
      await secrets
        .loadCredential(this.ctx, config, name)
        .catch((error: Error) => this.ctx.note(`Warning: ${error.message}; the sign-in could not be revoked.`))
    }
    const revoked = profile.oauth ? await revokeSignIn(this.ctx, profile.oauth) : false
    await updateConfig(this.ctx.configDir, (c) => {
      const p = c.profiles[name]
      if (p) secrets.clearCredential(p)
    })
    if (inKeyring) await secrets.forgetKeyring(this.ctx, profile.keyring!.account)
    const what =
      profile.oauth || profile.keyring?.holds === 'oauth'
        ? revoked
          ? 'Revoked and removed the browser sign-in'
          : 'Removed the browser sign-in'
        : 'Removed the token'
    this.ctx.note(`${what} of profile "${name}" (${profile.environment}). Sign in again with: till auth login`)
  }
}
