import {BaseCommand, outputFlags} from '../../areas/command.js'
import {toTillError} from '../../client/errors.js'
import {ExitCode, TillError} from '../../client/till-error.js'
import {PER_IP_BUDGET} from '../../cli/context.js'
import {ruleText} from '../../client/rate-limit.js'
import {maskToken} from '../../client/redact.js'

export default class AuthStatus extends BaseCommand {
  static override summary = 'Show who till is signed in as: profile, environment, organization, token (masked), whether it works.'
  static override description = 'Exits 4 when the profile cannot be used (no token, or the API refuses it), so scripts can check before they start.'
  static override enableJsonFlag = true
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile sandbox --json']
  static override flags = {...outputFlags}

  async run(): Promise<void> {
    const {flags} = await this.parseWithGlobals(AuthStatus)
    const p = this.ctx.profile
    let organization: {id: string; name: string} | undefined
    let problem: TillError | undefined
    // The local profile's token may come from an emulator started for this command: show that one.
    let token = p.token
    try {
      const client = await this.ctx.client()
      token = client.options.token
      organization = (await client.get<{items: Array<{id: string; name: string}>}>('/organizations/')).items[0]
    } catch (error) {
      problem = toTillError(error, this.errorContext())
    }
    await this.writeOne('auth-status', {
      profile: p.name,
      environment: p.environment,
      base_url: p.baseUrl,
      organization: organization ? `${organization.name} (${organization.id})` : null,
      token: token ? maskToken(token) : null,
      token_source: p.tokenSource === 'none' && token ? 'emulator' : p.tokenSource,
      works: problem ? `no: ${problem.message}` : 'yes',
      rate_budget: `${ruleText(p.rateLimit)} (${p.rateLimitSource}), ${ruleText(PER_IP_BUDGET)} per IP`,
    }, flags)
    // The exit code says why: 4 only for a credential the service refused, 6 when it could not be reached.
    if (problem) throw new TillError(`profile "${p.name}" cannot be used: ${problem.message}`, problem.exitCode === ExitCode.error ? ExitCode.auth : problem.exitCode, problem.hint)
  }
}
