import {Args} from '@oclif/core'

import {BaseCommand, outputFlags} from '../../areas/command.js'
import {resolveProfile} from '../../cli/context.js'
import {readConfig} from '../../cli/config/profiles.js'
import {maskToken} from '../../client/redact.js'

export default class ProfilesShow extends BaseCommand {
  static override summary = 'Show a profile as till will use it (environment variables applied, token masked).'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> sandbox']
  static override args = {name: Args.string({ignoreStdin: true, description: 'Profile name (default: the one in use).'})}
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProfilesShow)
    const config = readConfig(this.ctx.configDir)
    const p = resolveProfile({flag: args.name ?? flags.profile, env: process.env, config, emulatorDataDir: this.ctx.emulatorDataDir})
    await this.writeOne(
      'profile',
      {
        name: p.name,
        active: p.name === config.active,
        environment: p.environment,
        base_url: p.baseUrl,
        token: p.token ? maskToken(p.token) : p.tokenSource !== 'env' && p.tokenStore === 'keyring' ? '(in the OS keyring)' : null,
        token_source: p.tokenSource,
        token_store: p.tokenSource === 'env' ? 'environment' : p.tokenStore,
        rate_limit: `${p.rateLimit.limit}/${p.rateLimit.windowMs / 1000}s`,
        rate_limit_source: p.rateLimitSource,
        organization_id: p.organizationId ?? null,
        oauth_client_id: config.profiles[p.name]?.oauth_client_id ?? null,
        api_version: p.apiVersion,
        api_version_source: p.apiVersionSource,
      },
      flags,
    )
  }
}
