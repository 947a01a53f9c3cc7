import {BaseCommand, outputFlags} from '../../areas/command.js'
import {DEFAULT_URLS, readConfig, tokenStoreOf} from '../../cli/config/profiles.js'
import {maskToken} from '../../client/redact.js'

export default class ProfilesList extends BaseCommand {
  static override summary = 'List profiles; the active one is marked, and each says where its token is kept (OS keyring or config file).'
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
      token:
        p.token_store === 'keyring' && p.keyring
          ? `(in the OS keyring${p.keyring.holds === 'oauth' ? ', browser sign-in' : ''})`
          : p.oauth
            ? `${maskToken(p.oauth.access_token)} (browser sign-in)`
            : p.token
              ? maskToken(p.token)
              : p.environment === 'local'
                ? '(from the emulator)'
                : '(none)',
      // read from the file alone: listing never asks the keyring
      token_store: tokenStoreOf(p),
      rate_limit: p.rate_limit ?? null,
      organization_id: p.organization_id ?? null,
    }))
    await this.writeList('profiles', rows, flags)
  }
}
