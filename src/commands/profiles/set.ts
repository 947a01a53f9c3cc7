import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {readConfig, updateConfig} from '../../cli/config/profiles.js'
import {printable} from '../../client/ids.js'
import {usageError} from '../../client/till-error.js'
import {API_VERSION, isKnownApiVersion, KNOWN_VERSIONS_TEXT} from '../../client/version.js'

export default class ProfilesSet extends BaseCommand {
  static override summary = 'Change a setting of a profile, keeping its token: the API version it pins.'
  static override description =
    `The API version (Polar-Version) is ${KNOWN_VERSIONS_TEXT}; ${API_VERSION} is the service's default and till's. The service removes 2026-04 in January 2027.`
  static override examples = [
    `<%= config.bin %> <%= command.id %> prod --api-version ${API_VERSION}`,
    {description: 'Try the next version on the sandbox first', command: '<%= config.bin %> <%= command.id %> sandbox --api-version 2027-01'},
  ]

  static override args = {name: Args.string({ignoreStdin: true, description: 'Profile name.', required: true})}
  static override flags = {
    'api-version': Flags.string({description: `Pin this API version (Polar-Version): ${KNOWN_VERSIONS_TEXT}.`, required: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProfilesSet)
    const version = flags['api-version']
    if (!isKnownApiVersion(version))
      throw usageError(`--api-version must be an API version the service knows, ${KNOWN_VERSIONS_TEXT}, not "${printable(version)}"`)
    if (!readConfig(this.ctx.configDir).profiles[args.name]) throw usageError(`there is no profile named "${args.name}"`, 'see them with: till profiles list')
    await updateConfig(this.ctx.configDir, (c) => {
      c.profiles[args.name]!.api_version = version
    })
    this.ctx.note(`Profile "${args.name}" now sends Polar-Version ${version}.`)
  }
}
