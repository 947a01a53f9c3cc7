import {Args, Flags} from '@oclif/core'

import {BaseCommand} from '../../areas/command.js'
import {DEFAULT_URLS, ENVIRONMENTS, readConfig, updateConfig, validProfileName, type ConfigData, type ProfileRecord} from '../../cli/config/profiles.js'
import {readToken} from '../../cli/config/token-input.js'
import {verifyToken, type Organization} from '../../cli/config/verify.js'
import {printable} from '../../client/ids.js'
import {usageError} from '../../client/till-error.js'
import {assertSafeBaseUrl} from '../../client/origin.js'
import {parseRateLimit} from '../../client/rate-limit.js'
import {isKnownApiVersion, KNOWN_VERSIONS_TEXT} from '../../client/version.js'

export default class ProfilesAdd extends BaseCommand {
  static override summary = 'Add a profile (or replace one), reading its token from a hidden prompt or stdin.'
  static override description =
    'The token is never taken as an argument: on a terminal it is asked for without echo; in scripts pipe it with --token-stdin. As auth login does, the token is checked against the API first (its organization is recorded), and a token the API refuses is not saved; --no-verify saves it unchecked (offline setup). The token is kept in the OS keyring, or where none answers (or with --insecure-storage) in the config file, which is private to you (mode 0600).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> prod --environment production',
    {
      description: 'From a secret store, in a script',
      command: 'pass polar/sandbox | <%= config.bin %> <%= command.id %> sandbox --environment sandbox --token-stdin --use',
    },
    {
      description: 'Save a token without checking it now (no network)',
      command: 'pass polar/prod | <%= config.bin %> <%= command.id %> prod --environment production --token-stdin --no-verify',
    },
    {
      description: 'A production profile with a limit negotiated with support',
      command: '<%= config.bin %> <%= command.id %> prod --environment production --rate-limit 1000/60s',
    },
  ]

  static override args = {name: Args.string({ignoreStdin: true, description: 'Profile name.', required: true})}
  static override flags = {
    environment: Flags.option({char: 'e', options: ENVIRONMENTS, description: 'Environment of the profile.', required: true})(),
    url: Flags.string({description: "Base URL (default: the environment's, e.g. https://api.polar.sh/v1)."}),
    'token-stdin': Flags.boolean({description: 'Read the token from stdin.'}),
    'rate-limit': Flags.string({description: 'Per-minute budget negotiated with support, N/WINDOW such as 1000/60s.'}),
    'api-version': Flags.string({description: 'Pin this API version (Polar-Version): 2026-04, 2026-10 (the default) or 2027-01.'}),
    'organization-id': Flags.string({description: 'Organization id (informational; the token decides).'}),
    'oauth-client-id': Flags.string({
      description: 'Public OAuth2 client (polar_ci_...) for signing in through the browser later (till auth login --web); no token is asked then.',
    }),
    use: Flags.boolean({description: 'Make it the active profile.'}),
    'insecure-storage': Flags.boolean({description: 'Keep the token in the config file (mode 0600) instead of the OS keyring.'}),
    verify: Flags.boolean({description: 'Check the token against the API before saving it (--no-verify: save it unchecked).', default: true, allowNo: true}),
    'no-input': Flags.boolean({description: 'Never prompt; fail if something is missing.'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parseWithGlobals(ProfilesAdd)
    if (!validProfileName(args.name)) throw usageError(`"${args.name}" is not a valid profile name`, 'use letters, digits, ".", "_" and "-"')
    if (flags.url && !/^https?:\/\/\S+$/.test(flags.url)) throw usageError(`--url is not a URL: "${flags.url}"`)
    if (flags.url && flags.environment !== 'local') assertSafeBaseUrl(flags.url, '--url')
    if (flags['rate-limit']) {
      try {
        if (!parseRateLimit(flags['rate-limit'])) throw new Error('"off" is not a budget')
      } catch (error) {
        throw usageError(`--rate-limit: ${(error as Error).message}`)
      }
    }
    if (flags['api-version'] && !isKnownApiVersion(flags['api-version']))
      throw usageError(`--api-version must be an API version the service knows, ${KNOWN_VERSIONS_TEXT}, not "${printable(flags['api-version'])}"`)
    readConfig(this.ctx.configDir) // a damaged file is reported before asking for anything
    if (flags['oauth-client-id'] && !/^polar_ci_\S+$/.test(flags['oauth-client-id']))
      throw usageError(`--oauth-client-id is not an OAuth2 client id: "${flags['oauth-client-id']}"`, 'client ids start with polar_ci_')
    const needsToken = (flags.environment !== 'local' && !flags['oauth-client-id']) || flags['token-stdin']
    const token = needsToken
      ? await readToken(this.ctx.io, {
          fromStdin: flags['token-stdin'],
          message: `Organization access token for ${args.name} (${flags.environment}):`,
          noInput: flags['no-input'],
        })
      : undefined
    // Checked as auth login does; a local profile without a URL has nothing certain to ask (the emulator may not run).
    let organization: Organization | undefined
    if (token && flags.verify && (flags.environment !== 'local' || flags.url)) {
      const baseUrl = (flags.url ?? DEFAULT_URLS[flags.environment]).replace(/\/+$/, '')
      organization = await verifyToken(this.ctx, {baseUrl, token, environment: flags.environment, name: args.name, force: false, forceFlag: '--no-verify'})
    }
    const profile: ProfileRecord = {environment: flags.environment}
    if (flags.url) profile.base_url = flags.url.replace(/\/+$/, '')
    if (flags['rate-limit']) profile.rate_limit = flags['rate-limit']
    if (flags['api-version']) profile.api_version = flags['api-version']
    if (flags['organization-id'] ?? organization?.id) profile.organization_id = flags['organization-id'] ?? organization?.id
    if (flags['oauth-client-id']) profile.oauth_client_id = flags['oauth-client-id']
    const write = (c: ConfigData) => {
      c.profiles[args.name] = profile
      if (flags.use) c.active = args.name
    }
    const replaced = readConfig(this.ctx.configDir).profiles[args.name]
    const secrets = token || replaced?.keyring ? await import('../../cli/config/secrets.js') : undefined
    if (token) await secrets!.saveCredential(this.ctx, args.name, {token}, {insecure: flags['insecure-storage'], change: write})
    else await updateConfig(this.ctx.configDir, write)
    // the token of the profile replaced without one leaves the keyring too
    if (!token && replaced?.token_store === 'keyring' && replaced.keyring) await secrets!.forgetKeyring(this.ctx, replaced.keyring.account)
    const data = readConfig(this.ctx.configDir)
    if (organization) this.ctx.note(`The token belongs to organization ${organization.name} (${organization.id}).`)
    this.ctx.note(
      `Saved profile "${args.name}" (${flags.environment})${data.active === args.name ? ', now active' : `; use it with: till profiles use ${args.name}`}.`,
    )
    if (!token && flags['oauth-client-id']) this.ctx.note(`Sign in with: till auth login -p ${args.name} --web`)
  }
}
