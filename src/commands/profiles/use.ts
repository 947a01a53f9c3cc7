import {Args} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {readConfig, updateConfig} from '../../cli/config/profiles.js'
import {usageError} from '../../client/till-error.js'
import {nearestName} from '../../cli/suggest.js'

export default class ProfilesUse extends BaseCommand {
  static override summary = 'Make a profile the active one.'
  // gh's `auth switch`, and the verb people guess for profiles
  static override aliases = ['auth:switch', 'profiles:switch']
  static override examples = ['<%= config.bin %> <%= command.id %> sandbox', '<%= config.bin %> <%= command.id %> local']
  static override args = {name: Args.string({ignoreStdin: true, description: 'Profile name.', required: true})}

  async run(): Promise<void> {
    const {args} = await this.parseWithGlobals(ProfilesUse)
    const names = Object.keys(readConfig(this.ctx.configDir).profiles)
    if (!names.includes(args.name)) {
      const near = nearestName(args.name, names)
      throw usageError(
        `there is no profile named "${args.name}"${near ? `; did you mean "${near}"?` : ''}`,
        `the profiles: ${names.join(', ')} (till profiles list)`,
      )
    }
    const data = await updateConfig(this.ctx.configDir, (c) => {
      c.active = args.name
    })
    this.ctx.note(`Active profile: ${args.name} (${data.profiles[args.name]!.environment}).`)
  }
}
