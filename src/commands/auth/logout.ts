import {BaseCommand} from '../../areas/command.js'
import {readConfig, updateConfig} from '../../cli/config/profiles.js'
import {usageError} from '../../client/till-error.js'

export default class AuthLogout extends BaseCommand {
  static override summary = "Remove a profile's stored token (the profile and its settings stay)."
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile sandbox']

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(AuthLogout)
    const config = readConfig(this.ctx.configDir)
    const name = flags.profile ?? config.active
    const profile = config.profiles[name]
    if (!profile) throw usageError(`there is no profile named "${name}"`, 'see them with: till profiles list')
    if (!profile.token) {
      this.ctx.note(`Profile "${name}" has no stored token.`)
      return
    }
    await updateConfig(this.ctx.configDir, (c) => {
      delete c.profiles[name]!.token
    })
    this.ctx.note(`Removed the token of profile "${name}" (${profile.environment}). Sign in again with: till auth login`)
  }
}
