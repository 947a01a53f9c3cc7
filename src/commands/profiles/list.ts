import {BaseCommand, outputFlags} from '../../areas/command.js'
import {DEFAULT_URLS, readConfig} from '../../cli/config/profiles.js'
import {maskToken} from '../../client/redact.js'

export default class ProfilesList extends BaseCommand {
  static override summary = 'List profiles; the active one is marked.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(ProfilesList)
    const config = readConfig(this.ctx.configDir)
    const rows = Object.entries(config.profiles).map(([name, p]) => ({
      active: name === config.active,
      name,
      environment: p.environment,
      base_url: p.base_url ?? DEFAULT_URLS[p.environment],
      token: p.oauth
        ? `${maskToken(p.oauth.access_token)} (browser sign-in)`
        : p.token
          ? maskToken(p.token)
          : p.environment === 'local'
            ? '(from the emulator)'
            : '(none)',
      rate_limit: p.rate_limit ?? null,
      organization_id: p.organization_id ?? null,
    }))
    await this.writeList('profiles', rows, flags)
  }
}
