import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {LOCAL_PROFILE, readConfig, updateConfig} from '../../cli/config/profiles.js'
import {canPrompt} from '../../cli/config/token-input.js'
import {usageError} from '../../client/till-error.js'

export default class ProfilesRemove extends BaseCommand {
  static override summary = 'Remove a profile and its stored token (from the OS keyring too).'
  static override examples = ['<%= config.bin %> <%= command.id %> old-sandbox', '<%= config.bin %> <%= command.id %> old-sandbox --yes']
  static override args = {name: Args.string({ignoreStdin: true, description: 'Profile name.', required: true})}
  static override flags = {yes: Flags.boolean({char: 'y', description: 'Do not ask for confirmation (needed without a terminal).'})}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProfilesRemove)
    const config = readConfig(this.ctx.configDir)
    const profile = config.profiles[args.name]
    if (!profile) throw usageError(`there is no profile named "${args.name}"`, 'see them with: till profiles list')
    if (args.name === LOCAL_PROFILE)
      throw usageError(`the "${LOCAL_PROFILE}" profile is built in and cannot be removed`, 'switch away from it with: till profiles use NAME')
    if (!flags.yes) {
      if (!canPrompt(this.ctx.io)) throw usageError('--yes is required to remove a profile when not running interactively')
      const {confirm} = await import('@inquirer/prompts')
      if (!(await confirm({message: `Remove profile "${args.name}" (${profile.environment}) and its token?`, default: false}))) {
        this.ctx.note('Nothing removed.')
        return
      }
    }
    await updateConfig(this.ctx.configDir, (c) => {
      delete c.profiles[args.name]
      if (c.active === args.name) c.active = LOCAL_PROFILE
    })
    if (profile.token_store === 'keyring' && profile.keyring) {
      const {forgetKeyring} = await import('../../cli/config/secrets.js')
      await forgetKeyring(this.ctx, profile.keyring.account)
    }
    this.ctx.note(`Removed profile "${args.name}".${config.active === args.name ? ` The active profile is now "${LOCAL_PROFILE}".` : ''}`)
  }
}
